"""The challenge vote: the table overrules the dictionary by simple majority of those who
vote, ties for the challenged player; a quiet seat's stand-in abstains."""

from __future__ import annotations

import pytest

from games.word.actions import Clue, Halt, Vote, Write
from games.word.errors import BadVoteError
from games.word.scoring import verdict
from games.word.state import Game
from tests.games.word.builders import of, play, play_round, scored, table


@pytest.mark.parametrize(
    ("known", "overruled", "voters", "valid"),
    [
        (True, 0, 3, True),
        (True, 1, 3, True),
        (True, 2, 4, True),  # a tie: for the challenged player
        (True, 2, 3, False),  # a majority rejects a word the dictionary has
        (False, 0, 3, False),  # a word the dictionary lacks, nobody for it
        (False, 1, 3, False),
        (False, 1, 2, True),  # a tie: for the challenged player
        (False, 2, 3, True),
        (False, 0, 0, False),  # nobody voted: the dictionary stands
        (True, 0, 0, True),
    ],
)
def test_the_verdict(known: bool, overruled: int, voters: int, valid: bool) -> None:
    assert verdict(known, overruled, voters) is valid


def test_a_word_the_dictionary_lacks_scores_once_the_table_accepts_it() -> None:
    words = {0: "hissle", 1: "tile", 2: "this"}
    clues = {0: {"H": 1}, 1: {"T": 1}, 2: {"T": 1}}
    _, events = play_round(table(3), words, clues, votes={0: [0], 1: [0]})
    assert scored(events)[0]["valid"] and scored(events)[0]["heist"] > 0
    _, events = play_round(table(3), words, clues, votes={0: [0]})
    assert not scored(events)[0]["valid"] and scored(events)[0]["heist"] == 0


def test_abstentions_do_not_count() -> None:
    # one vote for the unknown word, the two others' clocks ran out: 1 of 1
    _, events = play_round(
        table(3),
        {0: "hissle", 1: "tile", 2: "this"},
        {0: {"H": 1}, 1: {"T": 1}, 2: {"T": 1}},
        votes={0: [0], 1: None, 2: None},
    )
    assert scored(events)[0]["valid"]


def _to_the_vote() -> Game:
    g, _ = play(
        table(3),
        Write(0, "shell"),
        Write(1, "tile"),
        Write(2, "this"),
        Clue(0, (("S", 1),)),
        Clue(1, (("T", 1),)),
        Clue(2, (("T", 1),)),
        Halt(0, None),
        Halt(1, None),
        Halt(2, None),
    )
    return g


def test_votes_are_secret_until_everybody_voted() -> None:
    g = _to_the_vote()
    g, events = play(g, Vote(0, (1,)))
    assert of(events, "voted")[0].data == {"seat": 0, "abstained": False}
    assert of(events, "vote_kept")[0].to == (0,)


def test_nobody_votes_out_their_own_word_nor_a_seat_without_one() -> None:
    g = _to_the_vote()
    with pytest.raises(BadVoteError):
        play(g, Vote(0, (0,)))
    with pytest.raises(BadVoteError):
        play(g, Vote(0, (5,)))
