#!/usr/bin/env python
"""How long this disk makes a durable commit wait: an 8 kB write and fdatasync, as
PostgreSQL's WAL flush at each commit does, every 20 ms, timed.

    python3 bench/disk.py [--dir DIR] [--seconds 30]

Why: every table action here is committed (PostgreSQL, synchronous_commit on) before
anyone hears of it, so each acknowledgement waits for one WAL flush. When the disk
stalls, every action in flight waits for it, whatever the server does. bench/party.py
runs this probe beside a rehearsal (`fsync_*` in each window of `load_by_30s`, beside
`ack_by_30s`) so a slow window can be told apart: the server, or the disk under it.

It needs nothing but the standard library. It prints one JSON object: the flushes'
p50 / p99 / max (ms), how many took over 50 ms, and the share of the time spent in
them (`stalled_share`: what fraction of acts arriving at random would wait on one).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import threading
import time

BLOCK = b"\0" * 8192  # one WAL page
EVERY_S = 0.02
SLOW_MS = 50.0
SPAN = 256  # blocks rewritten in turn: 2 MB, like a WAL segment being filled


class DiskProbe:
    """fdatasync timings on a thread, kept as (when, ms) until `stop`."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.samples: list[tuple[float, float]] = []  # (time.monotonic() at the end, ms)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="disk-probe", daemon=True)

    def start(self) -> DiskProbe:
        self._thread.start()
        return self

    def stop(self) -> list[tuple[float, float]]:
        self._stop.set()
        self._thread.join(timeout=5)
        return self.samples

    def _run(self) -> None:
        fd, path = tempfile.mkstemp(prefix="disk-probe-", dir=self.directory)
        try:
            i = 0
            while not self._stop.is_set():
                t = time.monotonic()
                os.pwrite(fd, BLOCK, (i % SPAN) * len(BLOCK))
                os.fdatasync(fd)
                end = time.monotonic()
                self.samples.append((end, (end - t) * 1000))
                i += 1
                self._stop.wait(EVERY_S)
        finally:
            os.close(fd)
            os.unlink(path)


def summary(samples: list[tuple[float, float]]) -> dict:
    """p50 / p99 / max ms, flushes over SLOW_MS, and the share of the span spent flushing
    slowly (each slow flush's length over the samples' span)."""
    if not samples:
        return {"n": 0}
    ms = sorted(m for _, m in samples)
    n = len(ms)
    span_s = max(samples[-1][0] - samples[0][0] + samples[0][1] / 1000, 1e-9)
    slow = [m for m in ms if m > SLOW_MS]
    return {
        "n": n,
        "p50": round(ms[n // 2], 2),
        "p99": round(ms[min(n - 1, int(0.99 * n))], 1),
        "max": round(ms[-1], 1),
        "over_50ms": len(slow),
        "stalled_share": round(sum(slow) / 1000 / span_s, 4),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", default=tempfile.gettempdir(), help="a directory on the disk to probe")
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args(argv)
    probe = DiskProbe(args.dir).start()
    time.sleep(args.seconds)
    print(json.dumps({"dir": args.dir, "seconds": args.seconds, **summary(probe.stop())}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
