"""The server's own pass for a quiet guest: a durable timer, fired exactly once.

When the host chose "the server plays it", a step whose clock ran out (tables/clock.py)
gets the rules' do-nothing choice from the server: the stand-in the table's definition
names (games/definition.py `Clock.stand_in`: a turn passed, a decision defaulted).

Durable: the deadline is the table row's `step_due_at`, written in the action's own
statement, so it survives any restart; nothing is held in one process's memory. Any
process may sweep (each daphne's loop, events/live/clockloop.py; Celery beat in production,
events/tasks.py): `clock_sweep` claims one due table at a time with `SELECT ... FOR
UPDATE SKIP LOCKED` (two sweepers never take the same table; one waits for nobody),
and plays it through the table's normal action path, in that transaction, with the
request id `clock:<version>`: a second fire for the same step is a duplicate and does
nothing, and the step played has a new deadline (or none), so it is not due again.
On SQLite (bin/serve: one process, one writer at a time) FOR UPDATE is not needed.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from events.party.play import after_table_act, table_act_stand_in
from games.registry import game_named
from tables.errors import ServiceError
from tables.groups import Message
from tables.models import Table

log = logging.getLogger(__name__)

ACTOR = "clock"  # who the action log says acted
SWEEP_LIMIT = 200  # steps one sweep plays at most (the rest: the next sweep)


def clock_sweep(*, now: datetime | None = None, limit: int = SWEEP_LIMIT) -> list[Message]:
    """Play every due step (at most `limit`), one table per transaction; the messages
    to send. A table that refuses (which the engine never should) has its deadline
    cleared, so it is never retried for ever; its captain can still act."""
    messages: list[Message] = []
    for _ in range(limit):
        fired = clock_fire_one(now=now)
        if fired is None:
            break
        messages += fired
    return messages


def clock_fire_one(*, now: datetime | None = None) -> list[Message] | None:
    """Claim one table whose step ran out and play its stand-in; its messages, or None
    when no table is due (or every due table is being played by another sweeper)."""
    now = now or timezone.now()
    due = Table.objects.filter(step_clock_server=True, step_due_at__lte=now)
    if not due.exists():
        return None  # the usual answer, in one read and no transaction (SQLite: no write lock)
    claimed: tuple[int, int, int, str] | None = None
    try:
        with transaction.atomic():
            claimed = (
                due.select_for_update(skip_locked=True)
                .order_by("step_due_at")
                .values_list("pk", "party_id", "version", "game")
                .first()
            )
            if claimed is None:
                return None
            table_id, party_id, version, kind = claimed
            outcome, game = table_act_stand_in(
                party_id=party_id, table_id=table_id, version=version, actor_label=ACTOR, now=now
            )
            if game is None and outcome.data.get("duplicate") is False:
                Table.objects.filter(pk=table_id).update(step_due_at=None)  # waits for nobody
    except ServiceError:
        if claimed is None:
            raise
        log.exception("table %s: the clock's pass was refused; its deadline is cleared", claimed[0])
        Table.objects.filter(pk=claimed[0], version=claimed[2]).update(step_due_at=None)
        return []
    return after_table_act(party_id=party_id, outcome=outcome, game=game, definition=game_named(kind)).messages
