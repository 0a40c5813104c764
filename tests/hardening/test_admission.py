"""HTTP admission (config/admission.py): a join burst waits in line instead of taking
more pooled connections than there are (the join page's retry of a 503 "busy" is in
tests/browser/test_join_busy_browser.py)."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.testing import HttpCommunicator

from config.admission import HttpAdmission


class Recorder:
    """An ASGI app that holds each request until released, noting how many run at once."""

    def __init__(self) -> None:
        self.running = 0
        self.most = 0
        self.started: list[str] = []
        self.release = asyncio.Event()

    async def __call__(self, scope, receive, send):
        self.running += 1
        self.most = max(self.most, self.running)
        self.started.append(scope["path"])
        try:
            await self.release.wait()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": scope["path"].encode()})
        finally:
            self.running -= 1


class Arrivals:
    """In front of the admission: the requests that reached it. The admission decides
    each one without suspending (a free slot, or an exempt path, goes straight into the
    app, which notes it as started; otherwise it waits in line), so once n have
    arrived, which of them started is settled: a sleep is not needed, nor enough."""

    def __init__(self, app) -> None:
        self.app = app
        self.count = 0
        self.changed = asyncio.Event()

    async def __call__(self, scope, receive, send):
        self.count += 1
        self.changed.set()
        return await self.app(scope, receive, send)

    async def reached(self, n: int, timeout: float = 5) -> None:
        async with asyncio.timeout(timeout):
            while self.count < n:
                self.changed.clear()
                await self.changed.wait()


async def _get(app, path, timeout=10):
    comm = HttpCommunicator(app, "GET", path)
    return await comm.get_response(timeout=timeout)


async def test_at_most_limit_requests_run_at_once_and_the_rest_in_arrival_order():
    inner = Recorder()
    app = Arrivals(HttpAdmission(inner, limit=3, wait=10))
    tasks = []
    for i in range(10):
        tasks.append(asyncio.ensure_future(_get(app, f"/r{i}")))
        await app.reached(i + 1)  # arrival order
    assert inner.running == 3 and inner.started == ["/r0", "/r1", "/r2"]  # the others wait, no thread
    inner.release.set()
    responses = await asyncio.gather(*tasks)
    assert [r["status"] for r in responses] == [200] * 10
    assert [r["body"] for r in responses] == [f"/r{i}".encode() for i in range(10)]
    assert inner.most == 3 and inner.started == [f"/r{i}" for i in range(10)]


async def test_a_request_waiting_longer_than_the_bound_gets_503_busy_with_retry_after():
    inner = Recorder()
    admission = HttpAdmission(inner, limit=1, wait=0.2, retry_after=3)
    app = Arrivals(admission)
    first = asyncio.ensure_future(_get(app, "/held"))
    await app.reached(1)  # it holds the one slot
    busy = await _get(app, "/api/parties/ABCDEF/guests")
    assert busy["status"] == 503
    headers = dict(busy["headers"])
    assert headers[b"retry-after"] == b"3" and headers[b"content-type"] == b"application/json"
    assert json.loads(busy["body"])["error"] == "busy"
    page = await _get(app, "/j/ABCDEF/")  # a page: it reloads itself after Retry-After
    assert page["status"] == 503 and dict(page["headers"])[b"refresh"] == b"3"
    assert b"reloads by itself" in page["body"]
    assert inner.started == ["/held"] and admission.refused == 2  # the late ones never reached the app
    inner.release.set()
    assert (await first)["status"] == 200
    assert (await _get(app, "/after"))["status"] == 200  # its slot was given back


async def test_exempt_paths_and_websockets_pass_without_a_slot():
    inner = Recorder()
    admission = HttpAdmission(inner, limit=1, wait=0.2, exempt=("/static/",))
    app = Arrivals(admission)
    held = asyncio.ensure_future(_get(app, "/held"))
    await app.reached(1)
    static = asyncio.ensure_future(_get(app, "/static/heist/ui.js"))
    await app.reached(2)
    assert inner.started == ["/held", "/static/heist/ui.js"]  # not queued behind the held one
    inner.release.set()
    assert [(await held)["status"], (await static)["status"]] == [200, 200]
    assert admission.refused == 0


async def test_a_failing_request_gives_its_slot_back():
    async def broken(scope, receive, send):
        raise RuntimeError("boom")

    app = HttpAdmission(broken, limit=1, wait=0.2)
    for _ in range(3):
        # asgiref's communicator raises the app's error only when its wait ends: a short
        # one (a hung app would raise TimeoutError instead, and fail this)
        with pytest.raises(RuntimeError):
            await _get(app, "/x", timeout=0.5)
    assert app._semaphore()._value == 1


def test_the_application_admits_http_through_it_and_not_websockets(settings):
    from config.asgi import application

    http = application.application_mapping["http"]
    assert isinstance(http, HttpAdmission)
    assert http.limit == settings.HTTP_CONCURRENCY
    assert http.exempt == (settings.STATIC_URL,)
    assert not isinstance(application.application_mapping["websocket"], HttpAdmission)


def test_production_leaves_the_sockets_their_connections(monkeypatch):
    """The admitted requests plus the sockets' threads fit in the pool."""
    import importlib
    import sys

    monkeypatch.setenv("DJANGO_SECRET_KEY", "k" * 20 + "abcdefghijklmnopqrstuvwxyz0123456789")
    monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", "party.example")
    monkeypatch.setenv("DJANGO_DB_POOL_MAX", "20")
    for name in ("POSTGRES_DB", "POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_HOST"):
        monkeypatch.setenv(name, "x")
    monkeypatch.delenv("HEIST_HTTP_CONCURRENCY", raising=False)
    sys.modules.pop("config.settings.production", None)
    production = importlib.import_module("config.settings.production")
    try:
        assert production.HTTP_CONCURRENCY == 11  # 20 less the loop's 6 threads and the lanes' 3
    finally:
        sys.modules.pop("config.settings.production", None)
