"""The real server as a subprocess, a private Redis, and a real-socket phone.

`DaphneServer` runs `.venv/bin/daphne config.asgi:application` on a free loopback port
with config.settings.browser, pointed at the database pytest-django made for this run
(so a `django_db(transaction=True)` test and the server see each other's commits) and
at this run's channel-layer prefix. `kill9()` is a crash (SIGKILL: no shutdown hooks,
open transactions die with their connections); `start()` brings it back on the same
port, as a process manager would.

`RedisServer` is a throwaway `redis-server` on its own port: tests may kill it. The
machine's Redis on 6379 is never touched.

`LivePhone` is one screen over a real WebSocket (the `websockets` library), doing what
docs/PROTOCOL.md asks of a client: hello with its secret, one reply per request matched
by `re`, and for every `table` stream it watches, versions must go up by exactly one: a
gap means it missed broadcasts, so it sends `resync` and takes the snapshot (the logic
of static/heist/live.js, the browsers' client). A request
whose socket dies before the reply is resent with the same `re` on a new socket (the
server acknowledges a repeat as a duplicate, applied once).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import websockets
from websockets.asyncio.client import connect as ws_connect

from tests.daphne_args import DAPHNE_ARGS

REPO = Path(__file__).resolve().parents[2]
DAPHNE = REPO / ".venv" / "bin" / "daphne"
LOG_DIR = Path(os.environ.get("HEIST_FAULT_LOGS", "/tmp/heist-faults"))

_ids = itertools.count(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _no_proxy_opener():
    return urllib.request.build_opener(urllib.request.ProxyHandler({}))


class _Killable:
    """A server subprocess a test can crash (kill9) or end (stop)."""

    proc: subprocess.Popen | None
    kills: int

    def kill9(self) -> None:
        """A crash: SIGKILL, and wait until the process is gone."""
        assert self.proc is not None and self.proc.poll() is None, "not running"
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.kills += 1

    def stop(self) -> None:
        """The end of a test: no graceful shutdown needed (nothing is kept in memory)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


class DaphneServer(_Killable):
    """One daphne process serving config.asgi:application on 127.0.0.1:<port>."""

    def __init__(self, *, db_name: str, run_id: str, redis_url: str | None = None, port: int | None = None):
        self.db_name = db_name
        self.run_id = run_id
        self.redis_url = redis_url
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.starts = 0
        self.kills = 0
        LOG_DIR.mkdir(parents=True, exist_ok=True)
        self.log_path = LOG_DIR / f"daphne-{run_id}-{self.port}.log"

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, code: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/party/{code}/"

    def env(self) -> dict:
        env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.browser",
            HEIST_BROWSER_DB=self.db_name,
            HEIST_TEST_RUN_ID=self.run_id,
            PYTHONUNBUFFERED="1",
            DJANGO_LOG_LEVEL="WARNING",
        )
        env.pop("HEIST_TEST_REDIS_URL", None)
        if self.redis_url:
            env["HEIST_TEST_REDIS_URL"] = self.redis_url
        return env

    def start(self, timeout: float = 30) -> DaphneServer:
        assert self.proc is None or self.proc.poll() is not None, "already running"
        log = open(self.log_path, "ab")
        log.write(f"--- start #{self.starts + 1} ---\n".encode())
        log.flush()
        self.proc = subprocess.Popen(
            [str(DAPHNE), "-b", "127.0.0.1", "-p", str(self.port), *DAPHNE_ARGS, "config.asgi:application"],
            cwd=REPO,
            env=self.env(),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        self.starts += 1
        self.wait_healthy(timeout)
        return self

    def wait_healthy(self, timeout: float = 30) -> None:
        opener = _no_proxy_opener()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                with opener.open(f"{self.origin}/healthz", timeout=1) as r:
                    if r.status == 200 and json.loads(r.read()) == {"ok": True}:
                        return
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.05)
        raise RuntimeError(f"daphne on {self.port} not healthy after {timeout}s:\n{self.log_tail()}")


    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log_tail(self, n: int = 60) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no log)"

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def http(self, method: str, path: str, body: dict | None = None, headers: dict | None = None):
        """(status, parsed JSON or bytes) of one request to this server."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(f"{self.origin}{path}", data=data, method=method, headers=headers or {})
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with _no_proxy_opener().open(req, timeout=10) as r:
                status, raw = r.status, r.read()
        except urllib.error.HTTPError as e:
            status, raw = e.code, e.read()
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw


class RedisServer(_Killable):
    """A private redis-server on a free port (no persistence): safe to kill."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.kills = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/"

    def start(self, timeout: float = 10) -> RedisServer:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--save", "",
                "--appendonly", "no",
                "--daemonize", "no",
                "--loglevel", "warning",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.proc.returncode}")
            time.sleep(0.05)
        raise RuntimeError("redis-server did not answer PING")



# --- the phone ---------------------------------------------------------------------------


class Disconnected(Exception):
    """The socket closed before the reply arrived."""


class LivePhone:
    """One screen's real socket. `role` is host, guest or spectator.

    Views are tracked per stream: ("seat", table id) for a guest's own view,
    ("public", table id) for the public view a host, spectator or captain gets. For
    each the phone keeps the newest payload, ignores older ones, and on a gap (a
    version more than one ahead) applies it and sends `resync`; a snapshot replaces
    every stream."""

    def __init__(self, server: DaphneServer, code: str, role: str, token: str | None = None, *, origin: str | None = None):
        self.server = server
        self.code = code
        self.role = role
        self.token = token
        self.origin = origin or server.origin
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.pending: dict[str, asyncio.Future] = {}
        self.views: dict[tuple[str, int], dict] = {}
        self.snapshot: dict | None = None
        self.party: dict | None = None
        self.inbox: list[dict] = []
        self.close_code: int | None = None
        self.closed = asyncio.Event()
        self.resync_re: str | None = None
        self.gaps = 0  # gaps seen (each asked for one resync at most)
        self.resyncs = 0  # resync frames sent because of gaps
        self.connects = 0

    # --- connection --------------------------------------------------------------------

    async def open(self) -> dict:
        """Connect and say hello; the reply (a snapshot, or an error) is returned."""
        self.ws = await ws_connect(
            self.server.ws_url(self.code),
            origin=self.origin,
            proxy=None,
            open_timeout=5,
            close_timeout=1,
            ping_interval=None,
            max_queue=None,
            compression=None,
        )
        self.connects += 1
        self.closed = asyncio.Event()
        self.close_code = None
        self.resync_re = None
        self.reader = asyncio.create_task(self._read(self.ws))
        return await self.request({"type": "hello", "role": self.role, "token": self.token})

    async def reconnect(self, timeout: float = 30) -> dict:
        """A new socket and hello, retrying while the server is down; the snapshot."""
        await self.close()
        end = asyncio.get_running_loop().time() + timeout
        delay = 0.05
        last = None
        while asyncio.get_running_loop().time() < end:
            try:
                snap = await self.open()
                if snap.get("type") == "snapshot":
                    return snap
                last = snap
            except (OSError, websockets.exceptions.WebSocketException, Disconnected, asyncio.TimeoutError) as exc:
                last = exc
            await self.close()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.5)
        raise AssertionError(f"could not reconnect in {timeout}s: {last!r}")

    async def close(self) -> None:
        ws, self.ws = self.ws, None
        if ws is not None:
            try:
                await asyncio.wait_for(ws.close(), 2)
            except Exception:
                pass
        if self.reader is not None:
            try:
                await asyncio.wait_for(self.reader, 2)
            except Exception:
                self.reader.cancel()
            self.reader = None

    async def _read(self, ws) -> None:
        try:
            async for raw in ws:
                self._on(json.loads(raw))
        except websockets.exceptions.ConnectionClosed:
            pass
        finally:
            self.close_code = ws.close_code if ws.close_code is not None else 1006
            self.closed.set()
            for fut in self.pending.values():
                if not fut.done():
                    fut.set_exception(Disconnected(f"closed with {self.close_code}"))
            self.pending.clear()

    # --- incoming ----------------------------------------------------------------------

    def _on(self, msg: dict) -> None:
        self.inbox.append(msg)
        kind = msg.get("type")
        if kind == "snapshot":
            self._take_snapshot(msg)
            if msg.get("re") is not None and msg.get("re") == self.resync_re:
                self.resync_re = None
        elif kind == "table":
            self._take_table(msg)
        elif kind == "party":
            self.party = msg["party"]
        re = msg.get("re")
        if re is not None and kind in ("ok", "error", "snapshot"):
            fut = self.pending.pop(re, None)
            if fut is not None and not fut.done():
                fut.set_result(msg)

    def _take_snapshot(self, snap: dict) -> None:
        self.snapshot = snap
        self.party = snap["party"]
        self.views = {}  # as live.js: a snapshot replaces every stream
        if snap["role"] == "guest":
            for key, payload in (("seat", snap.get("table")), ("public", snap.get("public"))):
                if payload:
                    self.views[(key, payload["table"]["id"])] = payload
        else:
            for payload in snap.get("tables", []):
                self.views[("public", payload["table"]["id"])] = payload

    def _take_table(self, msg: dict) -> None:
        # As static/heist/live.js applyTable: an old version is dropped; a newer one is
        # applied, and if it is not last + 1 we missed some: resync.
        key = ("seat" if "you" in msg["view"] else "public", msg["table"]["id"])
        have = self.views.get(key)
        if have is not None and msg["version"] <= have["version"]:
            return
        self.views[key] = msg
        if have is not None and msg["version"] != have["version"] + 1:
            self.gaps += 1
            if self.ws is not None:
                self.resync_re = f"rs{next(_ids)}"
                self.resyncs += 1
                asyncio.ensure_future(self._send_quiet({"type": "resync", "re": self.resync_re}))

    async def _send_quiet(self, frame: dict) -> None:
        try:
            await self.ws.send(json.dumps(frame))
        except Exception:
            pass

    # --- requests ----------------------------------------------------------------------

    async def request(self, frame: dict, timeout: float = 15) -> dict:
        frame = dict(frame)
        frame.setdefault("re", f"q{next(_ids)}")
        fut = asyncio.get_running_loop().create_future()
        self.pending[frame["re"]] = fut
        if self.ws is None or self.closed.is_set():
            self.pending.pop(frame["re"], None)
            raise Disconnected("no socket")
        try:
            await self.ws.send(json.dumps(frame))
        except websockets.exceptions.ConnectionClosed:
            self.pending.pop(frame["re"], None)
            raise Disconnected("closed while sending") from None
        try:
            return await asyncio.wait_for(fut, timeout)
        finally:
            self.pending.pop(frame["re"], None)

    async def request_surely(self, frame: dict, *, reconnect_timeout: float = 30, attempts: int = 10) -> dict:
        """Send until a reply arrives: after a drop, reconnect and resend the same frame
        (same `re`: an action the server already applied is acknowledged as duplicate)."""
        frame = dict(frame)
        frame.setdefault("re", f"s{next(_ids)}")
        last = None
        for _ in range(attempts):
            try:
                return await self.request(frame)
            except (Disconnected, asyncio.TimeoutError) as exc:
                last = exc
                await self.reconnect(reconnect_timeout)
        raise AssertionError(f"no reply to {frame} after {attempts} attempts: {last!r}")

    async def act(self, action: dict, *, table: int | None = None, version: int | None = None, re: str | None = None, surely: bool = False) -> dict:
        frame = {"type": "act", "action": action, "re": re or f"a{next(_ids)}"}
        if table is not None:
            frame["table"] = table
        if version is not None:
            frame["version"] = version
        return await (self.request_surely(frame) if surely else self.request(frame))

    async def command(self, command: str, *, surely: bool = False, **args) -> dict:
        frame = {"type": "party", "command": command, "re": f"c{next(_ids)}", **args}
        return await (self.request_surely(frame) if surely else self.request(frame))

    async def ping(self, timeout: float = 5) -> dict:
        """A ping has no `re`: its reply is the next pong."""
        start = len(self.inbox)
        await self.ws.send(json.dumps({"type": "ping"}))
        end = asyncio.get_running_loop().time() + timeout
        while asyncio.get_running_loop().time() < end:
            for m in self.inbox[start:]:
                if m.get("type") == "pong":
                    return m
            await asyncio.sleep(0.01)
        raise AssertionError("no pong")

    # --- reading the state -------------------------------------------------------------

    def view(self, table_id: int, kind: str = "seat") -> dict | None:
        return self.views.get((kind, table_id))

    def version(self, table_id: int, kind: str = "seat") -> int | None:
        v = self.views.get((kind, table_id))
        return v["version"] if v else None

    async def settle(self, quiet: float = 0.2, timeout: float = 10) -> None:
        """Wait until nothing has arrived for `quiet` seconds and no resync is pending."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        seen = -1
        while loop.time() < end:
            if len(self.inbox) == seen and self.resync_re is None:
                return
            seen = len(self.inbox)
            await asyncio.sleep(quiet)
        raise AssertionError("the phone did not settle")
