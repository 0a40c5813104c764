"""`bin/serve` started as a user starts it, on loopback only: a free port, its own
SQLite (`HEIST_VAR_DIR`), and `HEIST_LAN_ADDRESSES` naming a second loopback address
(127.0.0.2) as its LAN, so no interface of the machine is ever looked at or sent to.

Its terminal (stderr: the banner, the QR codes, daphne's log) is kept line by line.
Used by tests/test_bin_serve.py, tests/test_front_door.py and bench/front_door.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import threading
import time
import urllib.request

from bench.stack import REPO, free_port, no_proxy_env

LAN = "127.0.0.2"


class BinServe:
    def __init__(self, *, lan: str = LAN, env: dict[str, str] | None = None, port: int | None = None) -> None:
        self.port = port or free_port()
        self.lan = lan
        self.extra_env = env or {}
        self.var_dir = tempfile.TemporaryDirectory(prefix="heist-binserve-")
        self.lines: list[str] = []
        self.proc: subprocess.Popen[str] | None = None
        self._reader: threading.Thread | None = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self, timeout: float = 120.0) -> BinServe:
        env = no_proxy_env()
        env.pop("DJANGO_SETTINGS_MODULE", None)  # bin/serve's own default: embedded
        env.update(HEIST_VAR_DIR=self.var_dir.name, HEIST_LAN_ADDRESSES=self.lan, PYTHONUNBUFFERED="1")
        env.pop("HEIST_PUBLIC_URL", None)
        env.update(self.extra_env)
        self.proc = subprocess.Popen(
            [str(REPO / "bin" / "serve"), "--port", str(self.port)],
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,  # migrate's progress
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any("Listening on TCP address" in line for line in self.lines):
                return self
            if self.proc.poll() is not None:
                raise RuntimeError("bin/serve exited:\n" + self.terminal())
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("bin/serve did not start listening:\n" + self.terminal())

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))

    def terminal(self) -> str:
        return "\n".join(self.lines)

    def wait_for_line(self, text: str, timeout: float = 10.0) -> int:
        """The index of the first terminal line containing `text`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for i, line in enumerate(self.lines):
                if text in line:
                    return i
            time.sleep(0.05)
        raise AssertionError(f"bin/serve never printed {text!r}:\n{self.terminal()}")

    def url(self, host: str = "localhost", path: str = "/") -> str:
        return f"http://{host}:{self.port}{path}"

    def get(self, path: str, host: str = "localhost") -> bytes:
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(self.url(host, path), timeout=10) as response:
            data: bytes = response.read()
            return data

    def descriptors(self) -> int:
        """Open file descriptors of bin/serve's daphne (it execs daphne: same pid)."""
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # Ctrl-C, as a host stops it
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._reader is not None:
            self._reader.join(timeout=5)
        self.var_dir.cleanup()

    def __enter__(self) -> BinServe:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
