"""Royal Heist at the rehearsal: what a guest decides from their seat view, as a person
at the table does (games/royal/static/royal/phone.js shows the same view), and where a table is."""

from __future__ import annotations

import random
from typing import Any


def press_on(view: dict[str, Any], rng: random.Random) -> bool:
    """Press on or get out, from what the seat's screen shows: bold while the satchel is
    small and few danger ranks are out (a second card of one of them catches everybody
    inside), more careful as both grow; never quite certain either way."""
    satchel: int = view["seats"][view["you"]]["satchel"]
    dangers = len(view["dangers"])
    risk = 0.16 * dangers + 0.012 * satchel
    return rng.random() < min(0.95, max(0.05, 0.92 - risk))


def where(game: str, view: dict[str, Any]) -> str:
    """A table's progress in a few characters (the run's log, a fault's `tables_at`):
    Yankee Heist's round and phase, Royal Heist's heist and phase."""
    if game == "royal":
        return f"h{view['heist']}/{view['phase']}"
    return f"r{view['round']}/{view['phase']}"


def stage(game: str, view: dict[str, Any]) -> int:
    """How far a table is: Yankee Heist's round, Royal Heist's heist."""
    reached: int = view["heist"] if game == "royal" else view["round"]
    return reached
