"""BLINKS behind the party's seam (games/definition.py): its facts, the options a host
sets, roles and seats, the throw clock and its stand-in, what each screen sees."""

import json

import pytest

from games.blinks import (
    BLINKS,
    Confirm,
    EndTurn,
    MalformedActionError,
    Overrule,
    PassTurn,
    Phase,
    Throw,
    Undo,
    apply,
    public_view,
    rules_for_screens,
    seat_view,
)
from games.definition import Features, Role, Setup
from tests.games.blinks.builders import record, table, throw


def test_the_definition_s_constants():
    assert (BLINKS.name, BLINKS.title) == ("blinks", "Blinks Heist")
    assert (BLINKS.min_players, BLINKS.max_players, BLINKS.table_max) == (2, 8, 8)
    assert BLINKS.features == Features(gifts=False, vaults=False, relay=False, gate=False, games=1, max_games=1)


def test_the_host_s_options():
    g, events = BLINKS.setup(Setup(players=4, seed="s", options={"vault": 30, "alternate": True}))
    assert g.vault == 30 and g.health == [4] * 30 and g.alternate
    assert events[0].type == "game_started" and events[0].data["vault"] == 30
    assert BLINKS.setup(Setup(players=4, seed="s"))[0].vault == 10  # the default vault
    for options in ({"vault": 2}, {"vault": 31}, {"vault": "9"}, {"alternate": 1}, {"colour": "red"}):
        with pytest.raises(MalformedActionError):
            BLINKS.setup(Setup(players=4, seed="s", options=options))
    with pytest.raises(MalformedActionError):
        BLINKS.setup(Setup(players=4, seed="s", games=2))


def test_roles_and_seats():
    assert BLINKS.role_of(Throw(2, 1, None, False)) is Role.SEAT and BLINKS.seat_of(Throw(2, 1, None, False)) == 2
    assert BLINKS.role_of(EndTurn(1)) is Role.SEAT and BLINKS.seat_of(EndTurn(1)) == 1
    for duty in (Confirm(1), Overrule(1, None, True), Undo(1)):
        assert BLINKS.role_of(duty) is Role.DUTY and BLINKS.seat_of(duty) is None
    assert BLINKS.role_of(PassTurn(3)) is Role.DUTY and BLINKS.seat_of(PassTurn(3)) == 3
    with pytest.raises(MalformedActionError):
        BLINKS.role_of("throw")


def test_the_throw_clock_waits_for_the_thrower_and_passes_their_turn():
    g = table(3)
    clock = BLINKS.clock(g, {})
    assert clock is not None and clock.step == "throw" and clock.waiting == (0,) and clock.seconds == 60.0
    assert clock.stand_in == PassTurn(0)
    assert BLINKS.clock(g, {"throw": 90.0}).seconds == 90.0
    g, _ = record(g, 1)
    assert BLINKS.clock(g, {}) is None  # the captain's tap is not clocked
    g, _ = apply(g, Confirm(1))
    g, _ = apply(g, BLINKS.clock(g, {}).stand_in)
    assert g.turn == 2 and g.health[0] == 3


def test_legal_actions():
    g = table(2, vault=3)
    assert BLINKS.waiting_for(g) == (0,)
    mine = BLINKS.legal_actions(g, 0)
    assert len(mine) == 8 and Throw(0, 1, None, True) in mine and Throw(0, 1, 3, False) in mine
    assert BLINKS.legal_actions(g, 1) == []
    assert BLINKS.legal_actions(g, None) == [PassTurn(0)]
    g, _ = record(g, 2)
    assert BLINKS.legal_actions(g, 0) == [] and BLINKS.waiting_for(g) == ()
    duties = BLINKS.legal_actions(g, None)
    assert duties[0] == Confirm(1) and Overrule(1, None, False) in duties and len(duties) == 9
    g, _ = apply(g, Confirm(1))
    assert BLINKS.legal_actions(g, None) == [PassTurn(1), Undo(1)]
    g = table(2, vault=3, alternate=True)
    g, _ = throw(g, 1)
    assert EndTurn(0) in BLINKS.legal_actions(g, 0)


def test_what_each_screen_sees():
    g = table(3, vault=4, teams=[1, 0, 1])
    g, _ = throw(g, 2)
    g, _ = record(g, 3, touched=True)
    view = public_view(g)
    json.dumps(view)
    assert view["vault"][1] == {"blink": 2, "health": 3, "claimed_by": None, "team": None}
    assert view["pending"] == {"throw": 2, "seat": 1, "hit": 3, "touched": True}
    assert view["turn"] == 1 and view["next_throw"] == 3 and view["phase"] == "confirm"
    assert [s["colour"] for s in view["seats"]] == ["blue", "red", "blue"]
    mine = seat_view(g, 0)
    assert mine["you"] == 0 and mine["your_team"] == 1 and mine["your_blinks"] == []
    assert not mine["your_turn"] and {k: mine[k] for k in view} == view
    for private in BLINKS.private_keys():
        assert private not in view and private in mine


def test_the_rules_for_the_screens():
    rules = rules_for_screens(str.upper)
    json.dumps(rules)
    assert rules["health"] == 4 and rules["vault"] == {"default": 10, "min": 3, "max": 30}
    assert [t["name"] for t in rules["teams"]] == ["RED", "BLUE", "GREEN", "YELLOW"]
    assert rules["rules"]["recorded"].startswith("THAT THROW")


def test_every_refusal_has_a_sentence_and_every_event_is_catalogued():
    import games.blinks.errors as errors
    from games.blinks import EVENTS, RULE_TEXT

    rules = {cls.rule for cls in vars(errors).values() if isinstance(cls, type) and hasattr(cls, "rule")}
    assert rules - {"illegal"} <= set(RULE_TEXT)
    g = table(2, vault=3, alternate=True)
    seen = set()
    for action in (
        Throw(0, 1, 1, True),
        Confirm(1),
        Undo(1),
        Throw(0, 2, 1, False),
        Overrule(2, 1, False),
        EndTurn(0),
        PassTurn(1),
    ):
        g, events = apply(g, action)
        seen |= {e.type for e in events}
        for e in events:
            assert tuple(e.data) == EVENTS[e.type], e.type
    assert g.phase is Phase.THROW and seen <= set(EVENTS)
