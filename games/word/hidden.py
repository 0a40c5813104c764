"""What a viewer may not know, chosen afresh: the proof that Word Heist's views keep
their secrets (tests/games/conformance).

Hidden from everybody: the generator (next rounds' Tableaus) and the order of the Bonus
Vault cards not dealt. Hidden from all but their owner until the reveal: each Heist word
(a word that fits the owner's clue tokens once those are down), the clue tokens until
everybody's are down, each Halt word until the reveal, each vote until the score.
"""

from __future__ import annotations

import random

from .legal import clue_choices, fits_clues, open_words, vote_choices
from .lexicon import Lexicon
from .state import Game, Phase


def reshuffle_hidden(g: Game, viewer: int | None, rng: random.Random, lexicon: Lexicon) -> Game:
    other = g.clone()
    rng.shuffle(other.vault_deck)
    other.rng = rng.getrandbits(64)
    pool = open_words(g, lexicon)
    for seat in range(g.players):
        if seat == viewer:
            continue
        if g.phase in (Phase.WORD, Phase.CLUES, Phase.HALT) and g.words.get(seat) is not None:
            shown = g.clues.get(seat, {}) if g.phase is Phase.HALT else {}
            fitting = [w for w in pool if fits_clues(w, shown)] if shown else list(pool)
            if fitting:
                word = rng.choice(fitting)
                other.words[seat] = word
                other.known[seat] = lexicon.knows(word)
                if g.phase is Phase.CLUES and g.clues.get(seat):
                    other.clues[seat] = dict(rng.choice(clue_choices(word)))
        if g.phase is Phase.HALT and g.halts.get(seat) is not None:
            guesses = [w for w in pool if w != other.words.get(seat)]
            other.halts[seat] = rng.choice(guesses) if guesses and rng.random() < 0.8 else None
        if g.phase is Phase.VOTE and seat in g.votes:
            choices: list[tuple[int, ...] | None] = [None, *vote_choices(g, seat)]
            other.votes[seat] = rng.choice(choices)
    return other


__all__ = ["reshuffle_hidden"]
