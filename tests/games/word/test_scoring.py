"""The Score Phase, case by case from the rulebook (docs/RULES.md, "Word Heist", "Scoring")."""

from __future__ import annotations

from tests.games.word.builders import play_round, scored, table


def test_the_rulebook_s_example_lilies_scores_12() -> None:
    # LILIES: 4 tokens on I and L, I is the +1 Showcase Letter, both vault cards (+2
    # longest, +1 two vowels), and a halt of Orange's SHELL (4 tokens, nothing else): 4+1+3+4.
    g, events = play_round(
        table(3),
        words={0: "lilies", 1: "shell", 2: "this"},
        clues={0: {"L": 2, "I": 2}, 1: {"S": 1, "L": 2, "H": 1}, 2: {"T": 1}},
        halts={0: "shell", 1: "list", 2: "tile"},
    )
    line = scored(events)
    assert line[0]["heist"] == 4 + 1 + 3
    assert line[0]["value"] == {"tokens": 4, "showcase": 1, "vault": ["longest", "two_vowels"], "vault_points": 3, "multiplier": 1, "total": 8}  # fmt: skip
    assert line[0]["halt_points"] == 4 and line[0]["caught"] == [1]
    assert line[0]["points"] == 12 and g.scores[0] == 12
    # Orange was caught: SHELL scores nothing for Orange
    assert line[1]["halted_by"] == [0] and line[1]["heist"] == 0 and g.scores[1] == 0


def test_matching_heist_words_score_nothing_for_either() -> None:
    g, events = play_round(
        table(3), words={0: "shell", 1: "shell", 2: "this"}, clues={0: {"S": 1}, 1: {"L": 2}, 2: {"T": 1}}
    )
    line = scored(events)
    assert line[0]["matched"] and line[1]["matched"]
    assert g.scores[:2] == [0, 0]
    # THIS: 1 token and I (+1); the matched SHELLs are still valid words, so THIS is not the longest
    assert g.scores[2] == 1 + 1


def test_a_unique_word_nobody_halted_scores_its_value() -> None:
    g, events = play_round(table(2), words={0: "heist", 1: "tee"}, clues={0: {"H": 1, "T": 1}, 1: {"E": 2}})
    line = scored(events)
    # HEIST: 2 tokens, uses I (+1), longest (+2), two vowels (+1)
    assert line[0]["heist"] == 2 + 1 + 3
    # TEE: 2 tokens, no Showcase Letter, two vowels (+1)
    assert line[1]["heist"] == 2 + 1
    assert g.scores == [6, 3]


def test_every_halter_collects_the_full_value_and_the_writer_nothing() -> None:
    _g, events = play_round(
        table(4),
        words={0: "shell", 1: "this", 2: "list", 3: "tile"},
        clues={0: {"L": 2, "S": 1}, 1: {"T": 1}, 2: {"T": 1}, 3: {"T": 1}},
        halts={1: "shell", 2: "shell", 3: "heist"},
    )
    line = scored(events)
    assert line[0]["halted_by"] == [1, 2] and line[0]["heist"] == 0
    assert line[1]["halt_points"] == line[2]["halt_points"] == 3 + 2  # SHELL: 3 tokens, the longest
    assert line[3]["halt_points"] == 0 and line[3]["caught"] == []


def test_halting_matching_words_collects_the_larger_value() -> None:
    _g, events = play_round(
        table(3),
        words={0: "shell", 1: "shell", 2: "this"},
        clues={0: {"S": 1}, 1: {"S": 1, "L": 2, "H": 1}, 2: {"T": 1}},
        halts={2: "shell"},
    )
    line = scored(events)
    assert line[2]["caught"] == [0, 1]
    assert line[2]["halt_points"] == 4 + 2  # seat 1's SHELL (4 tokens, the longest), not seat 0's (1 + 2)
    assert line[0]["heist"] == line[1]["heist"] == 0


def test_an_invalid_word_neither_scores_nor_counts_as_matching() -> None:
    # Seat 1's SHELL is voided (its clue clock ran out): seat 0's SHELL is unique.
    _g, events = play_round(table(2), words={0: "shell", 1: "shell"}, clues={0: {"S": 1}, 1: None})
    line = scored(events)
    assert not line[1]["valid"] and line[1]["heist"] == 0
    assert not line[0]["matched"] and line[0]["heist"] == 1 + 2  # 1 token, longest


def test_a_word_the_table_votes_out_neither_scores_nor_matches() -> None:
    _g, events = play_round(
        table(3),
        words={0: "shell", 1: "shell", 2: "this"},
        clues={0: {"S": 1}, 1: {"S": 1}, 2: {"T": 1}},
        votes={0: [1], 2: [1]},  # two of three reject seat 1's word
    )
    line = scored(events)
    assert not line[1]["valid"]
    assert not line[0]["matched"] and line[0]["heist"] > 0


def test_halting_an_invalid_word_collects_nothing() -> None:
    _g, events = play_round(table(2), words={0: "shell", 1: "tile"}, clues={0: None, 1: {"T": 1}}, halts={1: "shell"})
    assert scored(events)[1]["halt_points"] == 0


def test_each_showcase_bonus_counts_once_per_word() -> None:
    # I under +1, X under +2: LILIES uses I twice, +1 once
    _g, events = play_round(
        table(2, vault=("rare", "shortest")), words={0: "lilies", 1: "tee"}, clues={0: {"S": 1}, 1: {"T": 1}}
    )
    assert scored(events)[0]["value"]["showcase"] == 1
    _g, events = play_round(
        table(2, tableau=("I", "E", "L", "S", "H", "T", "X"), vault=("rare", "six_letters")),
        words={0: "lilies", 1: "tee"},
        clues={0: {"S": 1}, 1: {"T": 1}},
    )
    assert scored(events)[0]["value"]["showcase"] == 1 + 2


def test_the_final_round_doubles_every_word() -> None:
    _g, events = play_round(
        table(3, round=3),
        words={0: "lilies", 1: "shell", 2: "this"},
        clues={0: {"L": 2, "I": 2}, 1: {"S": 1, "L": 2, "H": 1}, 2: {"T": 1}},
        halts={0: "shell", 1: "list", 2: "tile"},
    )
    assert scored(events)[0]["points"] == 24


def test_a_quiet_seat_scores_nothing_and_is_never_halted() -> None:
    _g, events = play_round(table(2), words={0: None, 1: "tile"}, clues={1: {"T": 1}})
    line = scored(events)
    assert line[0]["word"] is None and line[0]["points"] == 0
    assert line[1]["halted_by"] == []
