"""Which of wordfreq's (lower-cased) words are proper nouns, by the Hunspell dictionaries
Debian packages (hunspell-en-us, hunspell-es, hunspell-de-de, installed with the project:
bin/test, Dockerfile). A Hunspell dictionary writes a proper noun capitalised (Paris,
Kevin, Google) and accepts its lower-case spelling only when a lower-case entry also
makes it (hunter from hunt + er, mark, bill): so a word the dictionary accepts only
capitalised is a proper noun. German capitalises every noun: there a proper noun is a
capitalised entry that takes no plural (Anna/S, Jürgen/S), or a place's entry (no
plural either) that the English or Spanish dictionary writes only capitalised (Madrid/Sm
is; Oma/Sm and Sofa/Sm are not there, Park/Smij and Euro/Smij are there in lower case
too). Measured in bench/word_dictionary.py; docs/RULES.md, "The dictionary".

Only the words' verdicts are kept (games/word/party/dictionary.py drops the proper nouns
as it reads the list); the parsed dictionaries, tens of megabytes, are not.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

HUNSPELL = Path("/usr/share/hunspell")
FILES = {"en": "en_US", "es": "es_ES", "de": "de_DE"}
DEBIAN = {"en": "hunspell-en-us", "es": "hunspell-es", "de": "hunspell-de-de"}
# German flags (de_DE.aff) a proper noun's entry may have: S the genitive -s, m the
# compounds it starts. Any other flag (a plural, a feminine form) is a common noun's.
_NAME_FLAGS = frozenset("S")
_PLACE_FLAGS = frozenset("Smij")  # i, j: the compounds it ends (Deutschland/Smij)


@dataclass(frozen=True)
class _Affix:
    flag: str
    strip: str
    add: str
    condition: re.Pattern[str]


class Hunspell:
    """A Hunspell dictionary's entries and its one-level affixes: enough to tell which
    entries accept a lower-case word (no compounds, no affix on an affix)."""

    def __init__(self, aff: str, dic: str) -> None:
        self.only_in_compound = ""
        self.need_affix = ""
        self._suffixes: dict[str, list[_Affix]] = {}
        self._prefixes: dict[str, list[_Affix]] = {}
        patterns: dict[str, re.Pattern[str]] = {}  # Spanish's 6,800 affixes share a few hundred
        for line in aff.splitlines():
            fields = line.split()
            if len(fields) == 2 and fields[0] == "ONLYINCOMPOUND":
                self.only_in_compound = fields[1]
            elif len(fields) == 2 and fields[0] == "NEEDAFFIX":
                self.need_affix = fields[1]
            elif len(fields) >= 5 and fields[0] in ("SFX", "PFX"):
                suffix = fields[0] == "SFX"
                flag, strip, add, condition = fields[1], fields[2], fields[3].split("/")[0], fields[4]
                strip, add = ("" if strip == "0" else strip.lower()), ("" if add == "0" else add.lower())
                source = f"{condition.lower()}$" if suffix else f"^{condition.lower()}"
                pattern = patterns.get(source) or patterns.setdefault(source, re.compile(source))
                table = self._suffixes if suffix else self._prefixes
                table.setdefault(add, []).append(_Affix(flag, strip, add, pattern))
        # lower-cased word -> (its entry as written, the entry's flags), one per entry
        self._entries: dict[str, list[tuple[str, str]]] = {}
        for line in dic.splitlines()[1:]:
            word, _, flags = line.strip().partition("/")
            if word:
                self._entries.setdefault(word.lower(), []).append((word, flags.split()[0] if flags else ""))

    def entries_of(self, word: str) -> Iterator[tuple[str, str]]:
        """Every (entry, flags) that accepts the lower-case `word`: as it stands, or with
        one of its suffixes or prefixes."""
        for entry, flags in self._entries.get(word, ()):
            if not (self.need_affix and self.need_affix in flags):
                yield entry, flags
        for end in range(len(word)):
            add = word[end:]
            for affix in self._suffixes.get(add, ()):
                stem = word[:end] + affix.strip
                if affix.condition.search(stem):
                    yield from ((e, f) for e, f in self._entries.get(stem, ()) if affix.flag in f)
        for start in range(1, len(word) + 1):
            add = word[:start]
            for affix in self._prefixes.get(add, ()):
                stem = affix.strip + word[start:]
                if affix.condition.search(stem):
                    yield from ((e, f) for e, f in self._entries.get(stem, ()) if affix.flag in f)


def _files(language: str) -> tuple[Path, Path]:
    name = FILES[language]
    aff, dic = HUNSPELL / f"{name}.aff", HUNSPELL / f"{name}.dic"
    if not (aff.exists() and dic.exists()):
        raise LookupError(
            f"Word Heist tells proper nouns by {aff} and {dic}: install Debian's {DEBIAN[language]} "
            "(bin/test does, as the Dockerfile)"
        )
    return aff, dic


def read(language: str) -> Hunspell:
    """The party language's Hunspell dictionary, from Debian's package."""
    aff, dic = _files(language)
    return Hunspell(aff.read_text(encoding="utf-8"), dic.read_text(encoding="utf-8"))


def entries(language: str) -> tuple[frozenset[str], frozenset[str]]:
    """`language`'s dictionary entries, lower-cased: those it writes capitalised, and
    those it writes in lower case (no affixes: German only asks whether a place's name
    is a name elsewhere too)."""
    _, dic = _files(language)
    words = [line.partition("/")[0].strip() for line in dic.read_text(encoding="utf-8").splitlines()[1:]]
    capital = frozenset(w.lower() for w in words if w[:1].isupper())
    return capital, frozenset(w for w in words if w[:1].islower())


def _capitalised(entry: str) -> bool:
    return entry[:1].isupper()


def written_only_capitalised(hunspell: Hunspell) -> Callable[[str], bool]:
    """English's and Spanish's test: the dictionary accepts the word only capitalised."""

    def proper(word: str) -> bool:
        capital = False
        for entry, flags in hunspell.entries_of(word):
            if not _capitalised(entry):
                if not (hunspell.only_in_compound and hunspell.only_in_compound in flags):
                    return False
            else:
                capital = True
        return capital

    return proper


def german_proper(hunspell: Hunspell, elsewhere: Callable[[str], bool]) -> Callable[[str], bool]:
    """German's test: only capitalised, never with a common noun's flags, and either a
    name's entry (no plural, no compounds) or a place's that `elsewhere` calls proper."""

    def proper(word: str) -> bool:
        name = place = False
        for entry, flags in hunspell.entries_of(word):
            if not _capitalised(entry):
                if not (hunspell.only_in_compound and hunspell.only_in_compound in flags):
                    return False
                continue
            letters = frozenset(flags)
            if letters <= _NAME_FLAGS:
                name = True
            elif letters <= _PLACE_FLAGS:
                place = True
            else:
                return False
        return name or (place and elsewhere(word))

    return proper


def proper_test(language: str) -> Callable[[str], bool]:
    """Whether a lower-case word of `language`'s wordfreq list is a proper noun. The
    closure holds the parsed dictionaries: drop it once the list is read."""
    if language == "de":
        (en_capital, en_lower), (es_capital, es_lower) = entries("en"), entries("es")
        # Berlin is also an English carriage, but Euro, Job, Park, City and Mama are
        # English or Spanish words as well as names there: only the names count.
        elsewhere = (en_capital | es_capital) - en_lower - es_lower
        return german_proper(read("de"), elsewhere.__contains__)
    return written_only_capitalised(read(language))


__all__ = [
    "DEBIAN",
    "FILES",
    "HUNSPELL",
    "Hunspell",
    "entries",
    "german_proper",
    "proper_test",
    "read",
    "written_only_capitalised",
]
