"""A table action's optimistic write sent from the event loop itself (PostgreSQL).

Why: a socket's act used to cross to a thread of its own (events/live/lanes.py), check a
connection out of Django's pool, run the one statement of tables/write.py through
Django's cursor, give the connection back and cross back to the loop. The statement
was a third of the database call's time; the rest was the hops, the pool, Django's
cursor and the interpreter lock shared by those threads and the loop (bench/README.md,
"Where the rest goes"). Here the same statement goes out on an asyncio psycopg
connection, so the loop sends it and goes on with other sockets until its reply.

What is the same: the statement itself (`write.write_statement`), written only if the
row is still exactly this process's hot copy (xmin and version) and the caller's
`Condition` holds; autocommitted, so it has committed when its reply comes; the hot
copy taken only then. What `save` does not do: decide anything the copy cannot. No
copy, a stale one, a request id already used, a seat changed: nothing is written
(`write.Conflict`) and the caller takes the locking path, on its threads, which
decides on the row itself.

Connections: each event loop has its own lender (asyncio connections belong to the
loop that opened them), at most `settings.ACTS_ON_LOOP_CONNECTIONS` of them, opened
when first needed and kept. One table action holds one for its statement only.
"""

from __future__ import annotations

import asyncio
import select
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import psycopg
import psycopg.conninfo
from django.conf import settings
from django.db import connections

from . import write

CONNECT_TIMEOUT = 5  # s: a database that does not answer sends the act the long way


class NotSent(Exception):
    """No connection could be had: the statement was never sent, nothing was written."""


def enabled() -> bool:
    """Table actions try this path first: PostgreSQL, and not turned off in settings."""
    return getattr(settings, "ACTS_ON_LOOP_CONNECTIONS", 0) > 0 and connections["default"].vendor == "postgresql"


def _params() -> dict[str, str | int]:
    """Django's connection settings for the database in use (a test run's own database
    included: pytest-django renames it in settings_dict)."""
    sd = connections["default"].settings_dict
    params: dict[str, str | int | None] = {
        "dbname": sd["NAME"],
        "user": sd.get("USER") or None,
        "password": sd.get("PASSWORD") or None,
        "host": sd.get("HOST") or None,
        "port": sd.get("PORT") or None,
        "connect_timeout": CONNECT_TIMEOUT,
        "application_name": "heist-acts-on-loop",
    }
    return {k: v for k, v in params.items() if v is not None}


def _usable(conn: psycopg.AsyncConnection) -> bool:
    """An idle connection with nothing to read (config/postgresql `check_connection`:
    a server that restarted, or ended the backend, has sent its goodbye)."""
    if conn.closed or conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        return False
    poller = select.poll()
    poller.register(conn.fileno(), select.POLLIN | select.POLLPRI)
    return not poller.poll(0)


def _finish(conn: psycopg.AsyncConnection) -> None:
    """Close now, without the loop (it may be gone: a test's loop ends)."""
    try:
        conn.pgconn.finish()
    except Exception:
        pass


class Lender:
    """At most `size` connections of one event loop, lent one action at a time."""

    def __init__(self, params: dict[str, str | int], size: int) -> None:
        self.conninfo = psycopg.conninfo.make_conninfo("", **params)
        self.idle: list[psycopg.AsyncConnection] = []
        self.lent = asyncio.Semaphore(size)
        self.opened = 0  # for tests and benchmarks

    @asynccontextmanager
    async def lend(self) -> AsyncIterator[psycopg.AsyncConnection]:
        await self.lent.acquire()
        conn = None
        try:
            conn = await self._take()
            yield conn
        except BaseException:
            if conn is not None:
                _finish(conn)  # mid-statement: its state is unknown, it is not lent again
            conn = None
            raise
        finally:
            if conn is not None:
                self.idle.append(conn)
            self.lent.release()

    async def _take(self) -> psycopg.AsyncConnection:
        while self.idle:
            conn = self.idle.pop()
            if _usable(conn):
                return conn
            _finish(conn)
        try:
            conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        except (psycopg.Error, OSError) as exc:
            raise NotSent(str(exc)) from exc
        self.opened += 1
        return conn

    def close(self) -> None:
        while self.idle:
            _finish(self.idle.pop())


_lenders: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, Lender]] = weakref.WeakKeyDictionary()
_all: weakref.WeakSet[Lender] = weakref.WeakSet()


def lender() -> Lender:
    """This loop's lender for the database in use."""
    dbname = str(connections["default"].settings_dict["NAME"])
    loop = asyncio.get_running_loop()
    by_db = _lenders.get(loop)
    if by_db is None:
        by_db = _lenders[loop] = {}
    found = by_db.get(dbname)
    if found is None:
        found = Lender(_params(), int(settings.ACTS_ON_LOOP_CONNECTIONS))  # once per loop: not on every act
        by_db[dbname] = found
        _all.add(found)
    return found


class _Turn:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


_turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, _Turn]] = weakref.WeakKeyDictionary()


@asynccontextmanager
async def table_turn(table_id: int) -> AsyncIterator[None]:
    """One action of a table at a time on this loop, from its copy to its statement's
    reply. Two answers to one reaction window come in together; each used to be
    decided on the same copy, and the second's statement then found the row changed
    (its xmin) and went the long way, to a thread and a row lock. Waiting here, it is
    decided on the copy the first one's commit left. A table's actions are one at a
    time in the database anyway (the row); this is lichess's one actor per game."""
    loop = asyncio.get_running_loop()
    by_table = _turns.get(loop)
    if by_table is None:
        by_table = _turns[loop] = {}
    turn = by_table.get(table_id)
    if turn is None:
        turn = by_table[table_id] = _Turn()
    turn.users += 1
    try:
        async with turn.lock:
            yield
    finally:
        turn.users -= 1
        if not turn.users:
            del by_table[table_id]  # no table keeps a lock once it is quiet


def close_all() -> None:
    """Close every lender's idle connections (tests: the test database cannot be
    dropped while one stays open; a test's loop is gone by then)."""
    for each in list(_all):
        each.close()
    _lenders.clear()


async def save(change: write.Change) -> None:
    """`write.save` of an optimistic attempt, its statement sent from the loop.
    Raises write.Conflict (nothing written: decide on the row), NotSent (nothing
    written: no connection), or, once the statement was sent, whatever the database
    said (the action may or may not have committed: never try it again; a retried
    frame with the same id finds out which)."""
    assert change.attempt.optimistic
    sql, params = write.write_statement(change)
    async with lender().lend() as conn:
        change.attempt.written = True  # from here on, whatever happens, this action is not tried again
        try:
            cur = await conn.execute(sql, params)
            row = await cur.fetchone()
        except psycopg.errors.UniqueViolation:
            row = None  # a request id already used: the locking path says whose
    try:
        write.written_or_conflict(change, row, committed=True)
    except write.Conflict:
        write.forget_copy(change.table.pk, change.attempt.xmin)
        raise
    write.stats["on_loop"] += 1
