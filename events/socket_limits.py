"""Per-socket and per-process limits for the party socket (events/consumers.py): a
token bucket for frames and resyncs, and the count of open sockets per seat and per
client address in this daphne process. Kept in memory on purpose: a crashed process
takes its sockets and its counts with it (a count in the database would outlive a
kill -9 and lock a seat out)."""

from __future__ import annotations

import time
from collections import Counter


class TokenBucket:
    """`burst` tokens, refilled at `rate` per second; `take()` spends one if it can."""

    def __init__(self, rate: float, burst: float, clock=time.monotonic):
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.clock = clock
        self.stamp = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class OpenSockets:
    """How many sockets are open per key (a seat, an address) in this process."""

    def __init__(self):
        self.counts: Counter = Counter()

    def add(self, key, limit: int) -> bool:
        """Count one more socket for `key`, unless `limit` are already open."""
        if self.counts[key] >= limit:
            return False
        self.counts[key] += 1
        return True

    def remove(self, key) -> None:
        self.counts[key] -= 1
        if self.counts[key] <= 0:
            del self.counts[key]


seats = OpenSockets()
addresses = OpenSockets()
