"""Invariants over whole games played by bots (hypothesis chooses the table, the seed and
how often a clock runs out): the input game is never changed, a state survives storage,
scores only grow by what the rounds scored, the Tableau keeps its letters, no Heist word
of a round was on the Word Gallery before it (nor its root), the clue tokens follow the
exact-count rule, and a halted or matched word never scores for its writer."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.definition import Setup
from games.word.actions import StandIn
from games.word.definition import WordDefinition
from games.word.letters import card_counts
from games.word.party.dictionary import lexicon
from games.word.state import Phase

DEFINITION = WordDefinition(lexicons=lexicon)


@settings(max_examples=40, deadline=None, database=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    quiet=st.sampled_from((0.0, 0.1, 0.4)),
    language=st.sampled_from(("en", "es", "de")),
    gate=st.booleans(),
)
def test_invariants(players: int, seed: int, quiet: float, language: str, gate: bool) -> None:
    g, _ = DEFINITION.setup(Setup(players=players, seed=seed, gate=gate, options={"language": language}))
    r = random.Random(seed)
    cards = sorted(g.cards)
    while not DEFINITION.is_over(g):
        if DEFINITION.at_gate(g):
            action = DEFINITION.gate_opened(g)
        elif r.random() < quiet:
            action = StandIn(g.waiting()[0])
        else:
            action = DEFINITION.bot_action(g, r)
        assert action is not None, "the game waits, yet the bot has nothing to do"
        before = DEFINITION.to_dict(g)
        gallery_before = {str(e["word"]) for e in g.gallery}
        after, events = DEFINITION.apply(g, action)
        assert DEFINITION.to_dict(g) == before, "apply changed its input"
        assert DEFINITION.to_dict(DEFINITION.from_dict(DEFINITION.to_dict(after))) == DEFINITION.to_dict(after)
        assert sorted(after.tableau) == cards
        for e in events:
            if e.type == "round_scored":
                lines = e.data["seats"]
                assert [a - b for a, b in zip(after.scores, g.scores, strict=True)] == [x["points"] for x in lines]
                for x in lines:
                    if x["matched"] or x["halted_by"] or not x["valid"]:
                        assert x["heist"] == 0
                    if x["valid"]:
                        assert x["word"] not in gallery_before
                        roots = {DEFINITION.lexicon(language).root(w) for w in gallery_before}
                        assert DEFINITION.lexicon(language).root(x["word"]) not in roots
        if g.phase is Phase.CLUES:
            for seat, tokens in after.clues.items():
                word = after.words[seat]
                if tokens and word is not None:
                    assert 1 <= sum(tokens.values()) <= 5
                    assert all(card_counts(word)[c] == n for c, n in tokens.items())
        g = after
    assert g.round == g.rounds
