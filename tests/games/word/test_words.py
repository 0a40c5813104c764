"""Valid and invalid words: the Tableau's letters, the Word Gallery and its roots, the
spelling of each party language, Q(u), and Heist and Halt words never the same."""

from __future__ import annotations

import pytest

from games.word.actions import Clue, Halt, Write
from games.word.errors import (
    BadCluesError,
    NotAWordError,
    NotInTableauError,
    OwnWordError,
    ReusedWordError,
    WrongPhaseError,
)
from games.word.legal import accepts_typed
from games.word.letters import card_counts, makeable
from games.word.spelling import fold
from tests.games.word.builders import LEX, of, play, play_round, table


def test_a_word_uses_the_tableau_s_letters_as_often_as_it_likes() -> None:
    g, _events = play(table(2), Write(0, "lilies"))
    assert g.words[0] == "LILIES" and g.known[0]
    with pytest.raises(NotInTableauError):
        play(table(2), Write(0, "quit"))  # no Q, U on this Tableau


@pytest.mark.parametrize("typed", ["ab", "it's", "she-ll", "sh3ll", "two words", "", "   "])
def test_not_a_word_is_refused_and_changes_nothing(typed: str) -> None:
    g = table(2)
    before = g.to_dict()
    with pytest.raises(NotAWordError):
        play(g, Write(0, typed))
    assert g.to_dict() == before


def test_a_word_the_dictionary_lacks_is_written_and_put_to_the_vote() -> None:
    g, events = play(table(2), Write(0, "hissle"))
    assert g.words[0] == "HISSLE" and g.known[0] is False
    # only its writer hears what the dictionary said; everybody sees that seat 0 wrote
    kept = of(events, "word_kept")[0]
    assert kept.to == (0,) and kept.data["known"] is False
    assert "word" not in of(events, "wrote")[0].data


def test_the_gallery_refuses_a_used_word_and_one_that_shares_its_root() -> None:
    g = table(2, gallery=[("SHELL", "heist"), ("TILE", "halt")])
    for word in ("shell", "shells", "tiles"):
        with pytest.raises(ReusedWordError):
            play(g, Write(0, word))
    play(g, Write(0, "lilies"))


def test_every_word_of_a_round_goes_on_the_gallery_valid_or_not() -> None:
    g, _ = play_round(table(3), words={0: "shell", 1: "hissle", 2: "tile"}, clues={0: {"S": 1}, 1: None, 2: {"T": 1}}, halts={0: "this"})  # fmt: skip
    assert [(e["word"], e["kind"]) for e in g.gallery] == [
        ("SHELL", "heist"),
        ("HISSLE", "heist"),
        ("TILE", "heist"),
        ("THIS", "halt"),
    ]
    with pytest.raises(ReusedWordError):
        play(g, Write(0, "hissle"))  # a word that did not score still counts as used
    with pytest.raises(ReusedWordError):
        play(g, Write(0, "this"))  # a Halt word too


def test_heist_and_halt_words_cannot_be_the_same() -> None:
    g, _ = play(table(2), Write(0, "shell"), Write(1, "tile"), Clue(0, (("S", 1),)), Clue(1, (("T", 1),)))
    with pytest.raises(OwnWordError):
        play(g, Halt(0, "SHELL"))
    g, _ = play(g, Halt(0, "tile"))
    assert g.halts[0] == "TILE"


def test_a_halt_waits_for_the_halt_phase() -> None:
    with pytest.raises(WrongPhaseError):
        play(table(2), Halt(0, "tile"))


def test_the_q_u_card_carries_its_u() -> None:
    g = table(2, tableau=("Q", "I", "S", "H", "T", "E"))
    g, _ = play(g, Write(0, "squish"), Write(1, "quit"))
    assert g.words == {0: "SQUISH", 1: "QUIT"}
    assert card_counts("SQUISH") == {"S": 2, "Q": 1, "I": 1, "H": 1}
    assert not makeable("SUIT", ("Q", "I", "S", "T"))  # a U not after a Q needs the U card
    assert makeable("SUIT", ("Q", "I", "S", "T", "U"))


@pytest.mark.parametrize(
    ("typed", "language", "word"),
    [
        ("Canción", "es", "CANCION"),
        ("pingüino", "es", "PINGUINO"),
        ("niño", "es", "NIÑO"),  # Ñ is a letter: no card carries it
        ("Bäcker", "de", "BAECKER"),
        ("Straße", "de", "STRASSE"),
        ("café", "en", "CAFE"),
        ("don't", "en", None),
        ("x-ray", "en", None),
    ],
)
def test_each_language_spells_with_the_tableau_s_letters(typed: str, language: str, word: str | None) -> None:
    assert fold(typed, language) == word


def test_the_test_lexicon_roots_inflections_together() -> None:
    assert LEX.root("SHELLS") == LEX.root("SHELL")
    assert LEX.root("HEISTS") == LEX.root("HEIST")


def test_a_word_no_clue_placement_fits_is_refused_at_once_and_changes_nothing() -> None:
    """Six Js and six As: every card would need 6 tokens, one more than a player has, so
    the seat could only wait for the clock at the clues; it is refused as written."""
    g = table(2, tableau=("J", "A", "H", "O", "T", "D", "X", "G"))
    before = g.to_dict()
    with pytest.raises(BadCluesError, match="cannot be clued"):
        play(g, Write(0, "jajajajajaja"))
    assert g.to_dict() == before
    assert not accepts_typed(g, Write(0, "jajajajajaja"), LEX)
    g, _events = play(g, Write(0, "jajaja"))  # three of each: 3 tokens on J (or A) fit
    assert g.words[0] == "JAJAJA"
