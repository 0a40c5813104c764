"""Fixtures for the fault tests: the real server (daphne) as a subprocess on this run's
test database, and a private Redis that tests may kill.

One daphne serves the whole session (starting one costs seconds): a test that kills it
restarts it, and `server` starts it again if a failed test left it dead. It keeps no
state between tests — everything is in PostgreSQL, which pytest-django flushes."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from .server import DaphneServer, RedisServer


def _server(redis_url: str | None = None) -> DaphneServer:
    from django.conf import settings
    from django.db import connection

    return DaphneServer(db_name=connection.settings_dict["NAME"], run_id=settings.TEST_RUN_ID, redis_url=redis_url)


@pytest.fixture(scope="session")
def _shared_daphne(django_db_setup):
    server = _server()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def _second_daphne(django_db_setup):
    server = _server()
    yield server
    server.stop()


@pytest.fixture
def server(_shared_daphne, transactional_db) -> DaphneServer:
    """The session's daphne, running, on the test database."""
    if not _shared_daphne.running:
        _shared_daphne.start()
    return _shared_daphne


@pytest.fixture
def second_server(_second_daphne, transactional_db) -> DaphneServer:
    """Another daphne process on the same database and channel layer (production runs
    two behind nginx)."""
    if not _second_daphne.running:
        _second_daphne.start()
    return _second_daphne


@pytest.fixture
def daphne(transactional_db):
    """A factory of more daphne processes (own Redis, a second process...), all killed
    at the end of the test, before pytest-django flushes the database."""
    servers: list[DaphneServer] = []

    def make(redis_url: str | None = None) -> DaphneServer:
        s = _server(redis_url)
        servers.append(s)
        return s.start()

    yield make
    for s in servers:
        s.stop()


@pytest.fixture
def private_redis():
    redis = RedisServer().start()
    yield redis
    redis.stop()


@pytest.fixture(autouse=True)
async def _close_thread_connections():
    """sync_to_async runs the ORM on a worker thread with its own connection; close it,
    or the test database cannot be dropped at the end of the run."""
    yield
    await sync_to_async(connections.close_all)()
