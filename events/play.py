"""A table action at a party: the table's transaction, and the party's consequences.

The table (tables/services.py) locks its row, applies the engine and writes; it knows
nothing of the party. Here, in the same transaction, the party decides what the table
reported: a relay draw needs the relay open, a table arriving at the gate is
announced; after commit, a table that finished may end the party.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from datetime import datetime
from typing import TypeVar

from django.db import OperationalError, transaction

from events.party.lobby import party_after_table_change, party_close_if_over
from relay.selectors import relay_is_open
from tables import loopwrite, write
from tables.engine import Game, Phase, stand_in
from tables.engine.actions import Action, DrawRelaySeat
from tables.errors import ServiceError
from tables.models import Table
from tables.outcome import Outcome
from tables.services import table_apply, table_apply_on_loop, table_lock

DEADLOCK_RETRIES = 3
T = TypeVar("T")


def table_act(
    *,
    party_id: int,
    table_id: int,
    engine_action: Action,
    actor_label: str,
    client_id: str = "",
    expected_version: int | None = None,
    now: datetime | None = None,
) -> Outcome:
    """Apply one action, already parsed and permitted (events/commands.py), to table
    `table_id` of party `party_id`. data {"version", "duplicate"}. Raises ServiceError
    (Illegal, stale, ...), in which case nothing changed. The table reads the clock
    (tables/services.py) unless `now` is given."""
    done = _optimistic(party_id, table_id, engine_action, actor_label, client_id, expected_version, now)
    return _after(
        party_id,
        done
        or _deadlock_retried(
            lambda: _act_once(party_id, table_id, engine_action, actor_label, client_id, expected_version, now)
        ),
    )


def table_act_if(
    also: write.Condition,
    *,
    party_id: int,
    table_id: int,
    engine_action: Action,
    actor_label: str,
    client_id: str = "",
    expected_version: int | None = None,
    now: datetime | None = None,
) -> Outcome | None:
    """`table_act`, optimistically only, and written only if `also` holds in the same
    statement (a guest's act: the seat is still this socket's). None: nothing was
    written, for whatever reason; the caller checks the long way and calls table_act."""
    done = _optimistic(party_id, table_id, engine_action, actor_label, client_id, expected_version, now, also)
    return None if done is None else _after(party_id, done)


async def table_act_on_loop(
    also: write.Condition | None,
    *,
    party_id: int,
    table_id: int,
    engine_action: Action,
    actor_label: str,
    client_id: str = "",
    expected_version: int | None = None,
    now: datetime | None = None,
) -> Outcome | None:
    """`table_act_if`, its one statement sent from the event loop (tables/loopwrite.py):
    no thread, no pool, no hop. Only what needs no other read or write: not a relay
    draw (the relay must be open), and not an action that brings the table to the gate
    or to its end (the party then reads, and may close, in the database). None: nothing
    was written, for whatever reason; the caller takes the threads' path."""
    if isinstance(engine_action, DrawRelaySeat):
        return None
    async with loopwrite.table_turn(table_id):  # behind this table's action in flight, if any
        return await _act_on_loop_in_turn(
            also,
            party_id=party_id,
            table_id=table_id,
            engine_action=engine_action,
            actor_label=actor_label,
            client_id=client_id,
            expected_version=expected_version,
            now=now,
        )


async def _act_on_loop_in_turn(
    also: write.Condition | None,
    *,
    party_id: int,
    table_id: int,
    engine_action: Action,
    actor_label: str,
    client_id: str,
    expected_version: int | None,
    now: datetime | None,
) -> Outcome | None:
    if not write.can_be_optimistic(table_id, party_id):
        return None
    trial = write.Attempt(optimistic=True, also=also)
    try:
        locked = table_lock(
            table_id=table_id,
            party_id=party_id,
            actor_label=actor_label,
            client_id=client_id,
            expected_version=expected_version,
            attempt=trial,
        )
        applied = await table_apply_on_loop(
            locked,
            engine_action,
            actor_label=actor_label,
            client_id=client_id,
            attempt=trial,
            write_if=_needs_nothing_more,
            now=now,
        )
    except Exception:
        if trial.written:
            raise  # the statement was sent: never try the action again
        return None  # a refusal, a stale copy: decided again on the row itself
    return None if applied is None else applied.outcome


def _needs_nothing_more(game: Game) -> bool:
    """The party has nothing to do about this new game (party_after_table_change and
    party_close_if_over read the database for these two phases)."""
    return game.phase not in (Phase.GATE, Phase.OVER)


def _after(party_id: int, done: tuple[Outcome, Game | None]) -> Outcome:
    outcome, game = done
    if game is not None and game.phase is Phase.OVER:
        # The table's last action has committed; the party may now be over too.
        outcome.messages.extend(party_close_if_over(party_id=party_id))
    return outcome


def _optimistic(
    party_id: int,
    table_id: int,
    engine_action: Action,
    actor_label: str,
    client_id: str,
    expected_version: int | None,
    now: datetime | None,
    also: write.Condition | None = None,
) -> tuple[Outcome, Game | None] | None:
    """The action in one autocommitted statement, decided on this process's copy of the
    table row and written only if the row is still exactly that copy (tables/write.py),
    and `also` holds. None: nothing was written (no copy, a stale one, a duplicate
    request id, `also` false, or any refusal, which the locking path decides again on
    the row itself)."""
    if isinstance(engine_action, DrawRelaySeat) or not write.can_be_optimistic(table_id, party_id):
        return None
    trial = write.Attempt(optimistic=True, also=also)
    try:
        return _act_once(party_id, table_id, engine_action, actor_label, client_id, expected_version, now, trial)
    except write.Conflict:
        return None
    except Exception:
        if trial.written:
            raise  # the statement ran: never try the action again
        return None


def _act_once(
    party_id: int,
    table_id: int,
    engine_action: Action,
    actor_label: str,
    client_id: str,
    expected_version: int | None,
    now: datetime | None,
    attempt: write.Attempt | None = None,
) -> tuple[Outcome, Game | None]:
    optimistic = attempt is not None and attempt.optimistic
    with nullcontext() if optimistic else transaction.atomic():
        locked = table_lock(
            table_id=table_id,
            party_id=party_id,
            actor_label=actor_label,
            client_id=client_id,
            expected_version=expected_version,
            attempt=attempt,
        )
        if locked.duplicate is not None:
            return Outcome({"version": locked.duplicate, "duplicate": True}), None
        if isinstance(engine_action, DrawRelaySeat) and not relay_is_open(party_id):
            # Captains draw only once the host has opened the relay (the ring is announced).
            raise ServiceError("relay_not_open", "the host has not opened the relay yet")
        applied = table_apply(
            locked, engine_action, actor_label=actor_label, client_id=client_id, now=now, attempt=attempt
        )
        # Party-level consequences (the gate) are decided in the same transaction (an
        # optimistic write has committed by now: they are read-only).
        applied.outcome.messages.extend(party_after_table_change(table=applied.table, game=applied.game))
        return applied.outcome, applied.game


def table_act_server(*, table: Table, engine_action: Action, actor_label: str) -> Outcome:
    """Apply an action the server itself decided (the relay). The caller holds the
    transaction, and the party's lock."""
    locked = table_lock(table_id=table.pk, party_id=table.party_id, actor_label=actor_label)
    applied = table_apply(locked, engine_action, actor_label=actor_label)
    applied.outcome.messages.extend(party_after_table_change(table=applied.table, game=applied.game))
    return applied.outcome


def table_act_stand_in(
    *, party_id: int, table_id: int, version: int, actor_label: str, now: datetime
) -> tuple[Outcome, Game | None]:
    """The server plays the rules' do-nothing choice for the step table `table_id`
    waits on at `version` (events/clocks.py; the caller holds the transaction and has
    claimed the row). The request id is the table's and the version's: a second fire
    for the same step finds it used and does nothing. (Outcome, the new game); the
    game is None when nothing was done (the table moved on, or waits for nobody)."""
    client_id = f"clock:{version}"
    locked = table_lock(table_id=table_id, party_id=party_id, actor_label=actor_label, client_id=client_id)
    if locked.duplicate is not None or locked.table.version != version:
        return Outcome({"version": locked.table.version, "duplicate": True}), None
    action = stand_in(locked.game)
    if action is None:
        return Outcome({"version": version, "duplicate": False}), None
    applied = table_apply(locked, action, actor_label=actor_label, client_id=client_id, now=now)
    applied.outcome.messages.extend(party_after_table_change(table=applied.table, game=applied.game))
    return applied.outcome, applied.game


def after_table_act(*, party_id: int, outcome: Outcome, game: Game | None) -> Outcome:
    """After the action's commit: a table that finished may end the party."""
    return _after(party_id, (outcome, game))


def _deadlock_retried(attempt: Callable[[], T]) -> T:
    """Run one table transaction. A table action locks only its table row and never
    the party's (party_after_table_change is read-only), so the party-wide writes that
    lock the party and then tables cannot deadlock with it. Should PostgreSQL still
    abort this transaction as a deadlock victim, it was rolled back whole and runs
    again (only when it is the outermost transaction)."""
    nested = transaction.get_connection().in_atomic_block
    for n in range(DEADLOCK_RETRIES):
        try:
            return attempt()
        except OperationalError as exc:
            if nested or n == DEADLOCK_RETRIES - 1 or getattr(exc.__cause__, "sqlstate", None) != "40P01":
                raise
    raise AssertionError("unreachable")
