"""Drop Clues: 1 to 5 tokens, exactly as many on a letter as the word has of it, placed
at once (nobody sees another's tokens until everybody's are down)."""

from __future__ import annotations

import pytest

from games.word.actions import Clue, StandIn, Write
from games.word.errors import BadCluesError, OutOfTurnError
from games.word.legal import clue_choices
from games.word.views import public_view
from tests.games.word.builders import of, play, table


def written(*words: str) -> object:
    g, _ = play(table(len(words)), *(Write(s, w) for s, w in enumerate(words)))
    return g


@pytest.mark.parametrize(
    "tokens",
    [
        {"L": 1},  # SHELL has two Ls: exactly 2
        {"L": 3},
        {"T": 1},  # T is on the Tableau, not in the word
        {"Z": 1},  # not a card of the Tableau
        {"S": 0},
        {},  # at least 1
    ],
)
def test_the_exact_count_rule_refuses(tokens: dict[str, int]) -> None:
    g, _ = play(table(2), Write(0, "shell"), Write(1, "tile"))
    before = g.to_dict()
    with pytest.raises(BadCluesError):
        play(g, Clue(0, tuple(tokens.items())))
    assert g.to_dict() == before


def test_the_rulebook_s_shell() -> None:
    g, _ = play(table(2), Write(0, "shell"), Write(1, "tile"))
    g, _ = play(g, Clue(0, (("S", 1), ("H", 1), ("E", 1), ("L", 2))))
    assert g.clues[0] == {"E": 1, "H": 1, "L": 2, "S": 1}


def test_at_most_five_tokens() -> None:
    g, _ = play(table(2), Write(0, "lilies"), Write(1, "tile"))
    with pytest.raises(BadCluesError):
        play(g, Clue(0, (("L", 2), ("I", 2), ("E", 1), ("S", 1))))  # 6: every letter is too many
    assert all(sum(n for _, n in c) <= 5 for c in clue_choices("LILIES"))
    assert (("E", 1), ("I", 2), ("L", 2)) in clue_choices("LILIES")
    assert (("E", 1), ("I", 2), ("L", 2), ("S", 1)) not in clue_choices("LILIES")


def test_a_clue_on_q_u_counts_the_qs() -> None:
    g, _ = play(table(2, tableau=("Q", "I", "S", "H", "T", "E", "U")), Write(0, "squish"), Write(1, "this"))
    g, _ = play(g, Clue(0, (("Q", 1), ("S", 2))))
    assert g.clues[0] == {"Q": 1, "S": 2}


def test_clues_stay_hidden_until_everybody_s_are_down() -> None:
    g, _ = play(table(3), Write(0, "shell"), Write(1, "tile"), Write(2, "this"))
    g, events = play(g, Clue(0, (("S", 1),)))
    assert public_view(g)["seats"][0]["clues"] is None and public_view(g)["seats"][0]["clued"]
    assert of(events, "clues_kept")[0].to == (0,)
    g, events = play(g, Clue(1, (("T", 1),)), Clue(2, (("H", 1),)))
    assert of(events, "clues_shown")[0].data["clues"] == {"0": {"S": 1}, "1": {"T": 1}, "2": {"H": 1}}
    assert public_view(g)["seats"][0]["clues"] == {"S": 1}


def test_a_seat_with_no_word_drops_no_clue_and_a_quiet_seat_s_word_stands_void() -> None:
    g, _ = play(table(3), StandIn(0), Write(1, "tile"), Write(2, "this"))
    assert g.waiting() == (1, 2)
    with pytest.raises(OutOfTurnError):
        play(g, Clue(0, (("S", 1),)))
    g, _ = play(g, StandIn(1), Clue(2, (("T", 1),)))
    assert g.clues[1] == {} and g.clued() == (2,)
