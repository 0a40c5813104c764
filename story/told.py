"""The story of a party whose game tells its tables one by one (a GameStory may build
its `tell` on this, story/game.py): each table's play as the game tells it from the
events of its replay (the stored actions through the table's definition,
tables/replay.py), with the host's names on the seats and the party's result. Nothing
here knows a game's rules.

A seat a substitute took (a hand-over, a late arrival seated for a leaver) is named by
whoever played it when each thing happened: the hand-over records the table's version
at the change (SeatHandOver.table_version), and the game's telling names each entry's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from events.models import Party, SeatHandOver
from events.party.history import party_handovers
from events.party.selectors import party_result
from games.event import Event
from games.registry import game_named
from tables.models import Table, TableAction
from tables.replay import table_replayed


class _Seats:
    """Who played each seat of one table, version by version."""

    def __init__(self, table: Table, handovers: list[SeatHandOver]) -> None:
        self.changes: dict[int, list[tuple[int, str]]] = {}
        first: dict[int, str] = {}
        for h in handovers:
            if h.table_id != table.pk:
                continue
            first.setdefault(h.seat, h.leaving_name)
            self.changes.setdefault(h.seat, []).append((h.table_version or 0, h.claimed_by))
        # the guest who sat down: the first leaver's name, or the roster's
        self.sat_down = [first.get(seat, str(entry["name"])) for seat, entry in enumerate(table.roster)]

    def at(self, seat: int, version: int | None = None) -> str:
        """Who played `seat` when the action producing `version` was taken (None: who sat
        down there). A substitute who took the seat at version v plays v + 1 onwards."""
        name = self.sat_down[seat]
        if version is None:
            return name
        for taken_at, by in self.changes.get(seat, ()):
            if taken_at < version:
                name = by
        return name

    def played_by(self, seat: int) -> list[str]:
        return [self.sat_down[seat], *(by for _, by in self.changes.get(seat, ()))]


def _named(value: Any, seats: _Seats) -> Any:
    """The game's telling with a `name` beside every entry that names a `seat`."""
    if isinstance(value, list):
        return [_named(v, seats) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: _named(v, seats) for k, v in value.items()}
    if isinstance(out.get("seat"), int):
        out["name"] = seats.at(out["seat"], out.get("version"))
    return out


# A table's play told from the events its replay emitted, seats by number; every entry
# naming a `seat` carries the `version` of the action it happened in.
TableTelling = Callable[[Sequence[Event]], dict[str, Any]]


def tables_told(party: Party, tell_table: TableTelling) -> dict[str, Any]:
    """The story of a finished party, each table told by `tell_table` and every seat
    its telling names given the name of whoever played it then."""
    definition = game_named(party.game)
    tables = list(party.tables.order_by("letter"))
    actions: dict[int, list[TableAction]] = {t.pk: [] for t in tables}
    for row in TableAction.objects.filter(table__party=party).order_by("table_id", "version"):
        actions[row.table_id].append(row)
    handovers = party_handovers(party)
    told = []
    for table in tables:
        seats = _Seats(table, handovers)
        telling = tell_table(table_replayed(table, actions[table.pk]).events())
        told.append(
            {
                "table": table.letter,
                "seats": [
                    {"seat": s, "name": seats.at(s), "played_by": seats.played_by(s)} for s in range(len(table.roster))
                ],
                **_named(telling, seats),
            }
        )
    return {
        "party": {"code": party.code, "name": party.name, "game": definition.title},
        "tables": told,
        "result": party_result(party),
    }


class TablesStory:
    """A game's story (story/game.py `GameStory`) that is its tables told one by one by
    `tell_table` in its own `template`, and nothing more: no page context, no picture.
    A game that tells more writes its own."""

    def __init__(self, template: str, tell_table: TableTelling) -> None:
        self.template = template
        self._tell_table = tell_table

    def tell(self, party: Party) -> dict[str, Any]:
        return tables_told(party, self._tell_table)

    def page_context(self, story: dict[str, Any], *, screen: bool) -> dict[str, Any]:
        return {}

    def picture(self, story: dict[str, Any], *, table: str | None = None) -> str | None:
        return None
