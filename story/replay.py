"""Replay a table from its seed, setup and action log through the engine.

The table row holds the live state; the log holds every accepted action. Replaying the
log from the seed must land exactly on the stored state (the engine is deterministic):
that check is what lets the story claim to be exact.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.yankee import Event, Game, Gift, apply, new_game, parse_action
from tables.models import Table, TableAction


class ReplayMismatch(Exception):
    """The action log does not replay to the table's stored state."""


def table_setup(table: Table) -> dict[str, Any]:
    """new_game's keyword arguments from a table's stored setup."""
    s = table.setup
    return {
        "seed": table.seed,
        "gifts": [Gift(g["id"], g["description"], g["brought_by"]) for g in s["gifts"]],
        "vault": [Gift(v["id"], v["description"]) for v in s["vault"]],
        "gate": s["gate"],
    }


def table_start(table: Table) -> tuple[Game, list[Event]]:
    """The table as it was dealt (version 1), and the setup's events."""
    return new_game(**table_setup(table))


@dataclass
class Step:
    version: int
    actor: str
    action: dict[str, Any]
    events: list[Event]


@dataclass
class TableReplay:
    table: Table
    start: Game
    setup_events: list[Event]
    steps: list[Step] = field(default_factory=list)
    final: Game | None = None


def table_replay(table: Table, actions: list[TableAction] | None = None) -> TableReplay:
    """Every action of the log applied in version order; raises ReplayMismatch if a
    version is missing or the end state differs from the stored one."""
    game, events = table_start(table)
    out = TableReplay(table=table, start=game, setup_events=events)
    rows = actions if actions is not None else list(table.actions.order_by("version"))
    for row in rows:
        game, events = apply(game, parse_action(row.action))
        if game.version != row.version:
            raise ReplayMismatch(f"table {table.letter}: log row {row.version} replays to version {game.version}")
        out.steps.append(Step(row.version, row.actor, row.action, events))
    if game.to_dict() != table.state:
        raise ReplayMismatch(f"table {table.letter}: the action log does not replay to the stored state")
    out.final = game
    return out
