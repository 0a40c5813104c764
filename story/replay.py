"""Replay a table from its seed, setup and action log through the engine.

The table row holds the live state; the log holds every accepted action. Replaying the
log from the seed must land exactly on the stored state (the engine is deterministic):
that check is what lets the story claim to be exact.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.event import Event
from tables.models import Table, TableAction
from tables.replay import ReplayMismatch as ReplayMismatch  # the story refuses a log that does not replay
from tables.replay import table_setup


def table_start(table: Table) -> tuple[Any, list[Event]]:
    """The table as it was dealt (version 1), and the setup's events: its definition's
    setup from the stored row (tables/replay.py)."""
    return table.definition.setup(table_setup(table))


@dataclass
class Step:
    version: int
    actor: str
    action: dict[str, Any]
    events: list[Event]


@dataclass
class TableReplay:
    table: Table
    start: Any  # the game's own state value, as its definition's setup made it
    setup_events: list[Event]
    steps: list[Step] = field(default_factory=list)
    final: Any = None


def table_replay(table: Table, actions: list[TableAction] | None = None) -> TableReplay:
    """Every action of the log applied in version order; raises ReplayMismatch if a
    version is missing or the end state differs from the stored one."""
    definition = table.definition
    game, events = table_start(table)
    out = TableReplay(table=table, start=game, setup_events=events)
    rows = actions if actions is not None else list(table.actions.order_by("version"))
    for row in rows:
        game, events = definition.apply(game, definition.parse_action(row.action))
        if definition.version(game) != row.version:
            raise ReplayMismatch(
                f"table {table.letter}: log row {row.version} replays to version {definition.version(game)}"
            )
        out.steps.append(Step(row.version, row.actor, row.action, events))
    if definition.to_dict(game) != table.state:
        raise ReplayMismatch(f"table {table.letter}: the action log does not replay to the stored state")
    out.final = game
    return out
