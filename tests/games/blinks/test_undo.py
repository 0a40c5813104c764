"""Undo: the captain takes back the last settled throw, until the next throw is recorded
(docs/RULES.md, "Blinks Heist": the window is the next record, so the engine needs no
clock)."""

import pytest

from games.blinks import Confirm, EndTurn, PassTurn, Phase, Undo, UndoClosedError, WrongPhaseError, apply
from tests.games.blinks.builders import of, record, table, throw, throws


def test_undo_restores_the_table_as_it_was_before_the_throw():
    g = table(3, vault=4)
    g, _ = throws(g, 1, 1, 1)  # Blink 1 at 1 health, seat 0 to throw
    before = g.to_dict()
    g, _ = throw(g, 1, touched=True)  # seat 0 claims it, earns a skip; seat 1 is up
    assert g.owner[0] == 0 and g.skips[0] and g.turn == 1
    g, events = apply(g, Undo(g.throws))
    after = g.to_dict()
    for key in ("health", "owner", "turn", "thrown", "skips", "turns", "phase"):
        assert after[key] == before[key], key
    assert of(events, "undone")[0].data == {"throw": 4, "seat": 0, "hit": 1, "touched": True}
    assert g.phase is Phase.THROW and g.waiting() == (0,)  # the thrower records it again


def test_the_window_closes_at_the_next_record():
    g = table(2)
    g, _ = throw(g, 2)
    g, _ = record(g, None)
    with pytest.raises(UndoClosedError):  # the next record closed the window
        apply(g, Undo(1))
    g, _ = apply(g, Confirm(2))
    with pytest.raises(UndoClosedError) as refused:
        apply(g, Undo(1))  # not the last any more
    assert refused.value.rule == "undo"
    g, _ = apply(g, Undo(2))
    with pytest.raises(UndoClosedError):
        apply(g, Undo(1))  # one step back only
    assert g.health[1] == 3


def test_a_passed_or_ended_turn_closes_the_window():
    g = table(2)
    g, _ = throw(g, 1)
    g, _ = apply(g, PassTurn(1))
    with pytest.raises(UndoClosedError):
        apply(g, Undo(1))
    g = table(2, alternate=True)
    g, _ = throw(g, 1)
    g, _ = apply(g, EndTurn(0))
    with pytest.raises(UndoClosedError):
        apply(g, Undo(1))


def test_nothing_is_taken_back_after_the_end():
    g = table(2, vault=3)
    g, events = throws(g, *[b for b in (1, 2, 3) for _ in range(4)])
    assert g.phase is Phase.OVER and of(events, "game_over")
    with pytest.raises(WrongPhaseError):
        apply(g, Undo(g.throws))
