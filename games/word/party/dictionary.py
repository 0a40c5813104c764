"""Word Heist's dictionaries, read from the packages installed with the project: the
word lists of `wordfreq` cut by frequency, roots by `snowballstemmer` (docs/RULES.md,
"Word Heist", "The dictionary"). This reads files (wordfreq's packaged lists), so it is a
party part: the rules only ever see the `Lexicon` it returns. No download, ever.

Each language is read once per process: a server reads them all at start (`WARM`, called
by config/asgi.py through games/registry.py `warm`), anything else on first use. The list
a process makes is kept on disk for the next start (games/word/party/listcache.py).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from games.word import spelling
from games.word.lexicon import Lexicon, WordList
from games.word.party import listcache, propernouns
from games.word.party.propernouns import proper_test
from games.word.spelling import MAX_LETTERS, MIN_LETTERS, fold

# The cuts, chosen by measurement (bench/word_dictionary.py): words at least this common
# (Zipf scale: 3.0 is once per million words) are in the dictionary, unless another
# language's corpora use the word FOREIGN_GAP or more (10 times) as often: the corpora
# quote other languages (THE, AND, YOU are common in the Spanish and German lists).
ZIPF_CUT = 3.0
FOREIGN_GAP = 1.0
STEMMERS = {"en": "english", "es": "spanish", "de": "german"}


def _wordlike(word: str) -> bool:
    """Not an abbreviation or a numeral the corpora spell as a word (PHD, III, XXX): a
    word has a vowel (or Y) and more than one letter."""
    return any(c in "AEIOUY" for c in word) and len(set(word)) > 1


def zipf_of(language: str, floor: float, drop: Callable[[str], bool] | None = None) -> dict[str, float]:
    """Each folded word of `language`'s list at least `floor` common -> its Zipf
    frequency (the commonest of its spellings), in the list's order, most common first.
    Read afresh: only the dictionary it makes is kept (a whole list down to rare words
    is a few hundred megabytes of Python strings). `drop`: words (as the list writes
    them, lower case, accents kept) to leave out."""
    import wordfreq  # a party part's import: registering the game costs no wordfreq

    # wordfreq's list is in bins of one centibel: bin i holds words of Zipf 9 - i/100.
    out: dict[str, float] = {}
    # Uncached (`__wrapped__`): wordfreq's own cache would keep each whole list (100 MB).
    for i, words in enumerate(wordfreq.get_frequency_list.__wrapped__(language, "best")):
        zipf = 9 - i / 100
        if zipf < floor:
            break
        for text in words:
            if drop is not None and drop(text):
                continue
            word = fold(text, language)
            if word is not None and word not in out:
                out[word] = zipf
    return out


def words_of(
    language: str, zipf_cut: float = ZIPF_CUT, foreign_gap: float | None = FOREIGN_GAP, proper_nouns: bool = False
) -> list[str]:
    """wordfreq's words for `language` at least `zipf_cut` common and not another party
    language's (`foreign_gap`; None: keep them), folded, most common first: one word of
    letters only (no hyphen, apostrophe, digit), MIN_LETTERS to MAX_LETTERS long, and
    no proper noun by the Hunspell dictionary (games/word/party/propernouns.py) unless
    `proper_nouns`."""
    # A word of ours at least zipf_cut common is foreign only when another list has it
    # at zipf_cut + foreign_gap or more: that much of the other lists is all it takes.
    others = (
        [zipf_of(other, zipf_cut + foreign_gap) for other in STEMMERS if other != language]
        if foreign_gap is not None
        else []
    )
    out: list[str] = []
    drop = None if proper_nouns else proper_test(language)
    for word, zipf in zipf_of(language, zipf_cut, drop).items():
        if not (MIN_LETTERS <= len(word) <= MAX_LETTERS and _wordlike(word)):
            continue
        if foreign_gap is not None and any(other.get(word, 0.0) - zipf >= foreign_gap for other in others):
            continue
        out.append(word)
    return out


def stemmer(language: str) -> Any:
    import snowballstemmer  # type: ignore[import-untyped]

    return snowballstemmer.stemmer(STEMMERS[language])


def kept_words_of(language: str) -> list[str]:
    """`words_of(language)` with the default cuts, kept on disk between starts: read back
    while wordfreq, the Hunspell files and the code that makes the list are unchanged."""
    from importlib.metadata import version

    key = listcache.key_of(
        name=f"word-{language}",
        sources=[Path(__file__), Path(propernouns.__file__), Path(spelling.__file__), Path(listcache.__file__)],
        files=[propernouns.HUNSPELL / f"{name}.{ext}" for name in propernouns.FILES.values() for ext in ("aff", "dic")],
        settings=[version("wordfreq"), ZIPF_CUT, FOREIGN_GAP, MIN_LETTERS, MAX_LETTERS, sorted(STEMMERS)],
    )
    return listcache.kept_list(name=f"word-{language}", key=key, make=lambda: words_of(language))


@cache
def lexicon(language: str) -> Lexicon:
    """The party language's dictionary (read once per process)."""
    if language not in STEMMERS:
        raise LookupError(f"Word Heist has no dictionary for {language!r}")
    stem = stemmer(language)
    return WordList(language, kept_words_of(language), stem.stemWord)


def warm() -> None:
    """Read every language's dictionary now. A table's action is applied on the server's
    event loop (tables/loopwrite.py): a dictionary first read there (about 0.6 s of CPU
    per language, many seconds on a loaded machine) froze every socket of that daphne,
    and the row it was writing, behind it."""
    for language in STEMMERS:
        lexicon(language)


# What the registry hands the definition (games/definition.py TakesPartyData): a
# language's dictionary, read on the first table that plays in it, or by WARM.
DATA = lexicon
WARM = warm

__all__ = [
    "DATA",
    "FOREIGN_GAP",
    "STEMMERS",
    "WARM",
    "ZIPF_CUT",
    "kept_words_of",
    "lexicon",
    "stemmer",
    "warm",
    "words_of",
    "zipf_of",
]
