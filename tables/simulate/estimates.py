"""The lobby's party-length estimate for any game the party host offers: each game's
table, precomputed by its simulator (`manage.py simulate --game NAME --estimates`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .hook import EstimatesWithOptions, simulator_of


def lobby_estimate(
    *, game: str, games: int, guests: int, options: Mapping[str, Any] | None = None
) -> dict[str, Any] | None:
    """Minutes for a party of `guests` playing `game` (`games` in a row at each table,
    with the host's choices of its rules `options`, Party.options), or None where the
    game has no simulator or its simulator tabulated no such party."""
    simulator = simulator_of(game)
    if simulator is None:
        return None
    if isinstance(simulator, EstimatesWithOptions):
        return simulator.lobby_estimate_with(guests=guests, games=games, options=options or {})
    return simulator.lobby_estimate(guests=guests, games=games)
