"""Bots: a random legal action, and simple strategies a simulator can pit against each other.

Their randomness is the caller's `random.Random`, never the global one and never the
game's own generator, so a bot never changes what the game turns up.

A strategy answers one question, "press on?", for one seat from what that seat may see
(the public view's facts: its satchel, the rooms, the dangers seen); `strategy_action`
turns the answer into the action.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from .actions import Action, Decide, OpenGate
from .state import Game, Phase

Strategy = Callable[[Game, int], bool]


def bot_action(g: Game, r: random.Random, seat: int | None = None) -> Action | None:
    """A random legal action for `seat` (default: a seat the game waits for, at random),
    the host's OpenGate at the gate, None when the game is over or `seat` has nothing to do."""
    if g.phase is Phase.GATE:
        return OpenGate() if seat is None else None
    waiting = g.waiting()
    if seat is None:
        if not waiting:
            return None
        seat = waiting[int(r.random() * len(waiting))]
    elif seat not in waiting:
        return None
    return Decide(seat, r.random() < 0.5)


@dataclass(frozen=True, slots=True)
class SatchelThreshold:
    """Get out once the satchel plus an equal share of the rooms' leftovers reaches
    `jewels` (what getting out alone would bank this step)."""

    jewels: int

    def __call__(self, g: Game, seat: int) -> bool:
        take = g.satchels[seat] + sum(r.jewels for r in g.rooms) // max(1, len(g.inside))
        return take < self.jewels


@dataclass(frozen=True, slots=True)
class DangerLimit:
    """Get out once `dangers` different danger ranks are showing this heist: each one
    seen is a card whose twin ends the heist."""

    dangers: int

    def __call__(self, g: Game, seat: int) -> bool:
        return len(g.dangers) < self.dangers


@dataclass(frozen=True, slots=True)
class Coin:
    """Press on with probability `p`, whatever the table shows (the random bot's odds)."""

    p: float
    rng: random.Random

    def __call__(self, g: Game, seat: int) -> bool:
        return self.rng.random() < self.p


def strategy_action(g: Game, seat: int, strategy: Strategy) -> Action | None:
    """`seat`'s Decide by `strategy`, or None when the game is not waiting for `seat`."""
    if seat not in g.waiting():
        return None
    return Decide(seat, bool(strategy(g, seat)))


__all__ = ["Coin", "DangerLimit", "SatchelThreshold", "Strategy", "bot_action", "strategy_action"]
