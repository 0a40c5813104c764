"""Each of the 20 Bonus Vault cards: a word that meets it and one that does not."""

from __future__ import annotations

import pytest

from games.word.vault import BY_CODE, CARDS, Heist

TABLEAU = ("I", "X", "L", "E", "S", "H", "T")  # I +1, X +2, T the last card
ROUND = ("LILIES", "SHELL", "THE", "HEIST")

# code -> (a word that meets it, one that does not), in a round whose valid words are ROUND
CASES = {
    "longest": ("LILIES", "SHELL"),
    "two_vowels": ("HEIST", "SHELL"),
    "six_letters": ("LILIES", "HEIST"),
    "four_letters": ("THE", "HEIST"),
    "shortest": ("THE", "SHELL"),
    "double": ("SHELL", "HEIST"),
    "thrice": ("SESSILE", "SHELL"),
    "no_repeat": ("HEIST", "SHELL"),
    "vowel_start": ("ISLE", "HEIST"),
    "vowel_end": ("THE", "HEIST"),
    "same_ends": ("TILT", "HEIST"),
    "more_vowels": ("AIDE", "HEIST"),
    "three_consonants": ("LIGHTS", "HEIST"),
    "alternate": ("TILES", "SHELL"),
    "both_showcase": ("EXIST", "HEIST"),
    "showcase_start": ("ISLE", "HEIST"),
    "last_card": ("HEIST", "SHELL"),
    "half_tableau": ("HEIST", "SHE"),
    "rare": ("EXIST", "HEIST"),
    "five_tokens": ("HEIST", "HEIST"),
}
TOKENS = {"five_tokens": ({"H": 1, "E": 1, "I": 1, "S": 1, "T": 1}, {"H": 1})}


def heist(word: str, tokens: dict[str, int] | None = None) -> Heist:
    return Heist(word=word, tokens=tokens or {"S": 1}, tableau=TABLEAU, valid_words=(*ROUND, word))


def test_twenty_cards_each_with_a_case() -> None:
    assert len(CARDS) == 20 and set(CASES) == set(BY_CODE)
    assert CARDS[0].text == "Your word is the longest (or tied for longest)"
    assert CARDS[1].text == "Your word contains at least 2 vowels"
    assert all(card.points > 0 for card in CARDS)


@pytest.mark.parametrize("code", sorted(CASES))
def test_a_card_is_met_by_one_word_and_not_another(code: str) -> None:
    card = BY_CODE[code]
    meets, misses = CASES[code]
    yes_tokens, no_tokens = TOKENS.get(code, (None, None))
    assert card.met(heist(meets, yes_tokens)), f"{meets} should meet {code}"
    assert not card.met(heist(misses, no_tokens)), f"{misses} should not meet {code}"
