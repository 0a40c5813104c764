"""Writes to a table: check under the table's row lock, apply, save, then notify.

One action is one transaction: `SELECT ... FOR UPDATE` on the table row serialises
every frame for that table (PostgreSQL), the engine checks the rules, the new state
and the action log row are written together, and the socket messages go out only
after commit.
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import OperationalError, transaction
from django.utils import timezone

from events.fanout import table_message
from events.groups import Message
from events.roles import SEAT_ACTIONS, Actor, Forbidden, check_table_action
from tables.engine import Game, MalformedActionError, Phase, apply, parse_action
from tables.engine.actions import Action, DrawRelaySeat, TimeoutPass

from . import write
from .models import Table
from .selectors import REACTION_TIMEOUT_SECONDS, table_meta

# Actions a player takes on their own turn: these carry the version the player saw, and
# a stale one is refused (the screen was out of date). Reaction answers and trims are
# not version-checked: two phones answering the same window at once must both count.
TURN_ACTIONS = frozenset({"play", "swipe", "regroup", "vault"})


class ServiceError(Exception):
    """A refused request; `code` is stable, the message is safe to show to the sender."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class ActOutcome:
    table_id: int
    version: int
    duplicate: bool = False
    messages: list[Message] = field(default_factory=list)
    game: Game | None = None


def table_messages(table: Table, game: Game, events) -> list[Message]:
    """Every seat's own view, and the public view, of the table at this version: one
    message, the public part and each seat's private part (events/fanout.py), which
    each process splits for its own sockets of this table's seat and public groups."""
    return [table_message(table.pk, game, events, table_meta(table))]


def table_act(
    *,
    actor: Actor,
    table_id: int,
    action: dict,
    client_id: str = "",
    expected_version: int | None = None,
    now: datetime | None = None,
) -> ActOutcome:
    """Apply one action from `actor` to table `table_id`. Raises Forbidden,
    IllegalActionError or ServiceError, in which case nothing changed."""
    if not isinstance(action, dict):
        raise MalformedActionError("an action must be a JSON object")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise MalformedActionError("an action needs a type")
    check_table_action(actor, table_id, kind)
    if kind in SEAT_ACTIONS:
        if "seat" in action and action["seat"] != actor.seat:
            raise Forbidden("you can only act for your own seat")
        action = {**action, "seat": actor.seat}
    engine_action = parse_action(action)
    outcome = _apply_locked(
        table_id=table_id,
        party_id=actor.party_id,
        engine_action=engine_action,
        actor_label=actor.label_for(kind),
        client_id=client_id,
        expected_version=expected_version if kind in TURN_ACTIONS else None,
        now=now or timezone.now(),
    )
    if outcome.game is not None and outcome.game.phase is Phase.OVER:
        # The table's last action has committed; the party may now be over too.
        from events.services import party_close_if_over

        outcome.messages.extend(party_close_if_over(party_id=actor.party_id))
    return outcome


def table_apply_server(*, table_id: int, engine_action: Action, actor_label: str) -> ActOutcome:
    """Apply an action the server itself decided (the relay). Caller holds the transaction."""
    table = Table.objects.get(pk=table_id)
    return _apply_locked(
        table_id=table_id,
        party_id=table.party_id,
        engine_action=engine_action,
        actor_label=actor_label,
        client_id="",
        expected_version=None,
        now=timezone.now(),
    )


DEADLOCK_RETRIES = 3


def _apply_locked(**kwargs) -> ActOutcome:
    """Apply under the table's row lock. A table action locks only its table row and
    never the party's (events.services.party_after_table_change is read-only), so the
    party-wide writes that lock the party and then tables cannot deadlock with it.
    Should PostgreSQL still abort this transaction as a deadlock victim, it was rolled
    back whole and runs again (only when it is the outermost transaction)."""
    nested = transaction.get_connection().in_atomic_block
    if not isinstance(kwargs["engine_action"], DrawRelaySeat) and write.can_be_optimistic(
        kwargs["table_id"], kwargs["party_id"]
    ):
        # No lock, one statement, on this process's copy of the row (tables/write.py);
        # anything but a clean write is decided again below, under the lock.
        trial = write.Attempt(optimistic=True)
        try:
            return _apply_locked_once(**kwargs, attempt=trial)
        except write.Conflict:
            pass
        except Exception:
            if trial.written:
                raise
    for attempt in range(DEADLOCK_RETRIES):
        try:
            return _apply_locked_once(**kwargs)
        except OperationalError as exc:
            if nested or attempt == DEADLOCK_RETRIES - 1 or getattr(exc.__cause__, "sqlstate", None) != "40P01":
                raise
    raise AssertionError("unreachable")


def _apply_locked_once(
    *,
    table_id: int,
    party_id: int,
    engine_action: Action,
    actor_label: str,
    client_id: str,
    expected_version: int | None,
    now: datetime,
    attempt: write.Attempt | None = None,
) -> ActOutcome:
    optimistic = attempt is not None and attempt.optimistic
    with nullcontext() if optimistic else transaction.atomic():
        try:  # the row lock, the table, a retried request id and the game (tables/write.py)
            locked = write.lock(table_id=table_id, party_id=party_id, client_id=client_id, attempt=attempt)
        except write.NoTable:
            raise ServiceError("no_table", "there is no such table at this party") from None
        table = locked.table
        if locked.duplicate is not None:
            version, by = locked.duplicate
            if by != actor_label:
                # Someone else's id: acknowledging it would tell this sender an
                # action was done that never was.
                raise ServiceError("reused_id", "that request id was already used at this table; send a new one")
            # A retried frame (a phone that resent after a drop): acknowledge, don't redo.
            return ActOutcome(table_id, version, duplicate=True)
        if expected_version is not None and expected_version != table.version:
            raise ServiceError(
                "stale", f"the table moved on (version {table.version}, you saw {expected_version}); refreshed"
            )
        game = locked.game
        if isinstance(engine_action, DrawRelaySeat):
            from relay.services import relay_check_draw

            relay_check_draw(table=table)
        if isinstance(engine_action, TimeoutPass):
            opened = table.window_opened_at
            waited = (now - opened).total_seconds() if opened else 0
            if game.phase is Phase.REACTION and waited < REACTION_TIMEOUT_SECONDS:
                raise ServiceError(
                    "too_early",
                    f"this reaction has waited {int(waited)} s; it can be passed after {REACTION_TIMEOUT_SECONDS} s",
                )
        new, events = apply(game, engine_action)
        if any(e.type == "window_opened" for e in events):
            table.window_opened_at = now
        elif new.phase is not Phase.REACTION:
            table.window_opened_at = None
        write.save(
            table=table, new=new, action=engine_action, actor=actor_label, client_id=client_id, now=now, attempt=attempt
        )
        outcome = ActOutcome(table.pk, new.version, messages=table_messages(table, new, events), game=new)
        # Party-level consequences (the gate) are decided in the same transaction.
        from events.services import party_after_table_change

        outcome.messages.extend(party_after_table_change(table=table, game=new))
        return outcome


def window_waited(table: Table, now: datetime | None = None) -> timedelta | None:
    if table.window_opened_at is None:
        return None
    return (now or timezone.now()) - table.window_opened_at
