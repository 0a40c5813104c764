"""Word Heist's party length for the host's lobby: a lookup in the table the simulator
precomputed (lobby_estimates.py), never a simulation per request."""

from __future__ import annotations

from typing import Any

from tables.seating import table_count

from .lobby_estimates import MINUTES, TABLE_MAX


def word_party_length_estimate(*, guests: int, games: int = 1) -> dict[str, Any] | None:
    """{"guests", "tables", "games", "low", "high"}: minutes for a party of `guests` (at
    most 100) at balanced tables of at most TABLE_MAX playing one game of three rounds
    (low/high: the 10th and 90th percentiles of simulated parties); None below 2 guests
    or for more than one game (a table plays one)."""
    if games != 1 or guests < min(MINUTES):
        return None
    n = min(guests, max(MINUTES))
    low, high = MINUTES[n]
    return {"guests": n, "tables": table_count(n, TABLE_MAX), "games": 1, "low": low, "high": high}
