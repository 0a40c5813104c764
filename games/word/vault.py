"""The 20 Bonus Vault cards: each a condition the engine checks on a scored word.

The rulebook prints two ("the longest (or tied for longest)", "at least 2 vowels"); the
other 18 are ours, in the same spirit: each reads only the word, its clue tokens, the
Tableau and this round's valid Heist words (docs/RULES.md, "Word Heist", "Bonus Vault
cards"). A word is read as spelled (SQUISH has the vowels U and I) except where a card
names letter cards or the Tableau (there the U of QU is the Q(u) card's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from games.marks import gettext_noop  # the cards' texts are translated where shown

from .letters import RARE, card_counts, cards_of, is_vowel, showcase_of


@dataclass(frozen=True, slots=True)
class Heist:
    """What a Bonus Vault card may read of one scored Heist word."""

    word: str
    tokens: Mapping[str, int]  # letter card -> clue tokens on it
    tableau: Sequence[str]
    valid_words: Sequence[str]  # every valid Heist word of the round, this one included


@dataclass(frozen=True, slots=True)
class VaultCard:
    code: str
    text: str  # marked for translation; the screens say it with gettext
    points: int
    met: Callable[[Heist], bool]


def _vowels(word: str) -> int:
    return sum(1 for c in word if is_vowel(c))


def _longest(h: Heist) -> bool:
    return len(h.word) == max(len(w) for w in h.valid_words)


def _shortest(h: Heist) -> bool:
    return len(h.word) == min(len(w) for w in h.valid_words)


def _double(h: Heist) -> bool:
    return any(a == b for a, b in zip(h.word, h.word[1:], strict=False))


def _alternate(h: Heist) -> bool:
    return all(is_vowel(a) != is_vowel(b) for a, b in zip(h.word, h.word[1:], strict=False))


def _three_consonants(h: Heist) -> bool:
    run = 0
    for c in h.word:
        run = 0 if is_vowel(c) else run + 1
        if run >= 3:
            return True
    return False


def _half_tableau(h: Heist) -> bool:
    return 2 * len(cards_of(h.word)) >= len(h.tableau)


CARDS: tuple[VaultCard, ...] = (
    # the two the rulebook prints
    VaultCard("longest", gettext_noop("Your word is the longest (or tied for longest)"), 2, _longest),
    VaultCard("two_vowels", gettext_noop("Your word contains at least 2 vowels"), 1, lambda h: _vowels(h.word) >= 2),
    # ours
    VaultCard("six_letters", gettext_noop("Your word has at least 6 letters"), 2, lambda h: len(h.word) >= 6),
    VaultCard("four_letters", gettext_noop("Your word has at most 4 letters"), 1, lambda h: len(h.word) <= 4),
    VaultCard("shortest", gettext_noop("Your word is the shortest (or tied for shortest)"), 1, _shortest),
    VaultCard("double", gettext_noop("Your word has the same letter twice in a row"), 2, _double),
    VaultCard(
        "thrice",
        gettext_noop("Your word uses one letter at least 3 times"),
        3,
        lambda h: max(card_counts(h.word).values()) >= 3,
    ),
    VaultCard(
        "no_repeat", gettext_noop("No letter appears twice in your word"), 1, lambda h: len(set(h.word)) == len(h.word)
    ),
    VaultCard("vowel_start", gettext_noop("Your word starts with a vowel"), 1, lambda h: is_vowel(h.word[0])),
    VaultCard("vowel_end", gettext_noop("Your word ends with a vowel"), 1, lambda h: is_vowel(h.word[-1])),
    VaultCard(
        "same_ends",
        gettext_noop("Your word starts and ends with the same letter"),
        2,
        lambda h: h.word[0] == h.word[-1],
    ),
    VaultCard(
        "more_vowels",
        gettext_noop("Your word has more vowels than consonants"),
        2,
        lambda h: 2 * _vowels(h.word) > len(h.word),
    ),
    VaultCard("three_consonants", gettext_noop("Your word has 3 consonants in a row"), 2, _three_consonants),
    VaultCard("alternate", gettext_noop("Vowels and consonants alternate all through your word"), 2, _alternate),
    VaultCard(
        "both_showcase",
        gettext_noop("Your word uses both Showcase Letters"),
        2,
        lambda h: set(showcase_of(h.tableau)) <= cards_of(h.word),
    ),
    VaultCard(
        "showcase_start",
        gettext_noop("Your word starts with a Showcase Letter"),
        1,
        lambda h: h.word[0] in showcase_of(h.tableau),
    ),
    VaultCard(
        "last_card",
        gettext_noop("Your word uses the last letter card of the Tableau"),
        1,
        lambda h: h.tableau[-1] in cards_of(h.word),
    ),
    VaultCard(
        "half_tableau", gettext_noop("Your word uses at least half of the Tableau's letter cards"), 2, _half_tableau
    ),
    VaultCard("rare", gettext_noop("Your word uses a rare consonant"), 1, lambda h: bool(cards_of(h.word) & set(RARE))),
    VaultCard("five_tokens", gettext_noop("You dropped all 5 Clue tokens"), 2, lambda h: sum(h.tokens.values()) == 5),
)
BY_CODE: dict[str, VaultCard] = {card.code: card for card in CARDS}
CODES: tuple[str, ...] = tuple(BY_CODE)


__all__ = ["BY_CODE", "CARDS", "CODES", "Heist", "VaultCard"]
