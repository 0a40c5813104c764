"""Threads of their own for the sockets' database work that must not queue behind the rest.

Every other database call of a socket (a hello, a snapshot, a seat check) runs on the
event loop's thread pool: min(32, cores + 4) threads, 6 on two cores
(tables/write.run_in_db_thread). In a join burst that pool holds hundreds of hellos and
snapshots, and whatever else waits there waits behind all of them:

- `heartbeat`: a pong's versions read (events/live/heartbeat.py). Queued behind hellos, a
  phone's ping went unanswered for 4 s and the phone reconnected: a storm.
- `acts`: a table action (an `act` frame). A table already playing while other parties
  still joined had its acts acknowledged after the newcomers' hellos.

On SQLite (the embedded box) every call keeps Channels' one database thread whatever
the lane says: one writer at a time anyway.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from tables import write

P = ParamSpec("P")
R = TypeVar("R")

THREADS = {"heartbeat": 1, "acts": 2}  # each thread may hold one pooled connection

_pools: dict[str, ThreadPoolExecutor] = {}


def run_in(lane: str, fn: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """`fn` as an awaitable on `lane`'s threads (write.run_in_db_thread's behaviour)."""
    pool = _pools.get(lane)
    if pool is None:
        pool = _pools[lane] = ThreadPoolExecutor(max_workers=THREADS[lane], thread_name_prefix=f"lane-{lane}")
    return write.run_in_db_thread(fn, executor=pool)


def close_connections() -> None:
    """Close each lane thread's database connection, after what is running there
    (tests: the test database cannot be dropped while a connection stays open)."""
    import threading

    from django.db import connections

    for lane, pool in list(_pools.items()):
        # Every thread of the lane at once: each holds the barrier until all have closed.
        barrier = threading.Barrier(THREADS[lane])

        def close(barrier: threading.Barrier = barrier) -> None:
            connections.close_all()
            barrier.wait(timeout=60)

        for future in [pool.submit(close) for _ in range(THREADS[lane])]:
            future.result()
