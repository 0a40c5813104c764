"""The four teams: their colours, the host's balanced draw, and their totals across tables.

A party of Blinks Heist competes as four teams whose members sit at every table: a
team is a colour (0 to 3, the thief Blink's colour), the same at every table. The host
sets each guest's team or draws them balanced (`balanced_teams`); each table's setup
carries its seats' teams, and the party adds every table's claims up by team
(`team_totals`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from games.marks import gettext_noop

# The thief Blinks' four team colours, by team number (the rulebook: "four team colors").
COLOURS = ("red", "blue", "green", "yellow")
TEAMS = len(COLOURS)
COLOUR_NAMES = {
    "red": gettext_noop("Red"),
    "blue": gettext_noop("Blue"),
    "green": gettext_noop("Green"),
    "yellow": gettext_noop("Yellow"),
}


def balanced_teams(table_sizes: Sequence[int], rng: random.Random) -> list[list[int]]:
    """Each table's seats' teams, drawn so that the four teams differ by at most one
    member over the party and at every table alike.

    The party's seats are dealt the colours in turn, table after table, from a random
    colour order and a random start: any run of consecutive seats takes each colour at
    most once more than another, so every table is balanced, and so is the whole party.
    Around a table the colours alternate, so no team throws twice in a row while another
    waits (for tables of 4 or more). Who gets which colour is the seating's draw: a seat's
    team follows from its place."""
    if any(type(n) is not int or n < 0 for n in table_sizes):
        raise ValueError(f"table sizes are counts of seats, not {list(table_sizes)!r}")
    order = list(range(TEAMS))
    rng.shuffle(order)
    at = rng.randrange(TEAMS)
    out: list[list[int]] = []
    for size in table_sizes:
        out.append([order[(at + i) % TEAMS] for i in range(size)])
        at = (at + size) % TEAMS
    return out


def team_counts(teams: Iterable[int]) -> list[int]:
    """How many seats each team has."""
    counts = [0] * TEAMS
    for team in teams:
        counts[team] += 1
    return counts


def team_totals(claims_by_table: Iterable[Sequence[int]], teams_by_table: Iterable[Sequence[int]]) -> list[int]:
    """Each team's claimed Blinks over every table: `claims_by_table[t][seat]` Blinks
    claimed by the seat of team `teams_by_table[t][seat]`."""
    totals = [0] * TEAMS
    for claims, teams in zip(claims_by_table, teams_by_table, strict=True):
        for claimed, team in zip(claims, teams, strict=True):
            totals[team] += claimed
    return totals


def leaders(totals: Sequence[int]) -> list[int]:
    """The teams with the most claimed Blinks (ties: all of them); none before a claim."""
    best = max(totals, default=0)
    return [team for team, total in enumerate(totals) if total == best and best > 0]


__all__ = ["COLOURS", "COLOUR_NAMES", "TEAMS", "balanced_teams", "leaders", "team_counts", "team_totals"]
