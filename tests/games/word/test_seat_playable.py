"""A seat with its word to write is sent every dictionary word the Tableau makes (the
phone tells at once whether the dictionary has a typed word); nobody else is, and never
outside the Heist Phase (games/word/views.py)."""

from __future__ import annotations

from games.word.actions import Write
from games.word.views import public_view, seat_view
from tests.games.word.builders import LEX, play, table


def test_a_seat_that_has_its_word_to_write_gets_the_tableau_s_words() -> None:
    g = table(3)
    view = seat_view(g, 0, LEX)
    assert view["playable"] == list(LEX.playable(g.tableau))
    assert "LILIES" in view["playable"] and "QUIT" not in view["playable"]  # no Q, U dealt
    assert "playable" not in public_view(g)


def test_once_written_or_past_the_heist_phase_no_list_is_sent() -> None:
    g, _ = play(table(2), Write(0, "lilies"))
    assert seat_view(g, 0, LEX)["playable"] is None
    assert seat_view(g, 1, LEX)["playable"]
    g, _ = play(g, Write(1, "shell"))
    assert [seat_view(g, s, LEX)["playable"] for s in (0, 1)] == [None, None]  # the clues now


def test_without_a_dictionary_the_view_only_lacks_the_list() -> None:
    assert seat_view(table(2), 0)["playable"] is None
