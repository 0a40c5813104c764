"""YANKEE says what the host does today: its clocks, its roles, its table size, its setup.

The conformance suite (tests/games/conformance) checks YANKEE agrees with itself; these
check it agrees with the party host it will replace the direct engine calls of.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from events.models import DEFAULT_STEP_CLOCK, STEP_CLOCKS
from games.definition import Role, Setup, Standing
from games.royal import ROYAL
from games.yankee import (
    CLOCKED_PHASES,
    ConfirmReveal,
    DrawRelaySeat,
    Gift,
    MalformedActionError,
    Phase,
    PlayCard,
    React,
    Regroup,
    RelayExchange,
    Swipe,
    TimeoutPass,
    Trim,
    VaultExchange,
    action_to_dict,
    new_game,
    stand_in,
)
from games.yankee.definition import DUTY_ACTIONS, SEAT_ACTIONS, SERVER_ACTIONS, STEP_OF_PHASE, YANKEE
from games.yankee.definition import REACTION_SECONDS as REACTION_TIMEOUT_SECONDS
from tables.seating import MAX_TABLE
from tests.engine.builders import C, build, pass_turns

ROOT = Path(__file__).resolve().parents[2]
ONE_OF_EACH = [
    PlayCard(0, 1, (1,)),
    Swipe(0, (1, 2), 1),
    Regroup(0, ()),
    VaultExchange(0, (1, 2), 1001),
    React(1, None, 3),
    Trim(0, (1,)),
    TimeoutPass(0),
    ConfirmReveal(),
    DrawRelaySeat(),
    RelayExchange(Gift(7, "a kite")),
]


def test_the_table_sizes_are_the_party_s() -> None:
    assert (YANKEE.min_players, YANKEE.max_players, YANKEE.table_max) == (2, 10, MAX_TABLE)


def test_each_action_has_the_role_the_host_checks() -> None:
    by_host = {**dict.fromkeys(SEAT_ACTIONS, Role.SEAT), **dict.fromkeys(DUTY_ACTIONS, Role.DUTY)}
    by_host |= dict.fromkeys(SERVER_ACTIONS, Role.SERVER)
    roles = {action_to_dict(a)["type"]: YANKEE.role_of(a) for a in ONE_OF_EACH}
    assert roles == by_host
    assert [YANKEE.seat_of(a) for a in ONE_OF_EACH] == [0, 0, 0, 0, 1, 0, 0, None, None, None]


def test_the_clocked_steps_are_the_host_s() -> None:
    assert set(STEP_OF_PHASE) == CLOCKED_PHASES
    standin_js = (ROOT / "static/heist/standin.js").read_text()
    # the screens' stand-ins read the step from the table (tables/selectors.py
    # step_for_screens, issue 38): the host's script names no game's step
    steps = set(YANKEE.clock_steps()) | set(ROYAL.clock_steps())
    assert set(re.findall(r'"(\w+)"', standin_js)) & steps == set()
    assert YANKEE.clock_steps() == {
        "turn": DEFAULT_STEP_CLOCK,
        "reaction": REACTION_TIMEOUT_SECONDS,
        "trim": DEFAULT_STEP_CLOCK,
        "reveal": DEFAULT_STEP_CLOCK,
    }


@pytest.mark.parametrize("party_clock", STEP_CLOCKS)
def test_a_step_gets_the_party_s_clock_and_a_reaction_at_most_the_rulebook_s(party_clock: int) -> None:
    seconds = dict.fromkeys(YANKEE.clock_steps(), float(party_clock))
    turn = build(3, hands=[[C.SNATCH, C.INSIDE_MAN], [], []])
    clock = YANKEE.clock(turn, seconds)
    if party_clock:
        assert clock is not None and (clock.step, clock.waiting, clock.seconds) == ("turn", (0,), party_clock)
        assert clock.stand_in == stand_in(turn) == TimeoutPass(0)
    else:
        assert clock is None  # the clock is off: the turn waits for its guest
    reaction, _ = YANKEE.apply(turn, Swipe(0, turn.hands[0][:2], 1))
    assert reaction.phase is Phase.REACTION
    clock = YANKEE.clock(reaction, seconds)
    expected = min(party_clock, REACTION_TIMEOUT_SECONDS) if party_clock else REACTION_TIMEOUT_SECONDS
    assert clock is not None and (clock.step, clock.waiting, clock.seconds) == ("reaction", (1,), expected)


def test_the_reveal_is_clocked_and_the_gate_and_the_end_are_not() -> None:
    game, _ = pass_turns(build(3, gate=True), 3)
    assert game.phase is Phase.REVEAL
    clock = YANKEE.clock(game, YANKEE.clock_steps())
    assert clock is not None and (clock.step, clock.waiting, clock.stand_in) == ("reveal", (), ConfirmReveal())
    game, _ = YANKEE.apply(game, ConfirmReveal())
    game, _ = pass_turns(game, 3)
    assert YANKEE.at_gate(game) and YANKEE.clock(game, YANKEE.clock_steps()) is None
    assert YANKEE.gate_opened(game) == DrawRelaySeat()
    assert YANKEE.legal_actions(game, None) == [DrawRelaySeat()]
    game, _ = YANKEE.apply(game, DrawRelaySeat())
    assert YANKEE.at_gate(game) and YANKEE.gate_opened(game) is None and YANKEE.legal_actions(game, None) == []
    arrival = YANKEE.relay_arrival(game, 5000, "a kite")
    assert arrival == RelayExchange(Gift(5000, "a kite")) and YANKEE.role_of(arrival) is Role.SERVER
    game, _ = YANKEE.apply(game, arrival)
    game, _ = pass_turns(game, 6)
    assert YANKEE.is_over(game) and YANKEE.clock(game, YANKEE.clock_steps()) is None
    assert YANKEE.standings(game) == [Standing(seat=s, score=0, rank=1, winner=False) for s in range(3)]


def test_setup_hands_its_options_to_the_engine() -> None:
    gifts = [{"id": 1, "description": "a kite", "brought_by": 1}, {"id": 2, "description": "socks", "brought_by": None}]
    vault = [{"id": 1001, "description": "a mug"}]
    setup = Setup(players=2, seed="s", gate=True, options={"gifts": gifts, "vault": vault, "last_call_draw": 2})
    game, events = YANKEE.setup(setup)
    expected, expected_events = new_game(
        seed="s",
        gifts=[Gift(1, "a kite", 1), Gift(2, "socks", None)],
        vault=[Gift(1001, "a mug")],
        gate=True,
        last_call_draw=2,
    )
    assert game.to_dict() == expected.to_dict() and events == expected_events


def test_setup_without_gifts_gives_each_seat_its_own() -> None:
    game, _ = YANKEE.setup(Setup(players=3, seed=1))
    assert sorted(game.descriptions.items()) == [(1, "gift 1"), (2, "gift 2"), (3, "gift 3")]
    assert all(s + 1 in game.peeks[s] for s in range(3))  # each bringer knows its own gift


@pytest.mark.parametrize(
    "options",
    [
        {"gift": []},
        {"gifts": [{"id": 1, "description": "a kite", "brought_by": 0}]},
        {"gifts": "two gifts"},
        {"gifts": [{"id": 1, "description": "a kite"}, {"id": "2", "description": "socks"}]},
        {"gifts": [{"id": 1, "description": "a kite"}, {"id": 2, "description": 5}]},
        {"gifts": [{"id": 1, "description": "a kite"}, {"id": 2, "description": "socks", "brought_by": "me"}]},
        {"gifts": [{"id": 1, "description": "a kite"}, {"id": 2, "description": "socks", "colour": "red"}]},
        {"vault": [{"id": 1001, "description": "a mug", "brought_by": 0}]},
        {"vault": {"id": 1001}},
        {"last_call_draw": 9},
    ],
)
def test_setup_refuses_options_it_does_not_know(options: dict[str, object]) -> None:
    with pytest.raises(MalformedActionError) as refused:
        YANKEE.setup(Setup(players=2, seed=1, options=options))
    assert refused.value.rule == "malformed"
