"""The real server as a subprocess, a private Redis, and a real-socket phone.

The process machinery lives in bench/stack.py (bench/party.py uses it too); here
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
from pathlib import Path
from typing import Literal

import websockets
from websockets.asyncio.client import connect as ws_connect

from bench import stack
from bench.stack import RedisServer, free_port, no_proxy_env
from games.yankee.views import merge_table_message

__all__ = ["DaphneServer", "Disconnected", "LivePhone", "RedisServer", "free_port"]

LOG_DIR = Path(os.environ.get("HEIST_FAULT_LOGS", "/tmp/heist-faults"))

_ids = itertools.count(1)


class DaphneServer(stack.DaphneServer):
    """A daphne on this test run's database and channel-layer prefix
    (config.settings.browser), optionally on a private Redis."""

    def __init__(self, *, db_name: str, run_id: str, redis_url: str | None = None, port: int | None = None):
        self.db_name = db_name
        self.run_id = run_id
        self.redis_url = redis_url
        port = port or free_port()
        env = no_proxy_env()
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.browser",
            HEIST_BROWSER_DB=db_name,
            HEIST_TEST_RUN_ID=run_id,
            PYTHONUNBUFFERED="1",
            DJANGO_LOG_LEVEL="WARNING",
        )
        env.pop("HEIST_TEST_REDIS_URL", None)
        if redis_url:
            env["HEIST_TEST_REDIS_URL"] = redis_url
        super().__init__(env=env, port=port, log_path=LOG_DIR / f"daphne-{run_id}-{port}.log")


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

    def __init__(
        self, server: DaphneServer, code: str, role: str, token: str | None = None, *, origin: str | None = None
    ):
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
        self.pong_resyncs = 0  # resync frames sent because a pong showed newer versions
        self.heartbeat: asyncio.Task | None = None
        self.heartbeat_every: float | None = None
        self.connects = 0
        self.open_timeout = 5.0  # a browser waits longer (tests/test_compose_stack.py: behind nginx)

    # --- connection --------------------------------------------------------------------

    async def open(self) -> dict:
        """Connect and say hello; the reply (a snapshot, or an error) is returned."""
        self.ws = await ws_connect(
            self.server.ws_url(self.code),
            origin=self.origin,
            proxy=None,
            open_timeout=self.open_timeout,
            close_timeout=1,
            ping_interval=None,
            max_queue=None,
            compression=None,
            # a server reached by another name (tests/test_compose_stack.py: TLS through
            # nginx, the host name mapped to loopback) says how: host, port, ssl
            **getattr(self.server, "connect_kwargs", {}),
        )
        self.connects += 1
        self.closed = asyncio.Event()
        self.close_code = None
        self.resync_re = None
        self.reader = asyncio.create_task(self._read(self.ws))
        if self.heartbeat_every is not None:
            self.start_heartbeat(self.heartbeat_every)
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
            except (TimeoutError, OSError, websockets.exceptions.WebSocketException, Disconnected) as exc:
                last = exc
            await self.close()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.5)
        raise AssertionError(f"could not reconnect in {timeout}s: {last!r}")

    async def close(self) -> None:
        self.stop_heartbeat()
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

    def _merged(self, msg: dict) -> dict:
        """A message as the screen reads it: a table update's public and private parts
        merged as live.js merges them (a game whose screens merge otherwise overrides)."""
        return merge_table_message(msg)

    async def _read(self, ws) -> None:
        try:
            async for raw in ws:
                self._on(self._merged(json.loads(raw)))
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
        elif kind == "pong":
            self._take_pong(msg)
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

    PONG_GRACE = 0.7  # as live.js PONG_GRACE_MS

    def _behind(self, pong: dict) -> bool:
        behind = self.party is not None and pong.get("revision", 0) > self.party.get("revision", 0)
        for tid, version in (pong.get("tables") or {}).items():
            mine = [v["version"] for (_, t), v in self.views.items() if t == int(tid)]
            behind = behind or not mine or min(mine) < version
        return behind

    def _take_pong(self, pong: dict) -> None:
        # As live.js: a pong names the versions this socket reads; behind on any of
        # them (a broadcast lost on the way), or not knowing a table the server says
        # we read (seated while we missed it), and still so a moment later (the
        # broadcast of an action just committed may be on its way): resync.
        if self._behind(pong):
            asyncio.get_running_loop().call_later(self.PONG_GRACE, self._pong_resync, pong)

    def _pong_resync(self, pong: dict) -> None:
        if self._behind(pong) and self.ws is not None and self.resync_re is None:
            self.pong_resyncs += 1
            self.resync_re = f"rs{next(_ids)}"
            asyncio.ensure_future(self._send_quiet({"type": "resync", "re": self.resync_re}))

    def start_heartbeat(self, every: float) -> None:
        """Ping every `every` seconds, as live.js does (its beat is slower)."""

        async def beat():
            while True:
                await asyncio.sleep(every)
                if self.ws is not None and not self.closed.is_set():
                    await self._send_quiet({"type": "ping"})

        self.stop_heartbeat()
        self.heartbeat_every = every  # open() starts it again after a reconnect
        self.heartbeat = asyncio.ensure_future(beat())

    def stop_heartbeat(self) -> None:
        if self.heartbeat is not None:
            self.heartbeat.cancel()
            self.heartbeat = None

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
            except (TimeoutError, Disconnected) as exc:
                last = exc
                await self.reconnect(reconnect_timeout)
        raise AssertionError(f"no reply to {frame} after {attempts} attempts: {last!r}")

    async def act(
        self,
        action: dict,
        *,
        table: int | None = None,
        version: int | Literal["shown"] | None = "shown",
        re: str | None = None,
        surely: bool = False,
    ) -> dict:
        """Send an act as a screen does: with the version it shows of the table
        (`version=None`: none, a frame the server refuses for a checked action)."""
        frame = {"type": "act", "action": action, "re": re or f"a{next(_ids)}"}
        if table is not None:
            frame["table"] = table
        if version == "shown":
            version = self.shows(table)
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

    def shows(self, table_id: int | None = None) -> int | None:
        """The newest version this screen shows of `table_id` (None: the guest's own
        table), as a screen sends it with an act; None when it shows none."""
        shown = [
            v["version"]
            for (kind, t), v in self.views.items()
            if t == table_id or (table_id is None and kind == "seat")
        ]
        return max(shown) if shown else None

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
