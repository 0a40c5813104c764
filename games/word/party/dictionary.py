"""Word Heist's dictionaries, read from the packages installed with the project: the
word lists of `wordfreq` cut by frequency, roots by `snowballstemmer` (docs/RULES.md,
"Word Heist", "The dictionary"). This reads files (wordfreq's packaged lists), so it is a
party part: the rules only ever see the `Lexicon` it returns. No download, ever.

Each language is read once per process, on first use (a table that plays in it).
"""

from __future__ import annotations

from functools import cache

import snowballstemmer  # type: ignore[import-untyped]
import wordfreq

from games.word.lexicon import Lexicon, WordList
from games.word.spelling import MAX_LETTERS, MIN_LETTERS, fold

# The cuts, chosen by measurement (bench/word_dictionary.py): words at least this common
# (Zipf scale: 3.0 is once per million words) are in the dictionary, unless another
# language's corpora use the word FOREIGN_GAP or more (10 times) as often: the corpora
# quote other languages (THE, AND, YOU are common in the Spanish and German lists).
ZIPF_CUT = 3.0
FOREIGN_GAP = 1.0
_FLOOR = 1.5  # below this wordfreq's "best" lists stop being comparable across languages
STEMMERS = {"en": "english", "es": "spanish", "de": "german"}


def _wordlike(word: str) -> bool:
    """Not an abbreviation or a numeral the corpora spell as a word (PHD, III, XXX): a
    word has a vowel (or Y) and more than one letter."""
    return any(c in "AEIOUY" for c in word) and len(set(word)) > 1


@cache
def zipf_of(language: str) -> dict[str, float]:
    """Each folded word of `language`'s list down to Zipf 1.5 -> its Zipf frequency (the
    commonest of its spellings), in the list's order, most common first."""
    # wordfreq's list is in bins of one centibel: bin i holds words of Zipf 9 - i/100.
    out: dict[str, float] = {}
    for i, words in enumerate(wordfreq.get_frequency_list(language, "best")):
        zipf = 9 - i / 100
        if zipf < _FLOOR:
            break
        for text in words:
            word = fold(text, language)
            if word is not None and word not in out:
                out[word] = zipf
    return out


def words_of(language: str, zipf_cut: float = ZIPF_CUT, foreign_gap: float | None = FOREIGN_GAP) -> list[str]:
    """wordfreq's words for `language` at least `zipf_cut` common and not another party
    language's (`foreign_gap`; None: keep them), folded, most common first: one word of
    letters only (no hyphen, apostrophe, digit), MIN_LETTERS to MAX_LETTERS long."""
    others = [zipf_of(other) for other in STEMMERS if other != language] if foreign_gap is not None else []
    out: list[str] = []
    for word, zipf in zipf_of(language).items():
        if zipf < zipf_cut:
            break
        if not (MIN_LETTERS <= len(word) <= MAX_LETTERS and _wordlike(word)):
            continue
        if foreign_gap is not None and any(other.get(word, 0.0) - zipf >= foreign_gap for other in others):
            continue
        out.append(word)
    return out


def stemmer(language: str) -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer(STEMMERS[language])


@cache
def lexicon(language: str) -> Lexicon:
    """The party language's dictionary (read once per process)."""
    if language not in STEMMERS:
        raise LookupError(f"Word Heist has no dictionary for {language!r}")
    stem = stemmer(language)
    return WordList(language, words_of(language), stem.stemWord)


__all__ = ["FOREIGN_GAP", "STEMMERS", "ZIPF_CUT", "lexicon", "stemmer", "words_of", "zipf_of"]
