"""What a viewer may not know, re-dealt: the tests' proof that a view hides it.

`reshuffle_hidden(game, viewer, r)` returns another game that `viewer` (a seat, or None
for a public screen) cannot tell apart from `game`: everything the rules keep from it
is chosen afresh, everything it may know is kept. A view that is the same for both
games depends on nothing the viewer may not know (tests/games/conformance).

The re-dealt game is one the rules could have reached, so it may also be played on:
- other hands keep their sizes and take their cards from the pool of every card the
  viewer cannot place (other hands and the draw pile); the discards and the cards set
  aside were played face up and stay;
- in an open reaction window the same seats have answered; an answer the viewer may
  not see becomes a pass or one of that seat's new reaction cards, except a pass that
  was forced (the clock's) or that the open window itself proves: every seat before
  the first one still asked has passed, or the window would have closed;
- other seats' peeks, every description the viewer has not seen, the seed and the
  generator's state are drawn afresh.

Randomness is the caller's `random.Random` (the tests'), never the game's own.
"""

from __future__ import annotations

import random

from .cards import REACTION_IDS
from .state import Game


def reshuffle_hidden(game: Game, viewer: int | None, r: random.Random) -> Game:
    """A game `viewer` cannot tell from `game`, with everything hidden from it re-dealt."""
    g = game.clone()
    n = g.players
    others = [s for s in range(n) if s != viewer]

    pool = [c for s in others for c in game.hands[s]] + list(game.draw_pile)
    r.shuffle(pool)
    hands = list(g.hands)
    for s in others:
        k = len(game.hands[s])
        hands[s], pool = tuple(pool[:k]), pool[k:]
    g.hands = hands
    g.draw_pile = pool

    if g.pending is not None and g.pending.window is not None:
        w = g.pending.window
        waiting = w.waiting()
        first_asked = w.affected.index(waiting[0]) if waiting else len(w.affected)
        proven = set(w.affected[:first_asked]) | set(w.forced)
        for s in list(w.answers):
            if s == viewer or s in proven:
                continue
            blocks = [c for c in g.hands[s] if c in REACTION_IDS]
            w.answers[s] = r.choice(blocks) if blocks and r.random() < 0.5 else None

    every_gift = sorted(game.descriptions)
    g.peeks = tuple(
        game.peeks[s] if s == viewer else frozenset(r.sample(every_gift, r.randrange(len(every_gift) + 1)))
        for s in range(n)
    )
    known = game.open | (game.peeks[viewer] if viewer is not None else frozenset())
    g.descriptions = {
        gift: text if gift in known else f"re-dealt {r.getrandbits(64):016x}"
        for gift, text in game.descriptions.items()
    }
    g.seed = r.getrandbits(63)
    g.rng = r.getrandbits(64)
    return g
