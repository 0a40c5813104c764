"""How a Hunspell dictionary tells a proper noun (games/word/party/propernouns.py), on a
small dictionary of its own: an entry written only capitalised is one, unless a
lower-case entry also makes the word, as it stands or through an affix."""

from __future__ import annotations

from games.word.party.propernouns import Hunspell, german_proper, written_only_capitalised

AFF = """SET UTF-8
ONLYINCOMPOUND o
SFX R Y 2
SFX R 0 er [^e]
SFX R 0 r e
SFX S Y 1
SFX S 0 s .
PFX U Y 1
PFX U 0 un .
"""
DIC = """7
hunt/R
bake/R
done/U
Hunter/S
Baker
Paris
berlin/o
"""


def test_a_word_written_only_capitalised_is_a_proper_noun() -> None:
    proper = written_only_capitalised(Hunspell(AFF, DIC))
    assert proper("paris")
    assert proper("hunters")  # the capitalised entry's own affix
    assert not proper("hunter")  # hunt + er: a lower-case entry makes it
    assert not proper("baker")  # bake + r
    assert not proper("undone")  # un + done
    assert not proper("table")  # unknown to the dictionary: wordfreq's word stands


def test_a_lower_case_entry_only_in_compounds_does_not_make_a_word() -> None:
    hunspell = Hunspell(AFF, DIC.replace("Paris", "Berlin"))
    assert written_only_capitalised(hunspell)("berlin")


GERMAN_AFF = """SET UTF-8
SFX S Y 1
SFX S 0 s .
SFX N Y 1
SFX N 0 n .
SFX m Y 1
SFX m 0 s .
"""
GERMAN_DIC = """4
Anna/S
Madrid/Sm
Oma/Sm
Rose/N
"""


def test_german_proper_nouns_are_names_or_places_named_elsewhere() -> None:
    elsewhere = {"madrid"}.__contains__
    proper = german_proper(Hunspell(GERMAN_AFF, GERMAN_DIC), elsewhere)
    assert proper("anna")  # no plural, no compounds: a name
    assert proper("madrid")  # a place's entry, and another language's proper noun
    assert not proper("oma")  # a place's entry too, but nobody else calls it a name
    assert not proper("rose")  # a plural: a common noun
