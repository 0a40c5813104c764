"""The installed dictionaries (games/word/party/dictionary.py): each party language's
list knows its everyday words in the Tableau's spelling, not the other languages' words
its corpora quote, nor what is not one word of letters, and joins inflections under one
root."""

from __future__ import annotations

import pytest

from games.word.party.dictionary import lexicon, words_of


@pytest.mark.parametrize(
    ("language", "known", "unknown"),
    [
        (
            "en",
            ["HOUSE", "SHELL", "SHELLS", "WALKED", "LILIES", "HOTEL"],
            ["RECIEVE", "SHLEL", "PHD", "III", "QUE", "UND"],
        ),
        ("es", ["CASA", "CANCION", "PINGUINO", "LADRONES", "HOTEL"], ["HECHAR", "CSAA", "THE", "YOU"]),
        ("de", ["HAUS", "BAECKER", "STRASSE", "HAEUSER", "HOTEL"], ["MASCHIENE", "HUASE", "THE", "QUE"]),
    ],
)
def test_each_language_knows_its_words(language: str, known: list[str], unknown: list[str]) -> None:
    words = lexicon(language)
    assert all(words.knows(w) for w in known), [w for w in known if not words.knows(w)]
    assert not any(words.knows(w) for w in unknown), [w for w in unknown if words.knows(w)]


def test_letters_only_three_or_more() -> None:
    for language in ("en", "es", "de"):
        for word in words_of(language):
            assert len(word) >= 3 and word.isalpha() and word == word.upper(), word


@pytest.mark.parametrize(
    ("language", "a", "b"),
    [("en", "SHELL", "SHELLS"), ("en", "WALK", "WALKED"), ("es", "LADRON", "LADRONES"), ("de", "HAUS", "HAEUSER")],
)
def test_inflections_share_a_root(language: str, a: str, b: str) -> None:
    assert lexicon(language).root(a) == lexicon(language).root(b)


def test_the_playable_words_use_only_the_tableau() -> None:
    words = lexicon("en").playable(("I", "X", "L", "E", "S", "H", "T"))
    assert "LILIES" in words and "SHELL" in words and "HOUSE" not in words


@pytest.mark.parametrize(
    ("language", "proper", "common"),
    [
        # Hunspell writes them capitalised only; a lower-case entry keeps the word (JOHN, MARK)
        ("en", ["LONDON", "PARIS", "KEVIN", "TEXAS", "MONDAY"], ["HUNTER", "MARK", "JOHN", "BAKER", "SMITH"]),
        ("es", ["MADRID", "SEVILLA", "GOOGLE", "EUROPA"], ["CASA", "AMIGO", "CANTABA", "JUAN"]),
        # German capitalises every noun: names (no plural) and places other languages name
        ("de", ["PARIS", "ANNA", "JUERGEN", "STEFAN", "MADRID"], ["HAUS", "OMA", "SOFA", "BACH", "EURO", "PARK"]),
    ],
)
def test_proper_nouns_are_not_in_the_dictionary(language: str, proper: list[str], common: list[str]) -> None:
    words = lexicon(language)
    assert not any(words.knows(w) for w in proper), [w for w in proper if words.knows(w)]
    assert all(words.knows(w) for w in common), [w for w in common if not words.knows(w)]
