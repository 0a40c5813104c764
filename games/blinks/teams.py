"""The four teams: their colours, the host's balanced draw, and their totals across tables.

A party of Blinks Heist competes as four teams whose members sit at every table: a
team is a colour (0 to 3, the thief Blink's colour), the same at every table. The host
sets some guests' teams by hand and draws the rest balanced (`teams_around`), or
draws them all (`balanced_teams`); each table's setup
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


def teams_around(fixed: Sequence[Sequence[int | None]], rng: random.Random) -> list[list[int]]:
    """Each table's seats' teams when the host put some guests in a team by hand
    (`fixed[t][seat]`, None: to draw): those keep theirs, and the drawn seats even the
    four teams out over the party as far as the hand-set ones allow, then at each table.

    The party's drawn seats go to the teams with the fewest members first (ties in a
    random order), then each table's drawn seats take, of the teams still owed seats,
    the one its table has fewest of (ties: the team owed most, then the random order).
    With nobody set by hand this is the balanced draw (`balanced_teams`)."""
    for table in fixed:
        for team in table:
            if team is not None and (type(team) is not int or not 0 <= team < TEAMS):
                raise ValueError(f"a team is 0 to {TEAMS - 1} or None (drawn), not {team!r}")
    if all(team is None for table in fixed for team in table):
        return balanced_teams([len(table) for table in fixed], rng)
    order = list(range(TEAMS))
    rng.shuffle(order)
    rank = {team: i for i, team in enumerate(order)}
    counts = team_counts(team for table in fixed for team in table if team is not None)
    owed = [0] * TEAMS
    for _ in range(sum(team is None for table in fixed for team in table)):
        owed[min(order, key=lambda t: counts[t] + owed[t])] += 1
    out: list[list[int]] = []
    for table in fixed:
        here = team_counts(team for team in table if team is not None)
        seats: list[int] = []
        for team in table:
            if team is None:
                team = min((t for t in order if owed[t]), key=lambda t: (here[t], -owed[t], rank[t]))
                owed[team] -= 1
                here[team] += 1
            seats.append(team)
        out.append(seats)
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


__all__ = [
    "COLOURS",
    "COLOUR_NAMES",
    "TEAMS",
    "balanced_teams",
    "leaders",
    "team_counts",
    "team_totals",
    "teams_around",
]
