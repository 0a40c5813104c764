"""A table's step clock: when the step waiting now runs out, and when it may be passed.

A party's host sets a step clock (off, 60 s or 2 min; events/models.py); seating copies
it onto each table row, so an action reads it with the row it locks. Each step that
waits for one guest (a turn, a reaction, a trim) or for the reveal gets the clock
afresh when it starts; `step_due_at` is written in the action's own statement
(tables/write.py), so it costs no query of its own, and is None when the clock is off.
When it has passed, the captain (or tablet) and the host may play the rules'
do-nothing choice for the guest (`games.yankee.stand_in`), and the server plays it
itself if the host chose so (events/party/clocks.py). docs/RULES.md, "When a guest does not
answer".
"""

from __future__ import annotations

from datetime import datetime, timedelta

from games.yankee import CLOCKED_PHASES, Event, Game, Phase

from .models import Table

# The rulebook's own pass: "The host can pass an unanswered reaction after 60
# seconds." It stays, whatever the party's clock (a 2-minute clock does not delay it).
REACTION_TIMEOUT_SECONDS = 60

# The events that start a new step, whose clock starts afresh.
NEW_STEP_EVENTS = frozenset({"turn_started", "window_opened", "trim_required", "reveal_due"})


def step_due(table: Table, new: Game, events: list[Event], now: datetime) -> datetime | None:
    """When the step `new` waits on runs out: the old deadline while the same step goes
    on (one of two seats answered a window), a fresh one for a new step, None with the
    clock off or nobody waited for (the gate, the end)."""
    if not table.step_clock or new.phase not in CLOCKED_PHASES:
        return None
    if table.step_due_at is None or any(e.type in NEW_STEP_EVENTS for e in events):
        return now + timedelta(seconds=table.step_clock)
    return table.step_due_at


def pass_from(table: Table, game: Game) -> datetime | None:
    """From when the captain or the host may pass the step `game` waits on (None:
    never, it waits for its guest). A reaction also after the rulebook's 60 seconds."""
    due = table.step_due_at if table.step_clock else None
    if game.phase is Phase.REACTION and table.window_opened_at is not None:
        rulebook = table.window_opened_at + timedelta(seconds=REACTION_TIMEOUT_SECONDS)
        return rulebook if due is None else min(due, rulebook)
    return due
