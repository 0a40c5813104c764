"""The server side of a rehearsal or a fault test, as real subprocesses on loopback.

`DaphneServer` runs `.venv/bin/daphne config.asgi:application` on a free 127.0.0.1 port
with the environment it is given (settings module, database, channel-layer prefix).
`kill9()` is a crash (SIGKILL: no shutdown hooks, open transactions die with their
connections); `start()` brings it back on the same port, as a process manager would.

`RedisServer` is a throwaway `redis-server` on its own port, safe to kill: the
machine's shared Redis on 6379 is never touched.

Used by bench/party.py (the full-size rehearsal) and tests/faults/ (which adds its
test-database environment in tests/faults/server.py).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DAPHNE = REPO / ".venv" / "bin" / "daphne"

# The daphne options every server we start uses, as bin/serve, the Dockerfile and
# compose do. Autobahn refuses an incoming WebSocket frame over 4096 bytes (the largest
# legal frame is a few hundred) before buffering it, and a message (frames joined) over
# 256 KiB; its defaults are 1 MiB each. The message limit also caps what the server
# sends, so it must stay well above the largest snapshot (a 100-guest host snapshot is
# measured in tests/hardening/test_deploy.py). events/live/consumers.py checks 4096 again.
DAPHNE_ARGS = ("--websocket-max-frame-size", "4096", "--websocket-max-message-size", "262144")
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def party_server(servers: list, code: str):
    """Which of `servers` a party's sockets go to, by its code, as a proxy hashing the
    URL does (deploy/nginx.conf's /ws/party/ upstream): every screen of a party on one."""
    return servers[zlib.crc32(code.encode()) % len(servers)]


def no_proxy_env(base: dict | None = None) -> dict:
    """The environment without *_proxy variables: everything here is loopback."""
    return {k: v for k, v in (base if base is not None else os.environ).items() if not k.lower().endswith("_proxy")}


def _no_proxy_opener():
    return urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Killable:
    """A server subprocess a test can crash (kill9) or end (stop)."""

    proc: subprocess.Popen | None
    kills: int

    def kill9(self) -> None:
        """A crash: SIGKILL, and wait until the process is gone."""
        assert self.proc is not None and self.proc.poll() is None, "not running"
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.kills += 1

    def stop(self, grace: float = 0) -> None:
        """The end of a run. No graceful shutdown is needed (nothing is kept in memory);
        `grace` seconds of SIGTERM first let a process flush its log or shut down fast."""
        if self.proc is None or self.proc.poll() is not None:
            return
        if grace:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=grace)
                return
            except subprocess.TimeoutExpired:
                pass
        self.proc.kill()
        self.proc.wait(timeout=10)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def suspend(self) -> None:
        """The laptop asleep: SIGSTOP. The process keeps its sockets but runs nothing; the
        kernel still accepts connections into its backlog."""
        assert self.running, "not running"
        os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        """The laptop awake again: SIGCONT."""
        os.kill(self.proc.pid, signal.SIGCONT)

    def interrupt(self, timeout: float = 30) -> int:
        """Ctrl-C in the terminal (bin/serve execs daphne, so daphne gets the SIGINT):
        wait until it has shut down; its exit status."""
        assert self.running, "not running"
        os.kill(self.proc.pid, signal.SIGINT)
        return self.proc.wait(timeout=timeout)


class DaphneServer(Killable):
    """One daphne process serving config.asgi:application on 127.0.0.1:<port>.

    `env` is the whole environment of the process (DJANGO_SETTINGS_MODULE included);
    `log_path` collects its output across restarts."""

    def __init__(self, *, env: dict, log_path: Path, port: int | None = None, extra_args: tuple[str, ...] = ()):
        self._env = env
        self.port = port or free_port()
        self.log_path = Path(log_path)
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self.extra_args = tuple(extra_args)
        self.proc: subprocess.Popen | None = None
        self.starts = 0
        self.kills = 0

    @property
    def origin(self) -> str:
        return f"http://{HOST}:{self.port}"

    def ws_url(self, code: str) -> str:
        return f"ws://{HOST}:{self.port}/ws/party/{code}/"

    def env(self) -> dict:
        return dict(self._env)

    # 90 s: a daphne starts in 1-3 s here, but on a 2-core machine running two test workers
    # (each with its own daphnes and Chromium) a start has been seen to take over 30 s.
    def start(self, timeout: float = 90) -> DaphneServer:
        assert self.proc is None or self.proc.poll() is not None, "already running"
        log = open(self.log_path, "ab")
        log.write(f"--- start #{self.starts + 1} ---\n".encode())
        log.flush()
        self.proc = subprocess.Popen(
            [str(DAPHNE), "-b", HOST, "-p", str(self.port), *DAPHNE_ARGS, *self.extra_args, "config.asgi:application"],
            cwd=REPO,
            env=self.env(),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        self.starts += 1
        self.wait_healthy(timeout)
        return self

    def wait_healthy(self, timeout: float = 90) -> None:
        opener = _no_proxy_opener()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                with opener.open(f"{self.origin}/healthz", timeout=1) as r:
                    if r.status == 200 and json.loads(r.read()).get("ok") is True:
                        return
            except (urllib.error.URLError, ConnectionError, OSError, ValueError):
                pass
            time.sleep(0.05)
        raise RuntimeError(f"daphne on {self.port} not healthy after {timeout}s:\n{self.log_tail()}")

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def log_tail(self, n: int = 60) -> str:
        return "\n".join(self.log_text().splitlines()[-n:]) or "(no log)"

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


class RedisServer(Killable):
    """A private redis-server on a free port (no persistence): safe to kill."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.kills = 0

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/"

    def start(self, timeout: float = 10) -> RedisServer:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                HOST,
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
                "--loglevel",
                "warning",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                with socket.create_connection((HOST, self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.proc.returncode}")
            time.sleep(0.05)
        raise RuntimeError("redis-server did not answer PING")


class PostgresServer(Killable):
    """A private PostgreSQL cluster (initdb in a temporary directory, trust auth for
    `postgres` on 127.0.0.1) on a free port: a rehearsal that exhausts connections
    exhausts its own `max_connections`, never the shared server's."""

    def __init__(self, root: Path, port: int | None = None):
        self.root = Path(root)
        self.data = self.root / "data"
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.kills = 0
        self.bin = self._bin_dir()

    @staticmethod
    def _bin_dir() -> Path:
        versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
        if not versions:
            raise RuntimeError("no PostgreSQL server binaries under /usr/lib/postgresql")
        return versions[-1].parent

    def _as_postgres(self, cmd: list[str]) -> list[str]:
        # initdb and postgres refuse to run as root
        return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd

    def start(self, timeout: float = 60) -> PostgresServer:
        self.root.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        if not self.data.exists():
            subprocess.run(
                self._as_postgres(
                    [
                        str(self.bin / "initdb"),
                        "-D",
                        str(self.data),
                        "-U",
                        "postgres",
                        "--auth=trust",
                        "-E",
                        "UTF8",
                        "--no-sync",
                    ]
                ),
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        self.proc = subprocess.Popen(
            self._as_postgres(
                [
                    str(self.bin / "postgres"),
                    "-D",
                    str(self.data),
                    "-p",
                    str(self.port),
                    "-c",
                    f"listen_addresses={HOST}",
                    "-c",
                    f"unix_socket_directories={self.root}",
                    # What the log needs to explain a stall: checkpoints, autovacuum,
                    # lock waits and slow statements, with their times.
                    "-c",
                    "log_checkpoints=on",
                    "-c",
                    "log_autovacuum_min_duration=0",
                    "-c",
                    "log_lock_waits=on",
                    "-c",
                    "log_min_duration_statement=250",
                    "-c",
                    "log_line_prefix=%m [%p] %a ",
                ]
            ),
            stdout=subprocess.DEVNULL,
            stderr=open(self.root / "postgres.log", "ab"),
        )
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"postgres exited with {self.proc.returncode}")
            ready = subprocess.run(
                [str(self.bin / "pg_isready"), "-h", HOST, "-p", str(self.port), "-U", "postgres"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            if ready.returncode == 0:
                return self
            time.sleep(0.2)
        raise RuntimeError("the private postgres did not become ready")

    def stop(self, grace: float = 20) -> None:
        # runuser forwards SIGTERM to postgres: a fast shutdown of the throwaway cluster
        super().stop(grace=grace)

    def restart(self, down: float = 0) -> float:
        """`systemctl restart postgresql`: a fast shutdown (every session ended, its open
        transaction rolled back), `down` seconds with no server, then the same cluster on
        the same port. Seconds down in all."""
        t = time.monotonic()
        self.shut_down()
        time.sleep(down)
        self.start()
        return time.monotonic() - t

    def shut_down(self) -> None:
        """The first half of `restart`: `pg_ctl stop -m fast`, waited for."""
        subprocess.run(
            self._as_postgres([str(self.bin / "pg_ctl"), "stop", "-D", str(self.data), "-m", "fast", "-w"]),
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if self.proc is not None:
            self.proc.wait(timeout=30)
