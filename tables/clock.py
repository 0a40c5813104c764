"""A table's step clock: when the step waiting now runs out, and when it may be passed.

A party's host sets a step clock (off, 60 s or 2 min; events/models.py); seating copies
it onto each table row, so an action reads it with the row it locks. Each step that
waits for a guest (Yankee Heist: a turn, a reaction, a trim, the reveal; Royal Heist: a
room's decision) gets the clock afresh when it starts; `step_due_at` is written in the
action's own statement (tables/write.py), so it costs no query of its own, and is None
when the clock is off. When it has passed, the captain (or tablet) and the host may play
the rules' do-nothing choice for the guest (the definition's `clock(...).stand_in`), and
the server plays it itself if the host chose so (events/party/clocks.py). docs/RULES.md,
"When a guest does not answer".

Everything about the game comes from the table's definition (games/definition.py); the
one thing of Yankee Heist's kept on the row, `window_opened_at` (the rulebook's 60 s
pass of a reaction), is set only by a game whose events open a window.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from games.definition import Definition, Role
from games.event import Event

from .models import Table

# The rulebook's own pass: "The host can pass an unanswered reaction after 60
# seconds." It stays, whatever the party's clock (a 2-minute clock does not delay it).
REACTION_TIMEOUT_SECONDS = 60
REACTION_STEP = "reaction"  # Yankee Heist's clocked step with the rulebook's window
NO_SECONDS: dict[str, float] = {}  # the host's clocks are the table's own: a definition's seconds are not read

# The events that start a new step, whose clock starts afresh (Yankee Heist: a turn, a
# window, a trim, the reveal; Royal Heist: a new room, each seat inside deciding again).
NEW_STEP_EVENTS = frozenset({"turn_started", "window_opened", "trim_required", "reveal_due", "room"})


def step_due(table: Table, definition: Definition, new: Any, events: list[Event], now: datetime) -> datetime | None:
    """When the step `new` waits on runs out: the old deadline while the same step goes
    on (one of two seats answered a window), a fresh one for a new step, None with the
    clock off or nobody waited for (the gate, the end)."""
    if not table.step_clock or definition.clock(new, NO_SECONDS) is None:
        return None
    if table.step_due_at is None or any(e.type in NEW_STEP_EVENTS for e in events):
        return now + timedelta(seconds=table.step_clock)
    return table.step_due_at


def in_window(table: Table, definition: Definition, game: Any) -> bool:
    """Whether `game` waits in a reaction window the row's `window_opened_at` dates."""
    if table.window_opened_at is None:
        return False
    clock = definition.clock(game, NO_SECONDS)
    return clock is not None and clock.step == REACTION_STEP


def pass_from(table: Table, definition: Definition, game: Any) -> datetime | None:
    """From when the captain or the host may pass the step `game` waits on (None:
    never, it waits for its guest). A reaction also after the rulebook's 60 seconds."""
    due = table.step_due_at if table.step_clock else None
    if in_window(table, definition, game):
        assert table.window_opened_at is not None  # in_window says so
        rulebook = table.window_opened_at + timedelta(seconds=REACTION_TIMEOUT_SECONDS)
        return rulebook if due is None else min(due, rulebook)
    return due


def is_pass(definition: Definition, game: Any, action: Any) -> bool:
    """Whether `action` is the clock's stand-in for a seat (a pass: allowed only once the
    step's clock ran out), not an action anyone may take any time (the reveal's go-ahead)."""
    if definition.role_of(action) is Role.SEAT or definition.seat_of(action) is None:
        return False  # a seat's own action, or a duty: nothing to wait for (no clock read)
    clock = definition.clock(game, NO_SECONDS)
    return clock is not None and type(action) is type(clock.stand_in)
