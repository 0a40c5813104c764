"""A table's step clock: when the step waiting now runs out, and when it may be passed.

A party's host sets a step clock (off, 60 s or 2 min; events/models.py); seating copies
it onto each table row, so an action reads it with the row it locks. Each step that
waits for a guest gets the clock afresh when it starts; `step_due_at` is written in the
action's own statement (tables/write.py), so it costs no query of its own, and is None
when the clock is off. When it has passed, the captain (or tablet) and the host may play
the rules' do-nothing choice for the guest, and the server plays it itself if the host
chose so (events/party/clocks.py). docs/RULES.md, "When a guest does not answer".

Everything about the game comes from the table's definition (games/definition.py
`Clock`): which steps are clocked (`clock(...)` is None for the others), when a step
began (`since`: a new step is a new clock), the stand-in (`stand_in`), and a step the
rules themselves let be passed after a while whatever the party's clock
(`rules_pass`), whose start the row keeps in `window_opened_at`.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from games.definition import Clock, Definition, Role, starts_step

from .models import Table

NO_SECONDS: dict[str, float] = {}  # the host's clocks are the table's own: a definition's seconds are not read


def clock_set(table: Table, definition: Definition, new: Any, now: datetime) -> None:
    """Set `table`'s clocks for `new`, the game an action made at `now`: a fresh
    deadline when a new step started, the old one while the same step goes on (one of
    two seats answered), none with the clock off or nobody waited for (the gate, the
    end); likewise the start of a step the rules let be passed after a while."""
    clock = definition.clock(new, NO_SECONDS)
    fresh = clock is not None and starts_step(definition, new, clock)
    if clock is None or clock.rules_pass is None:
        table.window_opened_at = None
    elif fresh:
        table.window_opened_at = now
    if table.step_clock:
        if clock is None:
            table.step_due_at = None
        elif fresh or table.step_due_at is None:
            table.step_due_at = now + timedelta(seconds=table.step_clock)


def rules_pass_of(table: Table, definition: Definition, game: Any) -> Clock | None:
    """The clock of the step `game` waits on, when the rules let it be passed after a
    while whatever the party's clock, and the row dates its start."""
    if table.window_opened_at is None:
        return None
    clock = definition.clock(game, NO_SECONDS)
    return clock if clock is not None and clock.rules_pass is not None else None


def pass_from(table: Table, definition: Definition, game: Any) -> datetime | None:
    """From when the captain or the host may pass the step `game` waits on (None:
    never, it waits for its guest). A step the rules let be passed: also after their wait."""
    due = table.step_due_at if table.step_clock else None
    clock = rules_pass_of(table, definition, game)
    if clock is not None:
        assert table.window_opened_at is not None and clock.rules_pass is not None  # rules_pass_of says so
        rulebook = table.window_opened_at + timedelta(seconds=clock.rules_pass)
        return rulebook if due is None else min(due, rulebook)
    return due


def is_pass(definition: Definition, game: Any, action: Any) -> bool:
    """Whether `action` is the clock's stand-in for a seat (a pass: allowed only once the
    step's clock ran out), not an action anyone may take any time (a duty's go-ahead)."""
    if definition.role_of(action) is Role.SEAT or definition.seat_of(action) is None:
        return False  # a seat's own action, or a duty: nothing to wait for (no clock read)
    clock = definition.clock(game, NO_SECONDS)
    return clock is not None and type(action) is type(clock.stand_in)
