"""The lobby's party-length estimate for any game the party host offers: each game's
table, precomputed by its simulator (`manage.py simulate --game NAME --estimates`)."""

from __future__ import annotations

from typing import Any

from .hook import simulator_of


def lobby_estimate(*, game: str, games: int, guests: int) -> dict[str, Any] | None:
    """Minutes for a party of `guests` playing `game` (`games` in a row at each table),
    or None where the game has no simulator or its simulator tabulated no such party."""
    simulator = simulator_of(game)
    if simulator is None:
        return None
    return simulator.lobby_estimate(guests=guests, games=games)
