"""The dictionary the rules consult, as an interface: the rules never open a file.

A `Lexicon` is one party language's word list and its stemmer. The rules receive one
(the definition gets a `Lexicons` source, games/word/definition.py); the word lists are
read by the party part games/word/party/dictionary.py, and tests hand the rules a small
`WordList` of their own. Words here are folded (games/word/spelling.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from .letters import cards_of


class Lexicon(Protocol):
    """One language's dictionary: which words it knows, their roots, the playable ones."""

    @property
    def language(self) -> str: ...

    def __hash__(self) -> int: ...  # the rules cache what they read of it by lexicon

    def knows(self, word: str) -> bool:
        """Whether the (folded) word is in the dictionary."""
        ...

    def root(self, word: str) -> str:
        """The word's root: two words with the same root are "minor variations" (the
        Word Gallery refuses SHELLS once SHELL was used)."""
        ...

    def playable(self, tableau: Iterable[str]) -> Sequence[str]:
        """Every known word the Tableau's cards can make, most common first."""
        ...


Lexicons = Callable[[str], Lexicon]  # a party language ("en") -> its Lexicon

_PLAYABLE_CACHE = 512  # tableaus remembered: a 100-guest party deals 17 tables x 3 rounds


def _mask(cards: Iterable[str], bits: dict[str, int]) -> int:
    """The cards as one int, a bit per card (`bits`, filled as new cards come)."""
    mask = 0
    for card in cards:
        bit = bits.get(card)
        if bit is None:
            bit = bits[card] = 1 << len(bits)
        mask |= bit
    return mask


class WordList:
    """A Lexicon from a word list (folded, most common first) and a stemmer."""

    def __init__(self, language: str, words: Iterable[str], stem: Callable[[str], str]) -> None:
        self._language = language
        self._words = tuple(dict.fromkeys(words))
        self._known = frozenset(self._words)
        # Each word's cards as one int: a frozenset per word was 16 MB of the English
        # dictionary's 28, read into every server process (games/registry.py warm).
        self._bits: dict[str, int] = {}
        self._cards = tuple(_mask(cards_of(w), self._bits) for w in self._words)
        self._stem = stem
        self._roots: dict[str, str] = {}
        self._playable: dict[frozenset[str], tuple[str, ...]] = {}

    @property
    def language(self) -> str:
        return self._language

    def __len__(self) -> int:
        return len(self._words)

    def knows(self, word: str) -> bool:
        return word in self._known

    def root(self, word: str) -> str:
        root = self._roots.get(word)
        if root is None:
            root = self._roots[word] = self._stem(word.lower())
        return root

    def playable(self, tableau: Iterable[str]) -> Sequence[str]:
        key = frozenset(tableau)
        found = self._playable.get(key)
        if found is None:
            # a card no word uses gets a bit of its own: it matches nothing, as before
            missing = ~_mask(key, self._bits)
            found = tuple(w for w, cards in zip(self._words, self._cards, strict=True) if not cards & missing)
            if len(self._playable) >= _PLAYABLE_CACHE:
                self._playable.clear()
            self._playable[key] = found
        return found


__all__ = ["Lexicon", "Lexicons", "WordList"]
