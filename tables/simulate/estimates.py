"""The lobby's party-length estimate for any game the party host offers: each game's
table, precomputed by its simulator (`manage.py simulate [--game royal] --estimates`)."""

from __future__ import annotations

from typing import Any

from .lobby import party_length_estimate
from .royal.lobby import royal_party_length_estimate


def lobby_estimate(*, game: str, games: int, guests: int) -> dict[str, Any] | None:
    """Minutes for a party of `guests` playing `game` (`games` in a row at each table),
    or None where no simulator tabulated it."""
    if game == "royal":
        return royal_party_length_estimate(guests=guests, games=games)
    if game == "yankee" and games == 1:
        return party_length_estimate(guests=guests)
    return None
