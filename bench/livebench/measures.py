"""What live.py measures with: nearest-rank stats (as bench.js), the CPU of processes from
/proc, and the client's own collector pauses."""

from __future__ import annotations

import gc
import math
import os
import time
from collections.abc import Iterable, Sequence
from typing import Any

now = time.perf_counter
CLK_TCK = os.sysconf("SC_CLK_TCK")


def stats(xs: Sequence[float]) -> dict[str, Any]:
    """boardgame.io bench.js's stats(): nearest-rank on the sorted samples, ms."""
    if not xs:
        return {"n": 0}
    s = sorted(xs)
    n = len(s)

    def q(p: float) -> float:
        return s[min(n - 1, math.floor(p * (n - 1) + 0.5))]

    def r(v: float) -> float:
        return round(v, 2)

    return {"n": n, "p50": r(q(0.5)), "p90": r(q(0.9)), "p99": r(q(0.99)), "max": r(s[-1]), "mean": r(sum(s) / n)}


def ms(xs: Iterable[float]) -> list[float]:
    return [x * 1000 for x in xs]


def proc_cpu_s(pid: int) -> tuple[float, float] | None:
    """(utime, stime) of a process (all its threads), seconds."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) / CLK_TCK, int(fields[12]) / CLK_TCK
    except (OSError, IndexError, ValueError):
        return None


def procs_cpu_s(names: set[str]) -> dict[int, float]:
    """CPU seconds per pid of every process with one of these names (other users' work
    included)."""
    out = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                raw = f.read()
        except OSError:
            continue
        name = raw[raw.find("(") + 1 : raw.rfind(")")]
        if name in names or any(name.startswith(n) for n in names):
            fields = raw.rsplit(")", 1)[1].split()
            out[int(d)] = (int(fields[11]) + int(fields[12])) / CLK_TCK
    return out


def procs_cpu_delta(a: dict[int, float], b: dict[int, float]) -> float:
    """CPU used between two samples by the processes alive at the second (a process that
    ended in between is not counted; one that started is counted whole)."""
    return sum(cpu - a.get(pid, 0.0) for pid, cpu in b.items())


def self_cpu_s() -> float:
    t = os.times()
    return t.user + t.system


DB_PROCS = {"postgres", "redis-server"}


class GcPauses:
    """The client's own garbage-collector pauses: while one runs, no message is read or
    time-stamped, so each adds to every latency in flight. Measured here at 10x10: 171
    collections in a 3.7 s phase, 373 ms in all, the full ones 140-150 ms (they walk
    every message digest kept for the leak check). So the collector is off while a
    phase is timed (`quiet`), as timeit turns it off; these figures show it stayed so."""

    def __init__(self) -> None:
        self.ms: list[float] = []
        self._t = 0.0
        gc.callbacks.append(self._on)

    def _on(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._t = now()
        elif self._t:
            self.ms.append((now() - self._t) * 1000)

    def take(self) -> dict[str, Any]:
        out, self.ms = self.ms, []
        return {**stats(out), "totalMs": round(sum(out), 1)}

    @staticmethod
    def quiet() -> None:
        """Before a timed phase: what setup made is left out of every later collection,
        and nothing is collected until `loud`."""
        gc.collect()
        gc.freeze()
        gc.disable()

    @staticmethod
    def loud() -> None:
        gc.enable()
