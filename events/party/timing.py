"""What finished parties' action logs say about the party clock: each table's log as its
game's simulator fits its pacing model to it (tables/simulate/hook.py `FitsPacing`).

Every accepted action is logged with its time (TableAction.created_at); a table's
dealing is its creation. Times go to the game as seconds from one origin for all
parties, so the gaps between them are the party's, whatever the game charges them to.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from events.models import Party
from tables.models import Table
from tables.replay import table_setup
from tables.simulate.hook import FitsPacing, simulator_of
from tables.simulate.played import PlayedTable


def party_clock_fit(*, game: str, party_ids: Iterable[int] | None = None) -> dict[str, Any]:
    """Fit `game`'s pacing model to every finished party of that game (or those in
    `party_ids`). LookupError when the game's simulator fits no pacing model, or no
    finished party has a table."""
    simulator = simulator_of(game)
    if not isinstance(simulator, FitsPacing):
        raise LookupError(f"the game {game!r} has no simulator that fits a pacing model")
    parties = Party.objects.filter(status=Party.Status.OVER, game=game)
    if party_ids is not None:
        parties = parties.filter(pk__in=list(party_ids))
    origin: datetime | None = None
    played: list[list[PlayedTable]] = []
    for party in parties.order_by("pk"):
        tables = []
        for table in Table.objects.filter(party=party).order_by("letter"):
            origin = origin or table.created_at
            rows = table.actions.order_by("version").values_list("created_at", "action")
            tables.append(
                PlayedTable(
                    setup=table_setup(table),
                    dealt=(table.created_at - origin).total_seconds(),
                    actions=tuple(((at - origin).total_seconds(), action) for at, action in rows),
                )
            )
        if tables:
            played.append(tables)
    if not played:
        raise LookupError("no finished party to learn from")
    return simulator.fit_pacing(played)
