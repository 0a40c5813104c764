"""The party length the host sees in the lobby, before seating: a lookup in the table
precomputed by the simulator (lobby_estimates.py), never a simulation per request."""

from __future__ import annotations

from typing import Any

from tables.seating import MAX_GUESTS, table_sizes

from .lobby_estimates import MINUTES


def party_length_estimate(*, guests: int) -> dict[str, Any] | None:
    """{"guests", "tables", "low", "high"} in minutes for `guests` seated by the scaling
    rule (low/high: 10th and 90th percentiles of simulated parties); None below 2."""
    if guests < 2:
        return None
    n = min(guests, MAX_GUESTS)
    low, high = MINUTES[n]
    return {"guests": n, "tables": len(table_sizes(n)), "low": low, "high": high}
