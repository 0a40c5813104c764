"""The socket's one way into a database thread, typed (tables/write.py is not yet)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from tables import write

P = ParamSpec("P")
R = TypeVar("R")


def in_db_thread(fn: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """tables.write.run_in_db_thread: `fn` in a thread with its own pooled connection."""
    runner: Callable[P, Awaitable[R]] = write.run_in_db_thread(fn)
    return runner
