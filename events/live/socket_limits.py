"""Per-socket and per-process limits for the party socket (events/live/consumers.py): a
token bucket for frames and resyncs, and the count of open sockets per seat and per
client address in this daphne process. Kept in memory on purpose: a crashed process
takes its sockets and its counts with it (a count in the database would outlive a
kill -9 and lock a seat out)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Hashable
from typing import Any


class TokenBucket:
    """`burst` tokens, refilled at `rate` per second; `take()` spends one if it can."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
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

    def __init__(self) -> None:
        self.counts: Counter[Hashable] = Counter()

    def add(self, key: Hashable, limit: int) -> bool:
        """Count one more socket for `key`, unless `limit` are already open."""
        if self.counts[key] >= limit:
            return False
        self.counts[key] += 1
        return True

    def remove(self, key: Hashable) -> None:
        self.counts[key] -= 1
        if self.counts[key] <= 0:
            del self.counts[key]


class SeatSockets:
    """The open sockets of each seat in this process, oldest first. A seat over its cap
    gives up its oldest socket, not the newest: a phone reconnecting after its old
    socket died (before this process noticed) must never be locked out of its own seat
    by that dead socket, and a flood of screens on one seat still holds at most the cap.
    The 100-guest rehearsal under load saw refusing the newest lock whole tables out:
    phones took slow sockets for dead, reconnected, and found their seat full."""

    # A socket is whatever the consumer keeps per connection: only its identity is used.
    def __init__(self) -> None:
        self.open: dict[Hashable, list[Any]] = {}

    def add(self, key: Hashable, sock: Any, limit: int) -> list[Any]:
        """Open `sock` for `key`; return the oldest sockets it pushes over `limit`."""
        socks = self.open.setdefault(key, [])
        socks.append(sock)
        over = len(socks) - limit
        evicted = socks[:over] if over > 0 else []
        del socks[: len(evicted)]
        return evicted

    def remove(self, key: Hashable, sock: Any) -> None:
        socks = self.open.get(key)
        if socks is not None and sock in socks:
            socks.remove(sock)
        if not socks:
            self.open.pop(key, None)

    def count(self, key: Hashable) -> int:
        return len(self.open.get(key, ()))


seats = SeatSockets()
# Per address, the open sockets that carry no pass (events/access/gate.py) and, apart, those
# accepted on probation because their address is over its limits (they must prove a
# secret within seconds). A socket that proves a secret leaves both counts.
addresses = OpenSockets()
probation = OpenSockets()
# Per secret (party code, the own pass's key), the sockets that showed its own pass and
# have not said hello yet: a device's reconnect, counted apart from everything an
# address can fill (events/access/gate.py, "A secret's own device").
arriving = OpenSockets()
# Per party, the open sockets with its pass that have not proven a secret (yet): a
# spectator with the pass (the big screen on the host's laptop), or a hello to come.
passes = OpenSockets()
