"""Bots: a legal action by a simple policy, from the caller's `random.Random` (never the
game's own generator, so a bot never changes what the game deals).

A bot writes one of the dictionary's commonest words the Tableau makes, drops 1 to 5
clue tokens, halts a word that fits another seat's clues when it has one, and votes for
its own word when the dictionary lacks it.
"""

from __future__ import annotations

import random

from .actions import Action, Clue, Halt, OpenGate, Vote
from .legal import fits_clues, legal_actions
from .lexicon import Lexicon
from .state import Game, Phase


def bot_action(g: Game, r: random.Random, seat: int | None, lexicon: Lexicon) -> Action | None:
    """A legal action for `seat` (default: a waiting seat at random), the host's OpenGate
    at the gate, None when the game is over or `seat` has nothing to do."""
    if g.phase is Phase.GATE:
        return OpenGate() if seat is None else None
    waiting = g.waiting()
    if seat is None:
        if not waiting:
            return None
        seat = waiting[int(r.random() * len(waiting))]
    elif seat not in waiting:
        return None
    listed = legal_actions(g, seat, lexicon)
    if not listed:
        return None
    if g.phase is Phase.HALT:
        shown = [t for s, t in g.clues.items() if s != seat and t]
        fitting = [
            a
            for a in listed
            if isinstance(a, Halt) and a.word is not None and any(fits_clues(a.word, t) for t in shown)
        ]
        if fitting and r.random() < 0.9:
            return r.choice(fitting)
        return Halt(seat, None)
    if g.phase is Phase.CLUES:
        modest = [a for a in listed if isinstance(a, Clue) and sum(n for _, n in a.tokens) <= 3]
        return r.choice(modest or listed)
    if g.phase is Phase.VOTE:
        claim = (seat,) if seat in g.clued() and not g.known[seat] else ()
        return Vote(seat, claim)
    return r.choice(listed)


__all__ = ["bot_action"]
