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

# The cut, chosen by measurement (bench/word_dictionary.py): words at least this common
# (Zipf scale: 3.0 is once per million words) are in the dictionary.
ZIPF_CUT = 3.0
STEMMERS = {"en": "english", "es": "spanish", "de": "german"}


def _wordlike(word: str) -> bool:
    """Not an abbreviation or a numeral the corpora spell as a word (PHD, III, XXX): a
    word has a vowel (or Y) and more than one letter."""
    return any(c in "AEIOUY" for c in word) and len(set(word)) > 1


def words_of(language: str, zipf_cut: float = ZIPF_CUT) -> list[str]:
    """wordfreq's words for `language` at least `zipf_cut` common, folded, most common first:
    one word of letters only (no hyphen, apostrophe, digit), MIN_LETTERS to MAX_LETTERS long."""
    # wordfreq's list is in bins of one centibel: bin i holds words of Zipf 9 - i/100.
    bins = wordfreq.get_frequency_list(language, "best")
    out: list[str] = []
    for i, words in enumerate(bins):
        if 9 - i / 100 < zipf_cut:
            break
        for text in words:
            word = fold(text, language)
            if word is not None and MIN_LETTERS <= len(word) <= MAX_LETTERS and _wordlike(word):
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


__all__ = ["STEMMERS", "ZIPF_CUT", "lexicon", "stemmer", "words_of"]
