"""Illegal actions raise a typed error naming the rule and leave the game unchanged;
malformed wire frames are refused by parse_action."""

import pytest

from games.royal import (
    AlreadyDecidedError,
    Decide,
    IllegalActionError,
    MalformedActionError,
    NoSuchSeatError,
    NotInsideError,
    OpenGate,
    TimeoutDecide,
    WrongPhaseError,
    action_to_dict,
    apply,
    new_game,
    parse_action,
)
from tests.games.royal.builders import decide, everyone, rigged


def _refused(g, action, error, rule):
    before = g.to_dict()
    with pytest.raises(error) as info:
        apply(g, action)
    assert info.value.rule == rule
    assert g.to_dict() == before


def test_deciding_twice_is_refused():
    g, _ = decide(rigged(3, run=["8H", "JS"]), {0: True})
    _refused(g, Decide(0, False), AlreadyDecidedError, "decided")
    _refused(g, TimeoutDecide(0), AlreadyDecidedError, "decided")


def test_a_seat_that_got_out_cannot_decide():
    g, _ = decide(rigged(3, run=["8H", "JS", "5H"]), {0: False, 1: True, 2: True})
    _refused(g, Decide(0, True), NotInsideError, "inside")
    _refused(g, TimeoutDecide(0), NotInsideError, "inside")


def test_a_seat_not_at_the_table_is_refused():
    g = rigged(3, run=["8H"])
    _refused(g, Decide(3, True), NoSuchSeatError, "seat")
    _refused(g, Decide(-1, True), NoSuchSeatError, "seat")
    _refused(g, TimeoutDecide(7), NoSuchSeatError, "seat")


def test_deciding_out_of_phase_is_refused():
    g, _ = new_game(1, 3, heists=1)
    g, _ = decide(g, everyone(g, False))
    _refused(g, Decide(0, True), WrongPhaseError, "phase")
    _refused(g, OpenGate(), WrongPhaseError, "phase")
    g, _ = new_game(1, 3)
    _refused(g, OpenGate(), WrongPhaseError, "phase")


def test_a_non_bool_choice_is_malformed():
    g = rigged(3, run=["8H"])
    _refused(g, Decide(0, 1), MalformedActionError, "malformed")  # type: ignore[arg-type]
    _refused(g, "decide", MalformedActionError, "malformed")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "frame",
    [
        None,
        [],
        {},
        {"type": "steal"},
        {"type": "decide", "seat": 0},
        {"type": "decide", "press_on": True},
        {"type": "decide", "seat": "0", "press_on": True},
        {"type": "decide", "seat": True, "press_on": True},
        {"type": "decide", "seat": 0, "press_on": 1},
        {"type": "decide", "seat": 0, "press_on": "yes"},
        {"type": "decide", "seat": 0, "press_on": True, "extra": 1},
        {"type": "timeout_decide"},
        {"type": "timeout_decide", "seat": 1.0},
        {"type": "open_gate", "seat": 0},
    ],
)
def test_malformed_frames_are_refused(frame):
    with pytest.raises(MalformedActionError):
        parse_action(frame)


@pytest.mark.parametrize("action", [Decide(2, True), Decide(0, False), TimeoutDecide(5), OpenGate()])
def test_every_action_round_trips_through_its_wire_form(action):
    assert parse_action(action_to_dict(action)) == action


def test_every_error_is_an_illegal_action_error():
    for error in (AlreadyDecidedError, NotInsideError, NoSuchSeatError, WrongPhaseError, MalformedActionError):
        assert issubclass(error, IllegalActionError)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"seed": 1, "players": 2},
        {"seed": 1, "players": 9},
        {"seed": 1.5, "players": 3},
        {"seed": True, "players": 3},
        {"seed": 1, "players": 3, "heists": 0},
        {"seed": 1, "players": 3, "heists": 14},
        {"seed": 1, "players": 3, "heists": 1, "gate": True},
    ],
)
def test_a_table_the_rules_do_not_seat_is_refused(kwargs):
    with pytest.raises(MalformedActionError):
        new_game(**kwargs)
