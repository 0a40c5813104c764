"""What a viewer may not know, chosen afresh: the proof that Royal Heist's views keep
their secrets (tests/games/conformance: each view must be the same for both games).

Hidden from everybody: the order of the run deck and of the side stack (their contents
are public: what is left once the turned-up, drawn and retired cards are out) and the
generator. Hidden from all but its owner: a pending decision, and whether it was the
clock's stand-in (that, too, shows only at the reveal).
"""

from __future__ import annotations

import random

from .state import Game


def reshuffle_hidden(g: Game, viewer: int | None, rng: random.Random) -> Game:
    other = g.clone()
    rng.shuffle(other.deck)
    rng.shuffle(other.side)
    other.rng = rng.getrandbits(64)
    timed_out = []
    for seat in other.decisions:
        if seat == viewer:
            if seat in g.timed_out:
                timed_out.append(seat)
            continue
        press_on = rng.random() < 0.5
        other.decisions[seat] = press_on
        if not press_on and rng.random() < 0.5:  # a stand-in always gets out
            timed_out.append(seat)
    other.timed_out = tuple(s for s in g.timed_out if s in timed_out) + tuple(
        s for s in timed_out if s not in g.timed_out
    )
    return other
