"""From what a player typed to the word the rules compare: the party's language decides.

The Tableau has the printed 26 letters in every language, so a word is written in them
the way each language's crosswords do (docs/RULES.md, "Word Heist", "Spelling"):
accents dropped (café, canción, pingüino), German umlauts written out (Bäcker: BAECKER)
and ß as SS. Spanish Ñ is a letter of its own with no card: a word with Ñ keeps it, so it
cannot be made from the Tableau. No hyphens, apostrophes, spaces or digits: proper
nouns aside (the dictionary's), what the rulebook calls invalid is refused here.
"""

from __future__ import annotations

import unicodedata

LANGUAGES = ("en", "es", "de")
MIN_LETTERS = 3
MAX_LETTERS = 24  # longer than any dictionary word of the three languages' lists we keep
_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_UMLAUTS = {"Ä": "AE", "Ö": "OE", "Ü": "UE"}


def fold(text: str, language: str) -> str | None:
    """The word as the rules spell it (upper case, A-Z; Spanish may keep Ñ), or None
    when `text` is not one word of letters."""
    word = text.strip().upper()  # "ß".upper() is "SS"
    if language == "de":
        for umlaut, written in _UMLAUTS.items():
            word = word.replace(umlaut, written)
    out: list[str] = []
    for char in unicodedata.normalize("NFD", word):
        if unicodedata.combining(char):
            if char == "\u0303" and language == "es" and out and out[-1] == "N":
                out[-1] = "Ñ"  # the tilde of Ñ is a letter in Spanish, not an accent
            continue
        out.append(char)
    folded = "".join(out)
    if not folded or not all(c in _LETTERS or c == "Ñ" for c in folded):
        return None
    return folded


__all__ = ["LANGUAGES", "MAX_LETTERS", "MIN_LETTERS", "fold"]
