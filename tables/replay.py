"""A table's play, replayed through its game's definition from the stored setup and
action log: what the engine emitted on the way, which the stored state alone no longer
holds (a table that plays several games in a row may keep only its running totals,
not each game's scores).

The engine is deterministic: replaying the log must land on the stored state, and a
replay that does not is refused (ReplayMismatch) rather than told as if it were exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.definition import Setup
from games.event import Event
from tables.models import Table, TableAction


class ReplayMismatch(Exception):
    """The action log does not replay to the table's stored state."""


def table_setup(table: Table) -> Setup:
    """The Setup a table was dealt with, from its stored row (events/party/services.py
    party_seat writes it: a gift swap's gifts and vault, another game's players, gate,
    games and options). A table stored before a party played several games played one."""
    s = table.setup
    if "gifts" in s:
        options: dict[str, Any] = {"gifts": s["gifts"], "vault": s["vault"]}
        return Setup(players=len(s["gifts"]), seed=table.seed, gate=bool(s["gate"]), options=options)
    return Setup(
        players=int(s["players"]),
        seed=table.seed,
        gate=bool(s["gate"]),
        games=int(s.get("games", 1)),
        options=dict(s.get("options", {})),
    )


@dataclass(frozen=True, slots=True)
class Replayed:
    """A table's game as replayed: the final state, the setup's events, and each
    action's (version, actor, events) in order."""

    final: Any
    setup_events: list[Event]
    steps: list[tuple[int, str, list[Event]]]

    def events(self) -> list[Event]:
        """Every event, the setup's first."""
        return [*self.setup_events, *(e for _, _, events in self.steps for e in events)]


def table_replayed(table: Table, actions: Sequence[TableAction] | None = None) -> Replayed:
    """Every logged action applied in version order through the table's definition;
    raises ReplayMismatch if a version is missing or the end differs from the stored state."""
    definition = table.definition
    game, setup_events = definition.setup(table_setup(table))
    rows = actions if actions is not None else list(table.actions.order_by("version"))
    steps = []
    for row in rows:
        game, events = definition.apply(game, definition.parse_action(row.action))
        if definition.version(game) != row.version:
            raise ReplayMismatch(f"table {table.letter}: log row {row.version} replays to {definition.version(game)}")
        steps.append((row.version, row.actor, events))
    if definition.to_dict(game) != table.state:
        raise ReplayMismatch(f"table {table.letter}: the action log does not replay to the stored state")
    return Replayed(game, setup_events, steps)
