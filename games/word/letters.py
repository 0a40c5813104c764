"""The 26 letter cards, the Tableau dealt from them, and how a word uses the cards.

The printed box: 13 common consonants, 8 rare consonants, 5 vowels (docs/RULES.md, "Word
Heist": which letters are which). The Q card is "Q(u)": a U written straight after a Q
rides on the Q card, so it needs no U card and a clue on the Q card counts the Qs only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

COMMON = ("B", "C", "D", "F", "G", "H", "L", "M", "N", "P", "R", "S", "T")
RARE = ("J", "K", "Q", "V", "W", "X", "Y", "Z")
VOWELS = ("A", "E", "I", "O", "U")
CARDS = COMMON + RARE + VOWELS
QU = "Q"

# Setup step 2: (common, rare, vowels) dealt by the number of players.
DECK_BY_PLAYERS: dict[int, tuple[int, int, int]] = {
    2: (3, 1, 2),
    3: (4, 1, 2),
    4: (4, 1, 2),
    5: (4, 2, 2),
    6: (4, 2, 2),
}
# The first two cards of the Tableau lie under the +1 and +2 Showcase indicators.
SHOWCASE_BONUS = (1, 2)


def card_counts(word: str) -> Counter[str]:
    """How many times the word uses each letter card: a U straight after a Q is the Q(u)
    card's, never the U card's (so SQUISH uses S twice, Q, I, H once and no U)."""
    counts: Counter[str] = Counter()
    for i, letter in enumerate(word):
        if letter == "U" and i > 0 and word[i - 1] == QU:
            continue
        counts[letter] += 1
    return counts


def cards_of(word: str) -> frozenset[str]:
    """The letter cards the word needs on the Tableau (each may be used again and again)."""
    return frozenset(card_counts(word))


def makeable(word: str, tableau: Iterable[str]) -> bool:
    """Whether the word can be spelled with the Tableau's cards alone."""
    return cards_of(word) <= frozenset(tableau)


def is_vowel(letter: str) -> bool:
    return letter in VOWELS


def showcase_of(tableau: Sequence[str]) -> tuple[str, str]:
    """The two Showcase Letters: the cards under +1 and +2."""
    return tableau[0], tableau[1]


__all__ = [
    "CARDS",
    "COMMON",
    "DECK_BY_PLAYERS",
    "QU",
    "RARE",
    "SHOWCASE_BONUS",
    "VOWELS",
    "card_counts",
    "cards_of",
    "is_vowel",
    "makeable",
    "showcase_of",
]
