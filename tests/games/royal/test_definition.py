"""ROYAL behind the party's seam (games/definition.py): roles, seats, the decide clock and
its stand-in, standings, what the screens get."""

import json
import random

import pytest

from games.definition import Features, Role, Setup
from games.royal import ROYAL, Decide, MalformedActionError, OpenGate, Phase, TimeoutDecide, apply
from tests.games.royal.builders import decide, rigged


def test_the_definitions_constants():
    assert (ROYAL.name, ROYAL.title) == ("royal", "Royal Heist")
    assert (ROYAL.min_players, ROYAL.max_players, ROYAL.table_max) == (3, 8, 8)
    assert ROYAL.features == Features(gifts=False, vaults=False, relay=False, gate=True, games=3, max_games=4)


def test_roles_and_seats():
    assert ROYAL.role_of(Decide(2, True)) is Role.SEAT and ROYAL.seat_of(Decide(2, True)) == 2
    assert ROYAL.role_of(TimeoutDecide(1)) is Role.DUTY and ROYAL.seat_of(TimeoutDecide(1)) == 1
    assert ROYAL.role_of(OpenGate()) is Role.SERVER and ROYAL.seat_of(OpenGate()) is None
    with pytest.raises(MalformedActionError):
        ROYAL.role_of("decide")


def test_the_decide_clock_waits_for_the_undecided_and_stands_in_with_get_out():
    g = rigged(4, run=["8H", "JS"])
    g, _ = decide(g, {1: True})
    clock = ROYAL.clock(g, {})
    assert clock is not None
    assert clock.step == "decide" and clock.waiting == (0, 2, 3) and clock.seconds == 20.0
    assert clock.stand_in == TimeoutDecide(0)
    assert ROYAL.clock(g, {"decide": 45.0}).seconds == 45.0
    assert ROYAL.clock_steps() == {"decide": 20.0}
    g, events = apply(g, clock.stand_in)
    assert g.decisions[0] is False and g.timed_out == (0,)
    g, events = decide(g, {2: True, 3: True})
    revealed = next(e for e in events if e.type == "revealed")
    assert revealed.data["choices"]["0"] == "get_out" and revealed.data["timed_out"] == [0]
    assert 0 not in g.inside and g.banks[0] == 2 + 0  # 8H: 2 each, 0 left


def test_legal_actions():
    g = rigged(3, run=["8H", "JS"])
    assert ROYAL.legal_actions(g, 1) == [Decide(1, True), Decide(1, False)]
    assert ROYAL.legal_actions(g, None) == [TimeoutDecide(0), TimeoutDecide(1), TimeoutDecide(2)]
    g, _ = decide(g, {1: True})
    assert ROYAL.legal_actions(g, 1) == []


def test_the_bot_acts_for_a_seat_or_for_anyone_waited_for():
    g = rigged(3, run=["8H", "JS"])
    r = random.Random(0)
    assert ROYAL.bot_action(g, r, 2).seat == 2
    assert ROYAL.bot_action(g, r).seat in (0, 1, 2)
    g, _ = decide(g, {2: True})
    assert ROYAL.bot_action(g, r, 2) is None


def test_setup_options():
    g, _ = ROYAL.setup(Setup(players=5, seed="abc"))
    assert g.heists == 5 and g.players == 5 and g.phase is Phase.DECIDE
    with pytest.raises(MalformedActionError):
        ROYAL.setup(Setup(players=5, seed=1, options={"rounds": 3}))
    with pytest.raises(MalformedActionError):
        ROYAL.setup(Setup(players=5, seed=1, options={"heists": "5"}))


def test_rules_for_screens_is_json_and_names_every_card():
    rules = ROYAL.rules_for_screens()
    assert json.loads(json.dumps(rules)) == rules
    assert len(rules["run_deck"]) == 34 and len(rules["side_stack"]) == 16 and len(rules["cards"]) == 50
    assert rules["cards"]["7D"] == {"title": "7 of diamonds", "kind": "bonus", "rank": "7", "value": 7, "pile": "run"}
    assert rules["cards"]["X1"]["kind"] == "danger" and rules["cards"]["X1"]["value"] is None
    assert rules["cards"]["QS"]["title"] == "Queen of spades"
    assert rules["cards"]["5C"]["pile"] == "side"
    assert rules["bonus_range"] == [4, 18] and rules["heists"]["gate_after"] == 2
    assert rules["decide_default"] == "get_out"


def test_standings_rank_by_bank():
    g = rigged(3, run=["8H"], banks=[4, 9, 4])
    assert [(s.seat, s.rank, s.winner) for s in ROYAL.standings(g)] == [(0, 2, False), (1, 1, True), (2, 2, False)]
