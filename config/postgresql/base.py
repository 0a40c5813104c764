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
        if self.alias not in self._connection_pools:
            if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
                # Django refuses that combination, and says why. (django-stubs lacks `pool`.)
                return super().pool  # type: ignore[misc,no-any-return]
            kwargs = self.get_connection_params()
            kwargs["autocommit"] = True  # as Django: it sets the mode it wants on checkout
            pool = ConnectionPool(
                kwargs=kwargs,
                open=False,
                configure=self._configure_connection,
                check=check_connection,
                **({} if options is True else options),
            )
            self._connection_pools.setdefault(self.alias, pool)  # the first thread's wins
        return self._connection_pools[self.alias]
