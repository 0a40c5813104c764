"""The daphne processes under test (one or N, each party on one by its code), optionally
under cProfile."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

from bench.livebench.measures import proc_cpu_s

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = ROOT / ".venv" / "bin"
HOST = "127.0.0.1"


PROFILE_WRAPPER = """
import cProfile, sys, time
out = sys.argv[1]
sys.argv = ["daphne", *sys.argv[2:]]
from daphne.cli import CommandLineInterface
prof = cProfile.Profile(time.thread_time)
try:
    prof.runcall(CommandLineInterface.entrypoint)
finally:
    prof.dump_stats(out)
"""


class Server:
    """One daphne process on 127.0.0.1, in its own process group, killed at the end."""

    def __init__(self, env: dict, port: int, logdir: Path, profile: str = ""):
        self.env, self.port, self.logdir, self.profile = env, port, logdir, profile
        self.proc: subprocess.Popen | None = None

    def start(self, timeout=30.0):
        self.err = open(self.logdir / "daphne.stderr", "w")
        cmd = [
            str(VENV_BIN / "daphne"),
            "-b",
            HOST,
            "-p",
            str(self.port),
            "-v",
            "0",
            "--websocket-max-frame-size",
            "4096",
            "--websocket-max-message-size",
            "262144",
            "config.asgi:application",
        ]
        if self.profile:  # CPU time of the event-loop thread only; the ORM runs in Channels' DB thread
            cmd = [str(VENV_BIN / "python"), "-c", PROFILE_WRAPPER, str(Path(self.profile).resolve()), *cmd[1:]]
        self.proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self.err,
            start_new_session=True,
        )
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited {self.proc.returncode}: {self.log_tail()}")
            try:
                with socket.create_connection((HOST, self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("daphne did not listen within 30 s")

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def cpu_s(self):
        return proc_cpu_s(self.pid) if self.proc else None

    def rss_mb(self):
        try:
            with open(f"/proc/{self.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return round(int(line.split()[1]) / 1024)
        except OSError:
            return None

    def log_tail(self, n=2000):
        try:
            return (self.logdir / "daphne.stderr").read_text()[-n:]
        except OSError:
            return ""

    def log_summary(self):
        text = (self.logdir / "daphne.stderr").read_text() if (self.logdir / "daphne.stderr").exists() else ""
        lines = text.splitlines()
        tracebacks = sum(1 for line in lines if line.startswith("Traceback"))
        samples = [line[:200] for line in lines if "Error" in line or "error" in line][:5]
        return {"lines": len(lines), "tracebacks": tracebacks, "samples": samples}

    def stop(self):
        if not self.proc or self.proc.poll() is not None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(5)
        except (subprocess.TimeoutExpired, ProcessLookupError):
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(5)


class Servers:
    """Several daphnes measured as one server: CPU and memory summed."""

    def __init__(self, servers: list[Server]):
        self.servers = servers
        self.proc = servers[0].proc

    def cpu_s(self):
        parts = [s.cpu_s() for s in self.servers]
        return tuple(sum(p[i] for p in parts if p) for i in range(2))

    def rss_mb(self):
        return sum(s.rss_mb() or 0 for s in self.servers)

    def log_summary(self):
        parts = [s.log_summary() for s in self.servers]
        return {
            "lines": sum(p["lines"] for p in parts),
            "tracebacks": sum(p["tracebacks"] for p in parts),
            "samples": [x for p in parts for x in p["samples"]][:5],
            "daphnes": len(parts),
        }

    def stop(self):
        for s in self.servers:
            s.stop()
