"""A socket's requests: handled one at a time, in order, in the socket's own task (a
ping is answered at once, never behind them: events/live/consumers.py `receive`)."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

logger = logging.getLogger(__name__)

Handler = Callable[..., Awaitable[None]]

# How long a closing socket waits for the request it is handling (an act whose commit
# must still be announced) before it gives up on it: well within daphne's
# application_close_timeout (10 s), after which daphne cancels the consumer and its
# clean-up (presence, groups, fan-out) would not run. An act given up on has still
# committed, or not, in the database; the other screens see it by its version.
FINISH_SECONDS = 5


class RequestQueue:
    """`closed()`: nothing more is run once it says so. `failed()`: a request raised (the
    queue is emptied first)."""

    def __init__(self, closed: Callable[[], bool], failed: Callable[[], Awaitable[None]]) -> None:
        self.requests: deque[tuple[Handler, tuple[Any, ...]]] = deque()
        self.worker: asyncio.Task[None] | None = None
        self.closed = closed
        self.failed = failed

    def put(self, handler: Handler, *args: Any) -> None:
        """Run `handler(*args)` after every request and group message before it."""
        if self.closed():
            return
        self.requests.append((handler, args))
        if self.worker is None or self.worker.done():
            self.worker = asyncio.ensure_future(self._work())

    async def _work(self) -> None:
        while self.requests and not self.closed():
            handler, args = self.requests.popleft()
            try:
                await handler(*args)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("socket request failed")
                self.requests.clear()
                await self.failed()
                return

    async def finish(self) -> None:
        """The socket closed: drop the requests not yet started, but let the one in hand
        finish within FINISH_SECONDS (an act that committed still announces itself)."""
        self.requests.clear()
        worker = self.worker
        if worker is None or worker.done() or worker is asyncio.current_task():
            return
        try:
            async with asyncio.timeout(FINISH_SECONDS):
                await asyncio.shield(worker)
        except TimeoutError:
            worker.cancel()
        except Exception:
            pass  # logged by _work
