"""The run's figures: percentiles, and acks, server timings and load by window of time."""

from __future__ import annotations

import collections
import math
from collections.abc import Iterable, Sequence
from typing import Any

from bench.disk import summary as disk_summary
from bench.rehearsal.stats import Stats


def percentiles(xs: list[float]) -> dict[str, Any]:
    if not xs:
        return {"n": 0}
    s = sorted(xs)
    n = len(s)

    def q(p: float) -> float:
        return round(s[min(n - 1, math.floor(p * (n - 1) + 0.5))] * 1000, 1)

    return {"n": n, "p50": q(0.5), "p90": q(0.9), "p99": q(0.99), "max": round(s[-1] * 1000, 1)}


def ack_by_window(at: list[float], latencies: list[float], window: float) -> list[dict[str, Any]]:
    """The ack percentiles per `window` seconds of play: whether the tail is spread over
    the whole party or comes at moments (the reveals, the relay)."""
    if not at:
        return []
    buckets = by_window(zip(at, latencies, strict=True), min(at), window)
    return [{"from_s": int(k * window), **percentiles(v)} for k, v in sorted(buckets.items())]


def server_acks_by_window(logs: list[str], start: float, window: float) -> list[dict[str, Any]]:
    """The daphnes' own timing of each act (events/live/acttiming.py), in windows from `start`
    (a unix time: the harness's first ack, which opens ack_by_30s's first window): the
    server's part of the acks' tail, the database write's part of it, the share of acts
    that took the threads' path, and the worst loop lag and collector pause."""
    acts: list[tuple[float, tuple[float, float, bool]]] = []
    loops: list[tuple[float, tuple[float, float, float]]] = []
    for text in logs:
        for line in text.splitlines():
            if not line.startswith("acttiming "):
                continue
            parts = line.split()
            fields = dict(p.split("=", 1) for p in parts[4 if parts[1] == "act" else 3 :])
            at = float(parts[2])
            if parts[1] == "act":
                ms = float(fields["total"]) / 1000, float(fields["write"]) / 1000  # percentiles() takes s
                acts.append((at, (*ms, parts[3] == "threads")))
            else:
                full = float(fields.get("gc_full_max", 0.0))
                loops.append((at, (float(fields["lag_max"]), float(fields["gc_max"]), full)))
    by_act, by_loop = by_window(acts, start, window), by_window(loops, start, window)
    rows = []
    for k in sorted(by_act):
        total = percentiles([t for t, _, _ in by_act[k]])
        write = percentiles([w for _, w, _ in by_act[k]])
        rows.append(
            {
                "from_s": int(k * window),
                "n": total["n"],
                "p50": total["p50"],
                "p99": total["p99"],
                "max": total["max"],
                "write_p99": write["p99"],
                "threads_share": round(sum(1 for _, _, th in by_act[k] if th) / len(by_act[k]), 2),
                "loop_lag_max": max((lag for lag, _, _ in by_loop.get(k, [])), default=None),
                "gc_pause_max": max((g for _, g, _ in by_loop.get(k, [])), default=None),
                # a full collection walks every tracked object: its pause grows with the sockets
                "gc_full_max": max((f for _, _, f in by_loop.get(k, [])), default=None),
            }
        )
    return rows


def by_window(samples: Iterable[tuple[float, Any]], start: float, window: float) -> dict[int, list[Any]]:
    """(when, value) samples from `start` on, grouped by the `window` they fall in."""
    buckets: dict[int, list[Any]] = collections.defaultdict(list)
    for t, value in samples:
        if t >= start:
            buckets[int((t - start) // window)].append(value)
    return buckets


def load_by_window(
    ack_at: list[float],
    lag: list[tuple[float, float]],
    cpu: list[tuple[float, float, float]],
    window: float,
    fsyncs: Sequence[tuple[float, float]] = (),
) -> list[dict[str, Any]]:
    """The harness's loop lag, the CPU in use and the disk's flushes (bench/disk.py), in
    the windows of `ack_by_window` (same start, the same windows): a window whose ack
    p99 is high while the harness loop was late is the harness's tail, and one where
    the disk stalled is the disk's (every ack waits for its commit's WAL flush)."""
    if not ack_at:
        return []
    start = min(ack_at)
    lags = by_window(lag, start, window)
    cpus = by_window(((t, (mine, daphne)) for t, mine, daphne in cpu), start, window)
    disk = by_window(((t, (t, ms)) for t, ms in fsyncs), start, window)  # summary() wants (when, ms)
    rows = []
    for k in sorted(by_window(((t, None) for t in ack_at), start, window)):
        late = percentiles(lags.get(k, []))
        c = cpus.get(k, [])
        flushes = disk_summary(disk[k]) if k in disk else {}
        rows.append(
            {
                "from_s": int(k * window),
                "harness_lag_p50": late.get("p50"),
                "harness_lag_p99": late.get("p99"),
                "harness_lag_max": late.get("max"),
                "harness_cores": round(sum(m for m, _ in c) / len(c), 2) if c else None,
                "daphne_cores": round(sum(d for _, d in c) / len(c), 2) if c else None,
                "fsync_p99": flushes.get("p99"),
                "fsync_max": flushes.get("max"),
                "fsync_stalled_share": flushes.get("stalled_share"),
            }
        )
    return rows


def broadcast_latencies(stats: Stats) -> list[float]:
    out = []
    for tid, version, t in stats.arrivals:
        t0 = stats.sent_at.get((tid, version))
        if t0 is not None and t >= t0:
            out.append(t - t0)
    return out
