"""Bots for the simulator and the conformance suite: a thrower with a success rate.

Their randomness is the caller's `random.Random`, never the global one. A thrower hits
the vault with probability `rate` (the simulator's parameter: how good the table is at
sliding a Blink), a Blink still in the vault at random (a slide aims at the vault, not
at one Blink), and touches the vault on the way back with probability `touch`. Under
the alternate rule it stops after a hit with probability `stop`. The captain's bot
confirms every record: the table saw the throw the thrower recorded.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .actions import Action, Confirm, EndTurn, Throw
from .state import Game, Phase


@dataclass(frozen=True, slots=True)
class Thrower:
    rate: float = 0.5
    touch: float = 0.05
    stop: float = 0.25

    def __post_init__(self) -> None:
        for name in ("rate", "touch", "stop"):
            p = getattr(self, name)
            if not 0.0 <= p <= 1.0:
                raise ValueError(f"{name} is a probability, not {p!r}")

    def action(self, g: Game, seat: int, r: random.Random) -> Action | None:
        """`seat`'s throw (or, under the alternate rule, its stop), None when it is not up."""
        if seat not in g.waiting():
            return None
        if g.alternate and g.thrown and r.random() < self.stop:
            return EndTurn(seat)
        hit = None
        if r.random() < self.rate:
            blinks = g.in_vault()
            hit = blinks[int(r.random() * len(blinks))]
        return Throw(seat, g.throws + 1, hit, r.random() < self.touch)


DEFAULT = Thrower()


def bot_action(g: Game, r: random.Random, seat: int | None = None, thrower: Thrower = DEFAULT) -> Action | None:
    """The thrower's record when `seat` is up (default: whoever is), the captain's
    confirmation of a recorded throw (`seat=None`), None when the game is over or `seat`
    has nothing to do."""
    if g.phase is Phase.OVER:
        return None
    if g.phase is Phase.CONFIRM:
        assert g.pending is not None
        return Confirm(g.pending.throw) if seat is None else None
    return thrower.action(g, g.turn if seat is None else seat, r)


__all__ = ["DEFAULT", "Thrower", "bot_action"]
