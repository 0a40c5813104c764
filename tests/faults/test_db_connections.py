"""The QR moment: a room scans the code at once. 99 guests join concurrently while 300
page loads hit the same daphne. With persistent connections (CONN_MAX_AGE=60) under
ASGI every concurrent request kept a PostgreSQL connection of its own (each runs in
its own thread): a burst answered 500s and exhausted the database for every other
client. With the psycopg pool (config/settings/, `OPTIONS.pool`) the number of
connections is bounded by the pool and every request is answered."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from django.conf import settings

from events.models import Guest, Party
from tests import shorthand

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack, pytest.mark.slow]

JOINS = 99  # the 100th joins after the burst: the server still writes
PAGE_LOADS = 300
CONCURRENCY = 100


class ConnectionCounter:
    """Samples pg_stat_activity for one database every 20 ms, from its own connection
    (to the `postgres` database, so it does not count itself)."""

    def __init__(self, db_name: str):
        self.db_name = db_name
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def now(self) -> int:
        with psycopg.connect(host="127.0.0.1", user="postgres", dbname="postgres", autocommit=True) as conn:
            return self._count(conn)

    def _count(self, conn) -> int:
        return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (self.db_name,)).fetchone()[0]

    def _run(self) -> None:
        with psycopg.connect(host="127.0.0.1", user="postgres", dbname="postgres", autocommit=True) as conn:
            while not self._stop.is_set():
                self.peak = max(self.peak, self._count(conn))
                time.sleep(0.02)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(5)


def test_a_join_burst_with_page_loads_gets_no_5xx_and_bounded_db_connections(daphne):
    from django.db import connection

    pool = settings.DATABASES["default"]["OPTIONS"]["pool"]
    server = daphne()  # a fresh process: its pool starts empty
    party, _ = shorthand.party_create(name="QR moment")
    db_name = connection.settings_dict["NAME"]
    counter = ConnectionCounter(db_name)
    before = counter.now()

    def join(i: int):
        return "join", server.http(
            "POST", f"/api/parties/{party.code}/guests", {"name": f"Guest {i}", "description": "socks"}
        )

    def page(i: int):
        path = (f"/j/{party.code}/", f"/p/{party.code}/", f"/screen/{party.code}/")[i % 3]
        return "page", server.http("GET", path)

    jobs = [(join, i) for i in range(JOINS)] + [(page, i) for i in range(PAGE_LOADS)]
    jobs = [jobs[i] for i in sorted(range(len(jobs)), key=lambda i: (i * 7919) % len(jobs))]  # interleaved
    started = time.monotonic()
    with counter, ThreadPoolExecutor(CONCURRENCY) as ex:
        results = list(ex.map(lambda job: job[0](job[1]), jobs))
    took = time.monotonic() - started

    statuses = [(kind, status) for kind, (status, _) in results]
    five_xx = [s for s in statuses if s[1] >= 500]
    assert not five_xx, f"{len(five_xx)} answers were 5xx: {five_xx[:5]}"
    assert sorted({s for k, s in statuses if k == "join"}) == [201], statuses
    assert {s for k, s in statuses if k == "page"} <= {200, 429}, statuses
    assert Guest.objects.filter(party=party).count() == JOINS
    # Bounded: the server's pool, plus this test's own connections.
    assert counter.peak <= pool["max_size"] + before + 2, (counter.peak, pool["max_size"], before)
    # And afterwards the server answers honestly: healthy, and a database write works.
    status, body = server.http("GET", "/healthz")
    assert status == 200, (status, body)
    status, body = server.http("POST", f"/api/parties/{party.code}/guests", {"name": "After", "description": "tea"})
    assert status == 201, (status, body)
    print(
        f"\nburst: {len(jobs)} requests in {took:.1f}s, peak {counter.peak} connections (pool max {pool['max_size']})"
    )


def test_production_settings_use_the_pool_and_the_resilient_channel_layer(repo_root):
    """What the burst test runs (test settings) is what production runs."""
    code = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "db = s.DATABASES['default']; "
        "print(json.dumps([db['ENGINE'], db['CONN_MAX_AGE'], db['CONN_HEALTH_CHECKS'], db['OPTIONS'], "
        "s.CHANNEL_LAYERS['default']['BACKEND']]))"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DJANGO_SECRET_KEY": "a-long-enough-and-varied-test-only-key-" + "0123456789abcdefghij",
        "DATABASE_URL": "postgres://u:p@db:5432/heist",
    }
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=repo_root, env=env, capture_output=True, text=True, check=True
    )
    engine, conn_max_age, health_checks, options, layer = json.loads(out.stdout.strip().splitlines()[-1])
    # Django's backend with the pool's cheaper check (config/postgresql), not Django's
    # own (an empty query per checkout).
    assert engine == settings.DATABASES["default"]["ENGINE"] == "config.postgresql"
    assert conn_max_age == 0
    assert health_checks is False
    assert options["pool"] == {"min_size": 2, "max_size": 20, "timeout": 10.0}
    resilient = "config.patches.channels_redis.ResilientPubSubChannelLayer"
    assert layer == settings.CHANNEL_LAYERS["default"]["BACKEND"] == resilient


def _pooled_backends() -> set[int]:
    """Fill this process's pool to its maximum, whatever earlier tests left in it (a
    pool grows under load and keeps its connections idle for minutes), and give them
    all back: their server process ids."""
    from django.db import connection
    from psycopg_pool import PoolTimeout

    pool = connection.pool
    held = []
    while len(held) < pool.max_size:
        try:
            held.append(pool.getconn(timeout=2))
        except PoolTimeout:  # another thread of this process holds the rest
            break
    assert len(held) >= 3, pool.get_stats()
    pids = {c.info.backend_pid for c in held}
    for c in held:
        pool.putconn(c)
    return pids


def test_the_pool_lends_a_healthy_connection_without_a_round_trip(monkeypatch):
    """config/pgpool.py: a connection nothing is wrong with is lent without the empty
    query that Django's own check sends on every checkout."""
    from django.db import connection
    from psycopg_pool import ConnectionPool

    party, _ = shorthand.party_create(name="Pool")
    _pooled_backends()
    queries = []
    real = ConnectionPool.check_connection
    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(lambda c: (queries.append(c), real(c))))
    for _ in range(5):
        assert list(Party.objects.filter(pk=party.pk).values_list("name", flat=True)) == ["Pool"]
        connection.close()  # back to the pool
    assert queries == []


def test_connections_the_server_ended_are_never_lent(monkeypatch):
    """PostgreSQL restarted, or an administrator ended the backends: every connection
    the pool holds is dead. The check sees the server's goodbye on the socket, the pool
    replaces the connection, and the next query works (with no check it fails)."""
    from django.db import connection
    from psycopg_pool import ConnectionPool

    party, _ = shorthand.party_create(name="Restarted")
    connection.close()
    # Every idle connection of this process's pool, and only those: the session's
    # daphne keeps its own.
    pids = sorted(_pooled_backends())
    with psycopg.connect(host="127.0.0.1", user="postgres", dbname="postgres", autocommit=True) as admin:
        for pid in pids:
            assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()[0]
        deadline = time.monotonic() + 5
        while admin.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", (pids,)).fetchone()[0]:
            assert time.monotonic() < deadline, "the backends did not end"
            time.sleep(0.01)
    checked = []
    real = ConnectionPool.check_connection
    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(lambda c: (checked.append(c), real(c))))
    for _ in range(3):
        assert list(Party.objects.filter(pk=party.pk).values_list("name", flat=True)) == ["Restarted"]
        connection.close()
    assert checked, "a dead connection was lent without the full check"
