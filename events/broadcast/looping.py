"""For the process's long-lived loops (the channel layer's reader, the fan-out receiver):
end when their task was asked to cancel, even if a cancellation was swallowed."""

from __future__ import annotations

import asyncio


def raise_if_cancelling() -> None:
    """Raise CancelledError if this task has a cancellation request outstanding.

    Python 3.11's `asyncio.wait_for` (which redis-py and other libraries use) returns the
    inner result when that finished just as the outer task was cancelled: the
    CancelledError is lost, and a `while True` loop goes on for ever. The request stays
    counted on the task (`Task.cancelling()`), so a loop checks it on each lap. Such a
    loop hung the test suite at an event loop's teardown, which cancels every task and
    then waits for all of them with no limit.
    """
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError
