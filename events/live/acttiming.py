"""Where each table action's time goes inside this process, for the benchmarks
(`HEIST_ACT_TIMING=1`; off by default, and then an act costs a clock read and two
attribute tests).

A line per act on stderr, `acttiming act <unix time> <path> q= write= send= total=` in
ms: `q` from the frame's arrival to its turn in the socket's queue (behind the
socket's earlier requests and group messages), `write` the database part (the loop's
one statement, or the acts' threads: `path` says which) with any wait for the table's
turn or a connection, `send` the `ok`. Every 10 s a line of the event loop's lag (how
late a 20 ms sleep wakes) and the collector's pauses. bench/party.py reads them back
(`--keep-logs`, `server_acks_by_30s`): a slow ack is then the network and the harness,
this process's loop, or the database's commit.
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import time

ON = os.environ.get("HEIST_ACT_TIMING") == "1"
EVERY_S = 10.0
TICK_S = 0.02

_sampling: asyncio.Future[None] | None = None
_gc_started = 0.0
_gc_pauses: list[float] = []
_gc_full: list[float] = []  # the pauses of full (generation 2) collections, which walk every tracked object


def act(path: str, arrived: float, started: float, written: float, sent: float) -> None:
    """One acknowledged act's phases (time.perf_counter() readings)."""
    ms = 1000.0
    print(
        f"acttiming act {time.time():.3f} {path} q={ms * (started - arrived):.1f} write={ms * (written - started):.1f}"
        f" send={ms * (sent - written):.1f} total={ms * (sent - arrived):.1f}",
        file=sys.stderr,
        flush=True,
    )


def start_sampling() -> None:
    """The loop-lag and collector sampler, once per process (a socket's connect)."""
    global _sampling
    if not ON or _sampling is not None:
        return
    gc.callbacks.append(_on_gc)
    _sampling = asyncio.ensure_future(_sample())


def _on_gc(phase: str, info: dict[str, int]) -> None:
    global _gc_started
    if phase == "start":
        _gc_started = time.perf_counter()
    else:
        pause = 1000.0 * (time.perf_counter() - _gc_started)
        _gc_pauses.append(pause)
        if info.get("generation") == 2:
            _gc_full.append(pause)


def _q(xs: list[float], p: float) -> float:
    return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else 0.0


async def _sample() -> None:
    lags: list[float] = []
    last = time.monotonic()
    while True:
        t = time.perf_counter()
        await asyncio.sleep(TICK_S)
        lags.append(1000.0 * (time.perf_counter() - t - TICK_S))
        if time.monotonic() - last >= EVERY_S:
            last = time.monotonic()
            ls, gs, full = sorted(lags), sorted(_gc_pauses), list(_gc_full)
            lags.clear()
            _gc_pauses.clear()
            _gc_full.clear()
            print(
                f"acttiming loop {time.time():.3f} lag_p50={_q(ls, 0.5):.1f} lag_p99={_q(ls, 0.99):.1f}"
                f" lag_max={_q(ls, 1):.1f} gc_n={len(gs)} gc_p99={_q(gs, 0.99):.1f} gc_max={_q(gs, 1):.1f}"
                f" gc_full_n={len(full)} gc_full_max={max(full, default=0.0):.1f}",
                file=sys.stderr,
                flush=True,
            )
