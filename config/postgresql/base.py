"""Django's PostgreSQL backend, with a cheaper check on the pooled connections.

ENGINE "config.postgresql" (config/settings/). Everything is Django's own but the check
a pooled connection passes before it is lent out.

Django's CONN_HEALTH_CHECKS with a pool installs psycopg_pool's own check, an empty
query: a round trip to the server on every checkout. Every socket frame that touches
the database checks a connection out, so a table action paid three round trips where
two do the work (py-spy, bench/live.py --daphnes 2: 5% of a daphne's samples).

A connection the server has closed, because it restarted, an administrator ended the
backend, or it timed out an idle session, has something to read: the server's FATAL
message, then the end of the stream. An idle connection in good health has nothing.
So a zero-timeout poll of its socket tells the two apart without a round trip, and
only a connection with something unread pays for the full check (which raises if it
is gone, and the pool then opens a fresh one). What no local test can see, a peer
that vanished without closing the stream, the empty query would not have caught
quickly either: it would hang just as long as the request's own query.
"""

from __future__ import annotations

import select
from collections.abc import Callable
from typing import Any

import psycopg
from django.db.backends.base.base import NO_DB_ALIAS
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool


def check_connection(conn: psycopg.Connection[Any]) -> None:
    """Return quietly if `conn` may be lent out; raise if it is gone."""
    if conn.closed:
        raise psycopg.OperationalError("the connection is closed")
    poller = select.poll()  # not select.select: a daphne with 1,000 sockets has fds past 1024
    poller.register(conn.fileno(), select.POLLIN | select.POLLPRI)
    if poller.poll(0):
        # Unread bytes on an idle connection: the server is saying goodbye (or sent a
        # notice). The empty query settles it.
        ConnectionPool.check_connection(conn)


class CheckedPool(ConnectionPool):
    """psycopg_pool's pool, lending through `check_connection`. A connection the server
    ended rarely goes alone: a restart or an administrator ends every idle one. The pool
    would find them one checkout at a time, and its check loop waits 1, 2, 4, 8 s between
    tries: a full pool of dead connections (8 in tests, 20 in production) outlasted the
    checkout's timeout and the request failed. At the first dead one, the rest of the idle
    connections are checked at once (`ConnectionPool.check`: the dead are replaced), so
    the next try gets a fresh connection."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, check=self._check_before_lending, **kwargs)

    def _check_before_lending(self, conn: psycopg.Connection[Any]) -> None:
        try:
            check_connection(conn)
        except psycopg.Error:
            self.check()
            raise


class DatabaseWrapper(base.DatabaseWrapper):
    # Django's own (5.1+), missing from django-stubs' DatabaseWrapper: declared for mypy
    # only (annotations, no values: Django's stay in place).
    _connection_pools: dict[str, ConnectionPool[Any]]
    _configure_connection: Callable[[psycopg.Connection[Any]], None]

    @property
    def pool(self) -> ConnectionPool[Any] | None:
        """Django's pool (the same options, OPTIONS["pool"]), checked by
        `check_connection`. Django passes a `check` of its own (its empty query, or none
        without CONN_HEALTH_CHECKS), so the pool is made here."""
        options = self.settings_dict["OPTIONS"].get("pool")
        if self.alias == NO_DB_ALIAS or not options:
            return None
        pools = self._connection_pools
        if self.alias not in pools:
            if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
                # Django refuses that combination, and says why. (django-stubs lacks `pool`.)
                return super().pool  # type: ignore[misc,no-any-return]
            kwargs = self.get_connection_params()
            kwargs["autocommit"] = True  # as Django: it sets the mode it wants on checkout
            pool = CheckedPool(
                kwargs=kwargs,
                open=False,
                configure=self._configure_connection,
                **({} if options is True else options),
            )
            pools.setdefault(self.alias, pool)  # the first thread's wins
        return pools[self.alias]
