"""HTTP admission: at most N requests inside Django's threads at once, per process.

Under ASGI, Django runs each request's view in a thread of its own, and each thread
borrows a pooled database connection. In a join burst (a room of guests scanning the
QR code in the same few seconds; bench/party.py --parties 10 sends 1,000 in 5 s) the
threads outnumber the pool: each waits for a connection, and after the pool's timeout
answers 500 (`PoolTimeout`: 3,746 of them in that run). The WebSocket side, which
borrows from the same pool, starved as well.

Here requests beyond `limit` wait in line on the event loop (no thread, no connection,
the order of arrival kept) and run as others finish: the burst is served at the pace
the pool allows, and sockets keep their share of it. A request that waits longer than
`wait` seconds gets a plain 503 with Retry-After instead of a timeout later; the join
page and its script treat that as "busy, try again" (static/heist/join.js).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

# ASGI as django-stubs declares it for Django's handler (django.core.handlers.asgi), and
# stubs/channels for its routers and consumers.
Scope = dict[str, Any]
Receive = Callable[[], Awaitable[Mapping[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[Any]]

BUSY_JSON = b'{"error": "busy", "message": "The party host is busy; try again in a moment"}'
# A page (the join link, the phone screen) reloads itself after Retry-After: the browser
# honours the Refresh header, and no script is needed under the strict CSP.
# Written before Django runs, so before any language is known: the same line in each of the
# party's languages (settings.LANGUAGES), at no cost to the hot path. The scripts put the
# JSON's "busy" in their own language (static/heist/ui.js serverSays).
BUSY_HTML = (
    b"<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>"
    b"<title>One moment \xc2\xb7 Un momento \xc2\xb7 Einen Moment</title>"
    b"<p lang=en>Lots of guests are arriving at once. This page reloads by itself in a moment.</p>"
    b"<p lang=es>Est\xc3\xa1n llegando muchos invitados a la vez. Esta p\xc3\xa1gina se recarga sola en un momento.</p>"
    b"<p lang=de>Gerade kommen viele G\xc3\xa4ste gleichzeitig an. Diese Seite l\xc3\xa4dt sich gleich von selbst neu.</p>"
)


class HttpAdmission:
    def __init__(
        self, app: App, *, limit: int, wait: float = 20.0, retry_after: int = 2, exempt: tuple[str, ...] = ()
    ) -> None:
        self.app = app
        self.exempt = exempt  # path prefixes that borrow no connection (static files)
        self.limit = limit
        self.wait = wait
        self.retry_after = retry_after
        self._semaphores: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}
        self.refused = 0  # for tests and logs

    def _semaphore(self) -> asyncio.Semaphore:
        # One per event loop: daphne has one; tests run a loop each.
        loop = asyncio.get_running_loop()
        semaphore = self._semaphores.get(loop)
        if semaphore is None:
            for old in [other for other in self._semaphores if other.is_closed()]:
                del self._semaphores[old]
            semaphore = self._semaphores[loop] = asyncio.Semaphore(self.limit)
        return semaphore

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> Any:
        if scope["type"] != "http" or scope["path"].startswith(self.exempt):
            return await self.app(scope, receive, send)
        semaphore = self._semaphore()
        try:
            async with asyncio.timeout(self.wait):  # not wait_for: 3.11's can lose a cancel
                await semaphore.acquire()
        except TimeoutError:
            self.refused += 1
            return await _busy(scope, send, self.retry_after)
        try:
            return await self.app(scope, receive, send)
        finally:
            semaphore.release()


async def _busy(scope: Scope, send: Send, retry_after: int) -> None:
    seconds = str(retry_after).encode()
    headers = [(b"retry-after", seconds), (b"cache-control", b"no-store")]
    if scope["path"].startswith("/api/"):
        headers.append((b"content-type", b"application/json"))
        body = BUSY_JSON
    else:
        headers += [(b"content-type", b"text/html; charset=utf-8"), (b"refresh", seconds)]
        body = BUSY_HTML
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})
