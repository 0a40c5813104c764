"""A `WordList` keeps what every server process holds for each language small (the
server reads every dictionary at start, games/registry.py `warm`), and `playable` lists
exactly the words the Tableau's cards make, most common first."""

from __future__ import annotations

import random
import tracemalloc

from games.word.letters import CARDS, cards_of
from games.word.lexicon import WordList


def _words(n: int) -> list[str]:
    r = random.Random(3)
    return ["".join(r.choice(CARDS) for _ in range(r.randint(3, 9))) for _ in range(n)]


def test_playable_lists_exactly_the_words_the_tableau_makes_in_order() -> None:
    words = [*_words(3000), "QUIT", "SQUISH", "NIÑO"]  # Q(u) rides on Q; Ñ is no card
    lexicon = WordList("en", words, str.lower)
    r = random.Random(5)
    tableaus = [r.sample(CARDS, r.randint(4, 9)) for _ in range(150)] + [["Q", "I", "T"], ["S", "Q", "I", "H"]]
    for tableau in tableaus:
        expected = [w for w in dict.fromkeys(words) if cards_of(w) <= frozenset(tableau)]
        assert list(lexicon.playable(tableau)) == expected
    assert "QUIT" in lexicon.playable(["Q", "I", "T"]) and "SQUISH" in lexicon.playable(["S", "Q", "I", "H"])
    assert "NIÑO" not in lexicon.playable(CARDS)


def test_a_word_list_holds_its_words_in_a_few_hundred_bytes_each() -> None:
    words = _words(20_000)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        lexicon = WordList("en", words, str.lower)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(lexicon) == len(set(words))
    # the words themselves (~55 bytes), the set of them and an int of cards each; a
    # frozenset of cards per word alone was ~600 bytes
    assert held / len(words) < 300, held / len(words)
