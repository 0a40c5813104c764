"""A table action's reads and writes, in as few database round trips as it takes.

Inside the action's transaction (tables/services.py `table_lock` and `table_apply`,
for the writer `table_writers` chose):

- `lock`: the table row locked (`SELECT ... FOR UPDATE`), the table's details and the
  game in one statement; then, for a request with an id, the earlier action with that
  id if any (a retried frame), in a statement of its own (after the lock, so it sees a
  retry that committed while this one waited). The game comes from this process's hot
  copy when the row is exactly the one this process last wrote (its `xmin`, the id of
  the transaction that wrote this version of the row, is unchanged: any other write,
  by any process or any code, changes it); otherwise the state column is read.
- `save`: the new state, version and window clock, and the action-log row. On
  PostgreSQL one statement (the UPDATE, guarded by the version read under the lock,
  and the INSERT, as two data-modifying parts of one query).

Optimistically (an `Attempt` with `optimistic=True`, outside any transaction, with a
hot copy): no lock and no read at all; the engine decides on the hot copy, and `save`
is one autocommitted statement whose UPDATE applies only if the row is still exactly
the copy (`xmin` and version), and the caller's own `Condition` if it gives one (the
acting guest still holds the seat), and whose INSERT fails on a request id already used.
Nothing is written otherwise (`Conflict`), and tables/services.py decides again under
the row lock, on the row itself: so a refusal, a duplicate or a stale copy is never
decided from the copy alone. One round trip per action, and the commit is that
statement's own.

The hot copy is taken only once the transaction has committed (`on_commit`), so it
never holds a state the database does not. The database stays the truth: a restart
starts with no copy, and a copy that is not exactly the row's is never used.

SQLite (the laptop stack) takes the same steps in plain SQL: BEGIN IMMEDIATE, the row
and the request id in one SELECT, then UPDATE and INSERT, COMMIT; optimistically no
SELECT, with the UPDATE guarded by the hot copy's exact stored texts (state, roster).
Those are the only two databases a settings file names (config/settings/).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, ParamSpec, TypeVar, cast

import orjson
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.registry import DEFAULT_GAME, game_named

from .models import Table, TableAction

# A game's state and action as its definition makes them (games/definition.py): the
# writer stores them through the table's definition and never looks inside.
Game = Any
Action = Any

P = ParamSpec("P")
R = TypeVar("R")


class NoTable(Exception):
    pass


class Conflict(Exception):
    """An optimistic attempt wrote nothing: decide again under the row lock."""


@dataclass(frozen=True)
class Condition:
    """SQL the optimistic UPDATE's WHERE also requires (`AND <sql>`), with its
    parameters: the caller's own check, made in the same statement as the write (the
    acting guest's seat, events/live/act.py `seat_held`), so it cannot go stale before it."""

    sql: str
    params: tuple[object, ...]


@dataclass
class Attempt:
    optimistic: bool = False
    written: bool = False  # the action's statement has run: never try it again
    xmin: str | None = None  # the hot copy's row version (optimistic, PostgreSQL)
    texts: tuple[str, str] | None = None  # the hot copy's state and roster as stored (SQLite)
    also: Condition | None = None  # optimistic only: nothing is written unless it holds


@dataclass
class Found:
    """What `lock` found: the row, its game, and an earlier action with this request id."""

    table: Table  # with pk, party_id, game, letter, roster, version, window_opened_at, updated_at, the step clock
    game: Game
    duplicate: tuple[int, str] | None  # (version, actor) of an earlier action with this id


@dataclass(frozen=True)
class Hot:
    """The row this process last committed for a table: its xmin, and what it holds."""

    xmin: str
    version: int
    game: Game
    party_id: int
    letter: str
    roster: list[Any]
    window_opened_at: datetime | None
    updated_at: datetime
    texts: tuple[str, str] | None = None  # SQLite: the state's and the roster's stored text
    step_clock: int = 0  # the table's step clock (tables/models.py)
    step_clock_server: bool = False
    step_due_at: datetime | None = None
    kind: str = DEFAULT_GAME  # the table's game (tables/models.py `game`)

    def table(self, table_id: int) -> Table:
        return _table(
            id=table_id,
            party_id=self.party_id,
            game=self.kind,
            letter=self.letter,
            roster=self.roster,
            version=self.version,
            window_opened_at=self.window_opened_at,
            updated_at=self.updated_at,
            step_clock=self.step_clock,
            step_clock_server=self.step_clock_server,
            step_due_at=self.step_due_at,
            roster_text=self.texts[1] if self.texts else None,
        )


def _table(*, roster_text: str | None = None, **fields: Any) -> Table:
    table = Table(**fields)
    table._roster_text = roster_text  # type: ignore[attr-defined]  # SQLite: the roster exactly as stored
    return table


_hot: dict[int, Hot] = {}  # set after commit only; the most recently written last
_hot_lock = threading.Lock()
HOT_MAX = 2000  # tables whose copy a process keeps (a 100-guest party has 10)


def _remember(table_id: int, hot: Hot, *, only_if_none: bool = False) -> bool:
    """Keep `hot` as the table's copy; with `only_if_none`, only when there is none
    (write.warm: an action's copy may be newer). True: it was kept."""
    with _hot_lock:
        if only_if_none and table_id in _hot:
            return False
        _hot.pop(table_id, None)
        _hot[table_id] = hot
        while len(_hot) > HOT_MAX:  # the table written longest ago goes (it is read again if needed)
            del _hot[next(iter(_hot))]
    return True


stats = {"hot": 0, "read": 0, "optimistic": 0, "conflict": 0, "on_loop": 0}  # for tests and benchmarks


def run_in_db_thread(fn: Callable[P, R], *, executor: ThreadPoolExecutor | None = None) -> Callable[P, Awaitable[R]]:
    """`database_sync_to_async` for the sockets' database work (table actions, hellos,
    snapshots, presence, pongs). On PostgreSQL each call runs in a thread of the event
    loop's pool (or of `executor`), with its own pooled connection, so tables'
    transactions (and their commits) overlap instead of queueing behind each other on
    Channels' one database thread; the row lock still serialises each table's own. A
    join burst's hellos queued there for over 10 s (bench/party.py --parties 10). SQLite
    (one writer at a time anyway) keeps that one thread, whatever `executor` says."""
    from channels.db import database_sync_to_async
    from django.db import close_old_connections, connections

    if connections["default"].vendor != "postgresql":
        return cast(Callable[P, Awaitable[R]], database_sync_to_async(fn))

    @functools.wraps(fn)
    def returning_its_connection(*args: P.args, **kwargs: P.kwargs) -> R:
        # Give the pooled connection back inside the call, not only in Channels'
        # wrapper around it: when the loop's pool was shut down with calls cancelled
        # (a test's loop ending with sockets open), connections stayed checked out of
        # the pool for good, and the next test's hello waited for one.
        try:
            return fn(*args, **kwargs)
        finally:
            close_old_connections()

    wrapped = database_sync_to_async(returning_its_connection, thread_sensitive=False, executor=executor)
    return cast(Callable[P, Awaitable[R]], wrapped)


def can_be_optimistic(table_id: int, party_id: int) -> bool:
    hot = _hot.get(table_id)
    return (
        hot is not None
        and hot.party_id == party_id
        and connection.vendor in ("postgresql", "sqlite")
        and not connection.in_atomic_block
    )


def _sqlite() -> bool:
    return connection.vendor == "sqlite"


def _aware(value: datetime | str | None) -> datetime | None:
    """SQLite hands back naive UTC datetimes (or text) from a raw query."""
    if value is None:
        return None
    if isinstance(value, str):
        value = parse_datetime(value)
        if value is None:
            return None
    return value if timezone.is_aware(value) else timezone.make_aware(value, UTC)


def _json(value: Any) -> Any:
    return orjson.loads(value) if isinstance(value, (str, bytes)) else value


def lock(*, table_id: int, party_id: int, client_id: str, attempt: Attempt | None = None) -> Found:
    if attempt is not None and attempt.optimistic:
        hot = _hot.get(table_id)
        if hot is None or hot.party_id != party_id:
            raise Conflict()
        attempt.xmin, attempt.texts = hot.xmin, hot.texts
        return Found(hot.table(table_id), hot.game, None)
    if _sqlite():
        return _lock_sqlite(table_id=table_id, party_id=party_id, client_id=client_id)
    hot = _hot.get(table_id)
    t, a = Table._meta.db_table, TableAction._meta.db_table
    with connection.cursor() as cur:
        cur.execute(
            f"SELECT t.letter, t.roster, t.version, t.window_opened_at, t.updated_at,"
            f" t.step_clock, t.step_clock_server, t.step_due_at, t.game,"
            f" CASE WHEN t.xmin::text = %s AND t.version = %s THEN NULL ELSE t.state END"
            f" FROM {t} t WHERE t.id = %s AND t.party_id = %s FOR UPDATE",
            [hot.xmin if hot else "", hot.version if hot else -1, table_id, party_id],
        )
        row = cur.fetchone()
        done = None
        if row is not None and client_id:
            # A statement of its own, after the lock: a statement that waited for the lock
            # sees the locked row as the other transaction left it, but every other row
            # (that transaction's log row with this request id) as it was when the
            # statement began, so a join here missed a retry committed meanwhile.
            cur.execute(f"SELECT version, actor FROM {a} WHERE table_id = %s AND client_id = %s", [table_id, client_id])
            done = cur.fetchone()
    if row is None:
        raise NoTable()
    letter, roster, version, opened, updated, clock, clock_server, due, kind, state = row
    table = Table(
        id=table_id,
        party_id=party_id,
        game=kind,
        letter=letter,
        roster=_json(roster),
        version=version,
        window_opened_at=opened,
        updated_at=updated,
        step_clock=clock,
        step_clock_server=clock_server,
        step_due_at=due,
    )
    if state is None:
        assert hot is not None  # the state column is left out only when the copy is the row
        stats["hot"] += 1
        game = hot.game
    else:
        stats["read"] += 1
        game = game_named(kind).from_dict(_json(state))
    return Found(table, game, tuple(done) if done else None)


def _lock_sqlite(*, table_id: int, party_id: int, client_id: str) -> Found:
    """The laptop stack: the transaction took SQLite's write lock at BEGIN (IMMEDIATE)."""
    t, a = Table._meta.db_table, TableAction._meta.db_table
    with connection.cursor() as cur:
        cur.execute(
            f"SELECT t.letter, t.roster, t.version, t.window_opened_at, t.updated_at, t.state, a.version, a.actor,"
            f" t.step_clock, t.step_clock_server, t.step_due_at, t.game"
            f" FROM {t} t LEFT JOIN {a} a ON a.table_id = t.id AND a.client_id = %s AND a.client_id <> ''"
            f" WHERE t.id = %s AND t.party_id = %s",
            [client_id, table_id, party_id],
        )
        row = cur.fetchone()
    if row is None:
        raise NoTable()
    letter, roster, version, opened, updated, state, done_version, done_actor, clock, clock_server, due, kind = row
    table = _table(
        id=table_id,
        party_id=party_id,
        game=kind,
        letter=letter,
        roster=orjson.loads(roster),
        version=version,
        window_opened_at=_aware(opened),
        updated_at=_aware(updated),
        step_clock=clock,
        step_clock_server=bool(clock_server),
        step_due_at=_aware(due),
        roster_text=roster,
    )
    done = None if done_version is None else (done_version, done_actor)
    hot = _hot.get(table_id)
    if hot is not None and hot.texts is not None and hot.texts[0] == state and hot.version == version:
        stats["hot"] += 1
        return Found(table, hot.game, done)
    stats["read"] += 1
    return Found(table, game_named(kind).from_dict(orjson.loads(state)), done)


@dataclass
class Change:
    """One action's write: the table row (its window and step clocks already set for
    the new game), the new game (and `state`, its stored form), the action and who
    took it with which request id, the time, and the attempt it belongs to."""

    table: Table
    new: Game
    action: Action
    actor: str
    client_id: str
    now: datetime
    attempt: Attempt = field(default_factory=Attempt)
    state: dict[str, Any] = field(init=False)
    version: int = field(init=False)  # the new game's version
    action_json: str = field(init=False)  # the action as its log row stores it

    def __post_init__(self) -> None:
        definition = self.table.definition
        self.state = definition.to_dict(self.new)
        self.version = definition.version(self.new)
        self.action_json = orjson.dumps(definition.action_to_dict(self.action)).decode()


def save(change: Change) -> None:
    """Write `change.new` and the action's log row."""
    change.attempt.written = True  # from here on, whatever happens, this action is not tried again
    if _sqlite():
        _save_sqlite(change)
        return
    try:
        row = _write(change)
    except IntegrityError:
        if not change.attempt.optimistic:
            raise
        row = None  # a request id already used: the locking path says whose
    written_or_conflict(change, row)


def written_or_conflict(change: Change, row: tuple[Any, ...] | None, *, committed: bool = False) -> None:
    """PostgreSQL's statement has run and returned `row`: an optimistic attempt whose
    guard did not hold wrote nothing (Conflict); a locked one always writes."""
    if row is None and change.attempt.optimistic:
        stats["conflict"] += 1
        raise Conflict()
    if row is None or row[1] != 1:
        # Cannot happen under the row lock; never acknowledge what was not written.
        raise RuntimeError(f"table {change.table.pk}: the write of version {change.version} did not apply")
    _written(change, xmin=row[0], committed=committed)


def _save_sqlite(change: Change) -> None:
    """UPDATE (guarded, when optimistic, by the state and roster texts of the hot copy:
    any other write changes them) and INSERT, in one transaction of their own when the
    caller holds none."""
    t, a = Table._meta.db_table, TableAction._meta.db_table
    table, attempt = change.table, change.attempt
    state_text = orjson.dumps(change.state).decode()
    ops = connection.ops
    sql = (
        f"UPDATE {t} SET state = %s, version = %s, window_opened_at = %s, step_due_at = %s, updated_at = %s"
        f" WHERE id = %s AND version = %s"
    )
    params: list[Any] = [
        state_text,
        change.version,
        ops.adapt_datetimefield_value(table.window_opened_at),
        ops.adapt_datetimefield_value(table.step_due_at),
        ops.adapt_datetimefield_value(change.now),
        table.pk,
        table.version,
    ]
    if attempt.optimistic:
        sql += " AND state = %s AND roster = %s"
        params += list(attempt.texts or ("", ""))
        if attempt.also is not None:
            sql += f" AND {attempt.also.sql}"
            params += list(attempt.also.params)
    try:
        own = transaction.atomic() if not connection.in_atomic_block else nullcontext()
        with own, connection.cursor() as cur:
            cur.execute(sql, params)
            if cur.rowcount != 1:
                if attempt.optimistic:
                    raise Conflict()
                raise RuntimeError(f"table {table.pk}: the write of version {change.version} did not apply")
            cur.execute(
                f"INSERT INTO {a} (table_id, version, action, actor, client_id, created_at)"
                f" VALUES (%s, %s, %s, %s, %s, %s)",
                [
                    table.pk,
                    change.version,
                    change.action_json,
                    change.actor,
                    change.client_id,
                    ops.adapt_datetimefield_value(change.now),
                ],
            )
    except Conflict:
        stats["conflict"] += 1
        raise
    except IntegrityError:
        if not attempt.optimistic:
            raise
        stats["conflict"] += 1
        raise Conflict() from None  # a request id already used: the locking path says whose
    _written(change, xmin="", texts=(state_text, getattr(table, "_roster_text", None) or ""))


def _written(change: Change, *, xmin: str, texts: tuple[str, str] | None = None, committed: bool = False) -> None:
    """After either database's write applied: count it, bring `table` up to date, and
    keep the new row as this process's hot copy once it has committed (at once in
    autocommit: the statement has committed; `committed`: it was sent on a connection
    of its own, not Django's, tables/loopwrite.py)."""
    table, new, now = change.table, change.new, change.now
    if change.attempt.optimistic:
        stats["optimistic"] += 1
    hot = Hot(
        xmin=xmin,
        version=change.version,
        game=new,
        party_id=table.party_id,
        letter=table.letter,
        roster=table.roster,
        window_opened_at=table.window_opened_at,
        updated_at=now,
        texts=texts,
        step_clock=table.step_clock,
        step_clock_server=table.step_clock_server,
        step_due_at=table.step_due_at,
        kind=table.game,
    )
    table.version, table.updated_at, table.state = change.version, now, change.state
    table_id = table.pk
    if committed:
        _remember(table_id, hot)
    else:
        transaction.on_commit(lambda: _remember(table_id, hot))


def _write(change: Change) -> tuple[Any, ...] | None:
    sql, params = write_statement(change)
    with connection.cursor() as cur:
        cur.execute(sql, params)
        row: tuple[Any, ...] | None = cur.fetchone()
    return row


def write_statement(change: Change) -> tuple[str, list[Any]]:
    """PostgreSQL's one statement for `save`: the guarded UPDATE and the log row's INSERT.
    Its row is (the new xmin, 1) when it wrote, and none when the guard did not hold.
    Also sent, as it is, on the event loop's own connections (tables/loopwrite.py)."""
    t, a = Table._meta.db_table, TableAction._meta.db_table
    table, attempt, now = change.table, change.attempt, change.now
    also = attempt.also if attempt.optimistic else None
    sql = (
        f"WITH u AS (UPDATE {t} SET state = %s::jsonb, version = %s, window_opened_at = %s, step_due_at = %s,"
        f" updated_at = %s"
        f" WHERE id = %s AND version = %s AND (%s = '' OR xmin::text = %s)"
        f"{f' AND {also.sql}' if also else ''} RETURNING id, xmin::text AS x),"
        f" i AS (INSERT INTO {a} (table_id, version, action, actor, client_id, created_at)"
        f" SELECT id, %s, %s::jsonb, %s, %s, %s FROM u RETURNING 1)"
        f" SELECT u.x, (SELECT count(*) FROM i) FROM u"
    )
    params = [
        orjson.dumps(change.state).decode(),
        change.version,
        table.window_opened_at,
        table.step_due_at,
        now,
        table.pk,
        table.version,
        attempt.xmin or "",
        attempt.xmin or "",
        *(also.params if also else ()),
        change.version,
        change.action_json,
        change.actor,
        change.client_id,
        now,
    ]
    return sql, params


def warm(*, table_id: int, party_id: int) -> bool:
    """Take this process's copy of a table's row if it has none (PostgreSQL): its xmin
    and everything the copy holds, read in one statement, so they are the same row
    version. A socket's hello calls it: otherwise a table's first action after seating
    (or after this process started) had no copy, and went the long way, to a thread and
    a row lock (33-69 ms for ten tables starting at once in bench/live.py, think 250 ms).
    A copy that is stale by the time it is used writes nothing (the statement's guard)
    and is dropped. True: a copy was taken."""
    if _sqlite() or table_id in _hot:
        return False
    t = Table._meta.db_table
    with connection.cursor() as cur:
        cur.execute(
            f"SELECT xmin::text, version, CAST(state AS TEXT), letter, roster, window_opened_at, updated_at,"
            f" step_clock, step_clock_server, step_due_at, game FROM {t} WHERE id = %s AND party_id = %s",
            [table_id, party_id],
        )
        row = cur.fetchone()
    if row is None:
        return False
    xmin, version, state, letter, roster, opened, updated, clock, clock_server, due, kind = row
    hot = Hot(
        xmin=xmin,
        version=version,
        game=game_named(kind).from_dict(orjson.loads(state)),
        kind=kind,
        party_id=party_id,
        letter=letter,
        roster=_json(roster),
        window_opened_at=opened,
        updated_at=updated,
        step_clock=clock,
        step_clock_server=clock_server,
        step_due_at=due,
    )
    return _remember(table_id, hot, only_if_none=True)  # an action's copy got there first: it is newer


def forget_copy(table_id: int, xmin: str | None) -> None:
    """The copy with this xmin is not the row (a write found it so): drop it, unless a
    newer one has taken its place meanwhile. The locking path reads the row instead of
    trying the copy again."""
    with _hot_lock:
        hot = _hot.get(table_id)
        if hot is not None and hot.xmin == xmin:
            del _hot[table_id]


def forget(table_id: int | None = None) -> None:
    """Drop the hot copies (tests; a process that wants to read everything afresh)."""
    with _hot_lock:
        if table_id is None:
            _hot.clear()
        else:
            _hot.pop(table_id, None)
