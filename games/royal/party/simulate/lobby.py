"""Royal Heist's party length for the host's lobby: a lookup in the tables the simulator
precomputed (lobby_estimates*.py, one per number of games in a row), never a
simulation per request."""

from __future__ import annotations

from typing import Any

from . import lobby_estimates, lobby_estimates_1, lobby_estimates_2, lobby_estimates_4
from .lobby_estimates import GAMES
from .pacing import MAX_GUESTS, table_sizes

# games a party's tables play in a row -> guests -> (low, high) minutes
MINUTES_BY_GAMES: dict[int, dict[int, tuple[int, int]]] = {
    m.GAMES: m.MINUTES for m in (lobby_estimates_1, lobby_estimates_2, lobby_estimates, lobby_estimates_4)
}


def royal_party_length_estimate(*, guests: int, games: int = GAMES) -> dict[str, Any] | None:
    """{"guests", "tables", "games", "low", "high"}: minutes for a party of `guests`
    (at most 100) at ceil(n / 8) tables playing `games` games of five heists in a row
    (low/high: the 10th and 90th percentiles of simulated parties); None below 3 guests
    or for a number of games the simulator did not tabulate."""
    minutes = MINUTES_BY_GAMES.get(games)
    if guests < 3 or minutes is None:
        return None
    n = min(guests, MAX_GUESTS)
    low, high = minutes[n]
    return {"guests": n, "tables": len(table_sizes(n)), "games": games, "low": low, "high": high}
