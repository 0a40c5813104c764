"""Royal Heist's party length for the host's lobby: a lookup in the table the simulator
precomputed (lobby_estimates.py), never a simulation per request."""

from __future__ import annotations

from typing import Any

from .lobby_estimates import GAMES, MINUTES
from .pacing import MAX_GUESTS, table_sizes


def royal_party_length_estimate(*, guests: int) -> dict[str, Any] | None:
    """{"guests", "tables", "games", "low", "high"}: minutes for a party of `guests`
    (at most 100) at ceil(n / 8) tables playing GAMES games of five heists (low/high:
    the 10th and 90th percentiles of simulated parties); None below 3 guests."""
    if guests < 3:
        return None
    n = min(guests, MAX_GUESTS)
    low, high = MINUTES[n]
    return {"guests": n, "tables": len(table_sizes(n)), "games": GAMES, "low": low, "high": high}
