"""Blinks Heist's party length for the host's lobby: a lookup in the table the simulator
precomputed (lobby_estimates.py), never a simulation per request.

A table's length is its vault's: the table keeps each table size's simulated minutes
(their mean and spread) per vault size and rule, at one hit in two. The party ends with
its slowest table, so its 10th and 90th percentiles are those of the longest of its
tables (each table's minutes taken as normal: the sum of many throws)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from games.blinks import MAX_PLAYERS, MIN_PLAYERS, VAULT
from tables.seating import MAX_GUESTS, table_sizes

from .lobby_estimates import MINUTES

LOW, HIGH = 0.1, 0.9  # the estimate's percentiles


def _normal(x: float, mean: float, sd: float) -> float:
    return 0.5 * (1 + math.erf((x - mean) / (sd * math.sqrt(2)))) if sd > 0 else float(x >= mean)


def longest_quantile(tables: Sequence[tuple[float, float]], p: float) -> float:
    """The `p` quantile of the longest of independent tables, each (mean, sd) minutes:
    where the product of their distributions reaches `p` (bisection)."""
    lo = min(m - 6 * s for m, s in tables)
    hi = max(m + 6 * s for m, s in tables)
    for _ in range(60):
        mid = (lo + hi) / 2
        if math.prod(_normal(mid, m, s) for m, s in tables) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def blinks_party_length_estimate(*, guests: int, games: int = 1, options: Mapping[str, Any]) -> dict[str, Any] | None:
    """{"guests", "tables", "games", "low", "high"}: minutes for a party of `guests` at
    balanced tables of at most MAX_PLAYERS with the host's vault and rule (`options`,
    Party.options; their defaults when unset); None below MIN_PLAYERS guests, for more
    than one game (a table empties one vault) or for a vault the table has no row for."""
    if games != 1 or guests < MIN_PLAYERS:
        return None
    vault, alternate = options.get("vault", VAULT), bool(options.get("alternate", False))
    guests = min(guests, MAX_GUESTS)
    sizes = table_sizes(guests, table_max=MAX_PLAYERS, min_players=MIN_PLAYERS)
    rows = [MINUTES.get((alternate, vault, n)) for n in sizes]
    if any(row is None for row in rows):
        return None
    tables = [row for row in rows if row is not None]
    low, high = (round(longest_quantile(tables, p)) for p in (LOW, HIGH))
    return {"guests": guests, "tables": len(sizes), "games": 1, "low": low, "high": max(high, low)}


__all__ = ["blinks_party_length_estimate", "longest_quantile"]
