"""Running a simulator's work: seeds per chunk, chunks on every core in a fixed order,
and the CPU time spent, the same for both games' runners."""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple, TypeVar

from games import rng as _rng

T = TypeVar("T")
R = TypeVar("R")


def chunk_seed(seed: int | str, *parts: object) -> int:
    """A chunk's seed, from the master seed and the chunk's identity only (never from
    the worker that runs it): a seed gives the same report with any number of workers."""
    value, _ = _rng.next64(_rng.seed_state(":".join(str(p) for p in (seed, *parts))))
    return value >> 1


def run_in_order(
    work: Callable[[T], R],
    tasks: Sequence[T],
    workers: int,
    total: int,
    done_by: Callable[[R], int],
    progress: Callable[[int, int], None] | None,
) -> Iterator[R]:
    """`work` on each task on `workers` processes (1: in this process), yielding the
    results in task order; `progress(done, total)` after each, `done_by` counting what
    a result did. `work` must be a module-level function (the pool pickles it)."""
    done = 0
    pool = None
    results: Iterator[R]
    if workers == 1:
        results = map(work, tasks)
    else:
        pool = multiprocessing.get_context("fork").Pool(workers)
        results = pool.imap(work, tasks, chunksize=1)
    try:
        for res in results:
            done += done_by(res)
            if progress:
                progress(done, total)
            yield res
    finally:
        if pool is not None:
            pool.close()
            pool.join()


class Clock(NamedTuple):
    """Wall and CPU time at a start; the CPU time counts the worker processes too."""

    wall: float
    cpu: float
    children: os.times_result

    @classmethod
    def start(cls) -> Clock:
        return cls(time.perf_counter(), time.process_time(), os.times())

    def wall_seconds(self) -> float:
        return time.perf_counter() - self.wall

    def cpu_seconds(self) -> float:
        ch = os.times()
        return (
            (time.process_time() - self.cpu)
            + (ch.children_user - self.children.children_user)
            + (ch.children_system - self.children.children_system)
        )
