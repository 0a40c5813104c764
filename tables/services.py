"""A table action's persistence: the one place its writer is chosen, and the writers.

Every table action a guest, a tablet or the host sends comes here as one `ActRequest`
(events/party/commands.py parses it, events/party/play.py passes it on with the party's
`PartyRules`). `table_writers` chooses how it is written, and nothing else does:

- `Writer.ON_LOOP`: one autocommitted statement sent from the event loop itself
  (tables/loopwrite.py), decided on this process's copy of the row; written only if the
  row is still exactly that copy (and the request's `only_if` holds).
- `Writer.OPTIMISTIC`: the same statement through Django's connection, from a thread.
- `Writer.LOCKED`: `table_lock` takes `SELECT ... FOR UPDATE` on the table row, which
  serialises every frame for that table (PostgreSQL), and answers a retried request;
  `table_apply` has the engine check the rules and writes the new state and the action
  log row together; one transaction, run again whole if PostgreSQL picked it as a
  deadlock victim.

An optimistic writer that wrote nothing (no copy, a stale one, a duplicate request id,
`only_if` false, any refusal) hands the request to the next writer, which decides on the
row itself: a refusal is never decided on the copy alone. A table knows the engine and
nothing of the party or the relay: what the party must say about an action (a relay
draw needs the relay open, a table at the gate is announced) comes in as `PartyRules`.
The socket messages go out only after commit.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol, TypeVar

from django.db import OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.definition import Definition, is_stale
from games.event import Event
from games.registry import DEFAULT_GAME

from . import loopwrite, write
from .broadcast import table_message
from .clock import clock_set, is_pass, pass_from, rules_pass_of
from .errors import ErrorCode, ServiceError, engine_rules
from .groups import Message
from .models import Table
from .outcome import Outcome
from .selectors import table_meta

DEADLOCK_RETRIES = 3
T = TypeVar("T")
# A game's state and action, as its definition (games/definition.py) makes them: the
# host holds them and hands them back to the table's definition, never looks inside.
Game = Any
Action = Any


@dataclass(frozen=True)
class ActRequest:
    """One table action, parsed and permitted (events/party/commands.py), as it goes down to
    its write. `client_id`: the frame's request id (a retry with the same id is
    acknowledged, not redone); `expected_version`: the version the sender's screen
    showed (None: not checked; an action taken on another step than the one the table
    waits on is refused as stale, games/definition.py `is_stale`); `now`: the action's
    time (None: the clock);
    `only_if`: SQL the write's own statement must also find true (a guest's seat,
    events/live/act.py), so this request is written optimistically or not at all;
    `game`: the table's game, whose definition the party asks about the action."""

    party_id: int
    table_id: int
    action: Action
    actor_label: str
    client_id: str = ""
    expected_version: int | None = None
    now: datetime | None = None
    only_if: write.Condition | None = None
    game: str = DEFAULT_GAME  # the table's game (games/registry.py), as the sender's party names it


@dataclass(frozen=True)
class PartyRules:
    """What the party says about a table's action (events/party/play.py `PARTY_RULES`).
    `needs_lock`: an action decided on the locked row only (it reads the party);
    `admit`: under the lock, before the engine, raises ServiceError to refuse;
    `after`: in the action's transaction, the party's messages about the new game;
    `settles_alone`: the party has nothing to read or write for this new game, so the
    event loop may write it."""

    needs_lock: Callable[[ActRequest], bool]
    admit: Callable[[ActRequest], None]
    after: Callable[[Table, Game], list[Message]]
    settles_alone: Callable[[Table, Game], bool]


class Writer(enum.Enum):
    ON_LOOP = "loop"  # the optimistic statement, from the event loop (tables/loopwrite.py)
    OPTIMISTIC = "optimistic"  # the same statement, autocommitted, from a thread
    LOCKED = "locked"  # under the row lock, in a transaction, retried on deadlock


@dataclass(frozen=True)
class Persisted:
    """A request's result: the outcome for the sender and screens, and the new game
    (None: nothing new, a retried request id acknowledged)."""

    outcome: Outcome
    game: Game | None
    definition: Definition | None = None  # the table's game (None with no new game)


def table_writers(request: ActRequest, rules: PartyRules, *, on_loop: bool) -> tuple[Writer, ...]:
    """The writers that may write `request`, in the order they are tried: the one place
    the choice is made. From the event loop, only the loop's statement (and only on
    PostgreSQL with ACTS_ON_LOOP_CONNECTIONS); from a thread, optimistically first and
    then under the row lock. An action the party decides on the row (a relay draw) is
    written under the lock only; a request with `only_if` optimistically only (the
    condition lives in that statement), so a relay draw with one is not written here."""
    optimistic = () if rules.needs_lock(request) else (Writer.OPTIMISTIC,)
    if on_loop:
        return (Writer.ON_LOOP,) if optimistic and loopwrite.enabled() else ()
    if request.only_if is not None:
        return optimistic
    return (*optimistic, Writer.LOCKED)


def table_persist(request: ActRequest, rules: PartyRules) -> Persisted | None:
    """Write `request` from a thread (or any synchronous caller): each of its writers
    in turn until one wrote. Raises ServiceError (Illegal, stale, ...), in which case
    nothing changed. None: only a request with `only_if`, which nothing wrote."""
    for writer in table_writers(request, rules, on_loop=False):
        if writer is Writer.OPTIMISTIC:
            done = _optimistic(request, rules)
            if done is not None:
                return done
        else:
            return _deadlock_retried(lambda: _write_once(request, rules, None))
    return None


async def table_persist_on_loop(request: ActRequest, rules: PartyRules) -> Persisted | None:
    """Write `request` from the event loop, its one statement sent with no thread, no
    pool and no hop (tables/loopwrite.py), when its writers say so. None: nothing was
    written, for whatever reason (not this writer's request, no copy, a stale one, a
    refusal, `rules.settles_alone` false, no connection); the caller takes the threads'
    path (`table_persist`), which decides it again. Raises once the statement was sent
    (it may have committed: never try it again)."""
    if Writer.ON_LOOP not in table_writers(request, rules, on_loop=True):
        return None
    async with loopwrite.table_turn(request.table_id):  # behind this table's action in flight, if any
        return await _on_loop(request, rules)


@dataclass
class Locked:
    """A table row under its lock (or this process's copy of it, optimistically), and
    its game. `duplicate` is the version an earlier request with the same client id
    produced (that request is acknowledged, not redone)."""

    table: Table
    game: Game
    duplicate: int | None = None


@dataclass
class Applied:
    """What one applied action changed: the table row as saved, the new game (its
    phase tells the party what happened), and the outcome for the sender and screens."""

    table: Table
    game: Game
    events: list[Event]
    outcome: Outcome


def table_messages(table: Table, game: Game, events: list[Event], before: Game | None = None) -> list[Message]:
    """Every seat's own view, and the public view, of the table at this version: one
    message, the public part and each seat's private part (tables/broadcast.py), which
    each process splits for its own sockets of this table's seat and public groups.
    `before`: the committed game this version was made from (for the patch)."""
    return [table_message(table.pk, table.definition, game, events, table_meta(table, game), before)]


class LockRequest(Protocol):
    """What `table_lock` reads of a request: an ActRequest, or a `TableClaim`."""

    @property
    def party_id(self) -> int: ...
    @property
    def table_id(self) -> int: ...
    @property
    def actor_label(self) -> str: ...
    @property
    def client_id(self) -> str: ...
    @property
    def expected_version(self) -> int | None: ...
    @property
    def action(self) -> Action: ...


@dataclass(frozen=True)
class TableClaim:
    """A table locked for an action the server decides once it has the row (events/party/play.py
    `table_act_stand_in`, the relay's), with the request id it is logged under."""

    party_id: int
    table_id: int
    actor_label: str
    client_id: str = ""
    expected_version: None = None
    action: None = None


def table_lock(request: LockRequest, *, attempt: write.Attempt | None = None) -> Locked:
    """Lock the request's table (the caller holds the transaction).
    A request id already used by this actor is a retry: `duplicate` says the version it
    made. Raises ServiceError (no_table, reused_id, stale). The row, the request id and
    the game come in one statement (tables/write.py); with an optimistic `attempt`,
    from this process's copy of the row, unlocked, and the write applies only if the
    row is still that copy."""
    expected_version = request.expected_version
    try:
        found = write.lock(
            table_id=request.table_id, party_id=request.party_id, client_id=request.client_id, attempt=attempt
        )
    except write.NoTable:
        raise ServiceError(ErrorCode.NO_TABLE, gettext("there is no such table at this party")) from None
    table = found.table
    if found.duplicate is not None:
        version, by = found.duplicate
        if by != request.actor_label:
            # Someone else's id: acknowledging it would tell this sender an
            # action was done that never was.
            raise ServiceError(
                ErrorCode.REUSED_ID, gettext("that request id was already used at this table; send a new one")
            )
        # A retried frame (a phone that resent after a drop): acknowledge, don't redo.
        return Locked(table, found.game, duplicate=version)
    if expected_version is not None and is_stale(table.definition, found.game, request.action, expected_version):
        raise ServiceError(
            ErrorCode.STALE,
            gettext("the table moved on (version %(version)s, you saw %(seen)s); refreshed")
            % {"version": table.version, "seen": expected_version},
        )
    return Locked(table, found.game)


def table_apply(
    locked: Locked,
    engine_action: Action,
    *,
    actor_label: str,
    client_id: str = "",
    now: datetime | None = None,
    attempt: write.Attempt | None = None,
) -> Applied:
    """Apply one action to a locked table and write the new state and its log row.
    A pass is allowed once the step's clock ran out (tables/clock.py), by the server's
    clock. Raises Illegal (the rules) or
    ServiceError (too_early); the caller's transaction then rolls back whole."""
    table = locked.table
    new, events, now = _decide(locked, engine_action, now)
    # The new state, version and clock, and the log row: one statement (tables/write.py).
    write.save(write.Change(table, new, engine_action, actor_label, client_id, now, attempt or write.Attempt()))
    return _applied(table, new, events, locked.game)


def _write_once(request: ActRequest, rules: PartyRules, attempt: write.Attempt | None) -> Persisted:
    """One try of `request`: under the row lock in a transaction of its own, or, with
    an optimistic `attempt`, on the copy in one autocommitted statement."""
    optimistic = attempt is not None and attempt.optimistic
    with nullcontext() if optimistic else transaction.atomic():
        locked = table_lock(request, attempt=attempt)
        if locked.duplicate is not None:
            return Persisted(Outcome({"version": locked.duplicate, "duplicate": True}), None)
        rules.admit(request)
        applied = table_apply(
            locked,
            request.action,
            actor_label=request.actor_label,
            client_id=request.client_id,
            now=request.now,
            attempt=attempt,
        )
        # Party-level consequences (the gate) are decided in the same transaction (an
        # optimistic write has committed by now: they are read-only).
        applied.outcome.messages.extend(rules.after(applied.table, applied.game))
        return Persisted(applied.outcome, applied.game, applied.table.definition)


def _optimistic(request: ActRequest, rules: PartyRules) -> Persisted | None:
    """`Writer.OPTIMISTIC`: decided on this process's copy of the table row and written
    only if the row is still exactly that copy (tables/write.py), and `only_if` holds.
    None: nothing was written (no copy, a stale one, a duplicate request id, `only_if`
    false, or any refusal, which the locking writer decides again on the row itself)."""
    if not write.can_be_optimistic(request.table_id, request.party_id):
        return None
    trial = write.Attempt(optimistic=True, also=request.only_if)
    try:
        return _write_once(request, rules, trial)
    except write.Conflict:
        return None
    except Exception:
        if trial.written:
            raise  # the statement ran: never try the action again
        return None


async def _on_loop(request: ActRequest, rules: PartyRules) -> Persisted | None:
    """`Writer.ON_LOOP`: `_optimistic`, its statement sent from the event loop; not
    written when the party must read the database about the new game (the gate, the
    end: `rules.settles_alone`)."""
    if not write.can_be_optimistic(request.table_id, request.party_id):
        return None
    trial = write.Attempt(optimistic=True, also=request.only_if)
    try:
        locked = table_lock(request, attempt=trial)
        new, events, now = _decide(locked, request.action, request.now)
        if not rules.settles_alone(locked.table, new):
            return None
        try:
            await loopwrite.save(
                write.Change(locked.table, new, request.action, request.actor_label, request.client_id, now, trial)
            )
        except (write.Conflict, loopwrite.NotSent):
            return None
        applied = _applied(locked.table, new, events, locked.game)
    except Exception:
        if trial.written:
            raise  # the statement was sent: never try the action again
        return None  # a refusal, a stale copy: decided again on the row itself
    return Persisted(applied.outcome, applied.game, locked.table.definition)


def _deadlock_retried(attempt: Callable[[], T]) -> T:
    """Run one table transaction. A table action locks only its table row and never
    the party's (the party's `after` is read-only), so the party-wide writes that lock
    the party and then tables cannot deadlock with it. Should PostgreSQL still abort
    this transaction as a deadlock victim, it was rolled back whole and runs again
    (only when it is the outermost transaction)."""
    nested = transaction.get_connection().in_atomic_block
    for n in range(DEADLOCK_RETRIES):
        try:
            return attempt()
        except OperationalError as exc:
            if nested or n == DEADLOCK_RETRIES - 1 or getattr(exc.__cause__, "sqlstate", None) != "40P01":
                raise
    raise AssertionError("unreachable")


def _decide(locked: Locked, engine_action: Action, now: datetime | None) -> tuple[Game, list[Event], datetime]:
    """The game's new state and events for the action (nothing written), and the time
    it is taken at; `locked.table`'s window clock and step clock set for the new game."""
    table, game = locked.table, locked.game
    definition = table.definition
    now = now or timezone.now()
    if is_pass(definition, game, engine_action):
        _check_ran_out(table, definition, game, now)
    with engine_rules(definition):
        new, events = definition.apply(game, engine_action)
    clock_set(table, definition, new, now)
    return new, events, now


def _check_ran_out(table: Table, definition: Definition, game: Game, now: datetime) -> None:
    """A guest's step is passed only once its clock ran out (or, for a step the rules
    themselves let be passed, after their wait: `Clock.rules_pass`); a step with no clock
    waits for its guest."""
    since = pass_from(table, definition, game)
    if since is None:
        raise ServiceError(
            ErrorCode.TOO_EARLY, gettext("this party's step clock is off: this step waits for its guest")
        )
    if now < since:
        if rules_pass_of(table, definition, game) is not None:
            assert table.window_opened_at is not None  # rules_pass_of says so
            began = table.window_opened_at
        else:
            began = since - timedelta(seconds=table.step_clock)
        waited, limit = int((now - began).total_seconds()), round((since - began).total_seconds())
        raise ServiceError(
            ErrorCode.TOO_EARLY,
            gettext("this step has waited %(waited)s s; it can be passed after %(limit)s s")
            % {"waited": waited, "limit": limit},
        )


def _applied(table: Table, new: Game, events: list[Event], before: Game) -> Applied:
    version = table.definition.version(new)
    outcome = Outcome({"version": version, "duplicate": False}, table_messages(table, new, events, before))
    return Applied(table, new, events, outcome)
