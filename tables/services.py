"""Writes to a table: check under the table's row lock, apply, save; the caller commits.

One action is one transaction, held by the party-level caller (events/play.py, the
relay): `table_lock` takes `SELECT ... FOR UPDATE` on the table row, which serialises
every frame for that table (PostgreSQL), and answers a retried request; `table_apply`
has the engine check the rules and writes the new state and the action log row
together. A table knows the engine and nothing of the party or the relay: it reports
what changed (the new game, its phase) by what it returns, and the caller decides the
party's consequences (the gate, the end, the relay) in the same transaction. The
socket messages go out only after commit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from tables.engine import Event, Game, Phase, apply
from tables.engine.actions import Action, TimeoutPass

from . import loopwrite, write
from .broadcast import table_message
from .clock import pass_from, step_due
from .errors import ServiceError, engine_rules
from .groups import Message
from .models import Table
from .outcome import Outcome
from .selectors import table_meta

# Actions a player takes on their own turn: these carry the version the player saw, and
# a stale one is refused (the screen was out of date). Reaction answers and trims are
# not version-checked: two phones answering the same window at once must both count.
TURN_ACTIONS = frozenset({"play", "swipe", "regroup", "vault"})


@dataclass
class Locked:
    """A table row under its lock, and its game. `duplicate` is the version an earlier
    request with the same client id produced (that request is acknowledged, not redone)."""

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


def table_messages(table: Table, game: Game, events, before: Game | None = None) -> list[Message]:
    """Every seat's own view, and the public view, of the table at this version: one
    message, the public part and each seat's private part (tables/broadcast.py), which
    each process splits for its own sockets of this table's seat and public groups.
    `before`: the committed game this version was made from (for the patch)."""
    return [table_message(table.pk, game, events, table_meta(table), before)]


def table_lock(
    *,
    table_id: int,
    party_id: int,
    actor_label: str,
    client_id: str = "",
    expected_version: int | None = None,
    attempt: write.Attempt | None = None,
) -> Locked:
    """Lock table `table_id` of party `party_id` (the caller holds the transaction).
    A request id already used by this actor is a retry: `duplicate` says the version it
    made. Raises ServiceError (no_table, reused_id, stale). The row, the request id and
    the game come in one statement (tables/write.py); with an optimistic `attempt`,
    from this process's copy of the row, unlocked, and `table_apply` writes only if the
    row is still that copy."""
    try:
        found = write.lock(table_id=table_id, party_id=party_id, client_id=client_id, attempt=attempt)
    except write.NoTable:
        raise ServiceError("no_table", "there is no such table at this party") from None
    table = found.table
    if found.duplicate is not None:
        version, by = found.duplicate
        if by != actor_label:
            # Someone else's id: acknowledging it would tell this sender an
            # action was done that never was.
            raise ServiceError("reused_id", "that request id was already used at this table; send a new one")
        # A retried frame (a phone that resent after a drop): acknowledge, don't redo.
        return Locked(table, found.game, duplicate=version)
    if expected_version is not None and expected_version != table.version:
        raise ServiceError(
            "stale", f"the table moved on (version {table.version}, you saw {expected_version}); refreshed"
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
    write.save(
        table=table, new=new, action=engine_action, actor=actor_label, client_id=client_id, now=now, attempt=attempt
    )
    return _applied(table, new, events, locked.game)


async def table_apply_on_loop(
    locked: Locked,
    engine_action: Action,
    *,
    actor_label: str,
    client_id: str,
    attempt: write.Attempt,
    write_if: Callable[[Game], bool],
    now: datetime | None = None,
) -> Applied | None:
    """`table_apply` of an optimistic attempt (`locked` is this process's copy of the
    row), its statement sent from the event loop (tables/loopwrite.py). None: nothing
    was written, because `write_if` said no to the new game (the caller's say: what it
    must do with it needs the database), the copy is not the row (write.Conflict), or
    no connection could be had (loopwrite.NotSent). Raises as table_apply before the
    statement is sent; after, whatever the database said (never try it again)."""
    table = locked.table
    new, events, now = _decide(locked, engine_action, now)
    if not write_if(new):
        return None
    try:
        await loopwrite.save(
            table=table, new=new, action=engine_action, actor=actor_label, client_id=client_id, now=now, attempt=attempt
        )
    except (write.Conflict, loopwrite.NotSent):
        return None
    return _applied(table, new, events, locked.game)


def _decide(locked: Locked, engine_action: Action, now: datetime | None) -> tuple[Game, list[Event], datetime]:
    """The engine's new game and events for the action (nothing written), and the time
    it is taken at; `locked.table`'s window clock and step clock set for the new game."""
    table, game = locked.table, locked.game
    now = now or timezone.now()
    if isinstance(engine_action, TimeoutPass):
        _check_ran_out(table, game, now)
    with engine_rules():
        new, events = apply(game, engine_action)
    if any(e.type == "window_opened" for e in events):
        table.window_opened_at = now
    elif new.phase is not Phase.REACTION:
        table.window_opened_at = None
    if table.step_clock:
        table.step_due_at = step_due(table, new, events, now)
    return new, events, now


def _check_ran_out(table: Table, game: Game, now: datetime) -> None:
    """A guest's step is passed only once its clock ran out (a reaction also after the
    rulebook's 60 s); a step with no clock waits for its guest."""
    since = pass_from(table, game)
    if since is None:
        if game.phase in (Phase.ACTION, Phase.TRIM, Phase.REACTION):
            raise ServiceError("too_early", "this party's step clock is off: this step waits for its guest")
        return  # nobody's answer is awaited: the engine says why this pass is refused
    if now < since:
        if game.phase is Phase.REACTION and table.window_opened_at is not None:
            began = table.window_opened_at
        else:
            began = since - timedelta(seconds=table.step_clock)
        waited, limit = int((now - began).total_seconds()), round((since - began).total_seconds())
        raise ServiceError("too_early", f"this step has waited {waited} s; it can be passed after {limit} s")


def _applied(table: Table, new: Game, events: list[Event], before: Game) -> Applied:
    outcome = Outcome({"version": new.version, "duplicate": False}, table_messages(table, new, events, before))
    return Applied(table, new, events, outcome)


def window_waited(table: Table, now: datetime | None = None) -> timedelta | None:
    if table.window_opened_at is None:
        return None
    return (now or timezone.now()) - table.window_opened_at
