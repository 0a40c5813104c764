"""House rule LAST CALL refill (engine option `last_call_draw`, off by default): at the
start of round 4 every player holding fewer than 5 cards draws up to N, clockwise from
the round's starter, never past 5. The rulebook's game is unchanged without it."""

import random

import pytest

from games.yankee import ConfirmReveal, Game, MalformedActionError, Phase, Regroup, apply, new_game, replay
from games.yankee.bots import bot_action
from tests.engine.builders import C, build, make_gifts


def play_to_round_4(seed, players, last_call_draw, bot_seed=1):
    g, _ = new_game(seed=seed, gifts=make_gifts(players), last_call_draw=last_call_draw)
    r = random.Random(bot_seed)
    actions = []
    while True:
        before = g
        a = bot_action(g, r)
        g, events = apply(g, a)
        actions.append(a)
        if any(e.type == "round_started" and e.data["round"] == 4 for e in events):
            return before, g, events, actions


@pytest.mark.parametrize("draw, expected", [(1, [(1, 1), (2, 1), (3, 1)]), (2, [(1, 2), (2, 2), (3, 1)])])
def test_every_player_under_five_draws_up_to_n_at_the_start_of_round_4(draw, expected):
    # Seat 3 takes round 3's last turn (starter 0) and passes: round 4 starts at seat 1.
    g = build(4, hands=[[C.SNATCH] * 5, [C.TRIPWIRE, C.SNATCH], [], [C.INSIDE_MAN] * 4], round=3, active=3, starter=0)
    g.last_call_draw = draw
    g, events = apply(g, Regroup(3, ()))
    assert g.round == 4 and g.starter == 1
    refills = [
        (e.data["seat"], e.data["count"]) for e in events if e.type == "drew" and e.data["reason"] == "last_call"
    ]
    assert refills == expected  # clockwise from the starter; seat 0 holds 5 and draws none
    sizes = [5, 2 + dict(expected)[1] + 1, dict(expected)[2], 4 + dict(expected)[3]]  # seat 1 also drew its turn card
    assert [len(h) for h in g.hands] == sizes
    assert all(len(h) <= 5 for s, h in enumerate(g.hands) if s != 1)


def test_the_refill_happens_only_at_round_4():
    for round_ in (1, 2):
        g = build(4, hands=[[], [], [], [C.INSIDE_MAN]], round=round_, active=3, starter=0)
        g.last_call_draw = 2
        g, events = apply(g, Regroup(3, ()))
        if g.phase is Phase.REVEAL:
            g, events = apply(g, ConfirmReveal())
        assert g.round == round_ + 1
        assert not [e for e in events if e.type == "drew" and e.data["reason"] == "last_call"]


def test_without_the_house_rule_nobody_draws_and_the_stored_state_is_unchanged():
    _before, after, events, _ = play_to_round_4(3, 6, 0)
    assert not [e for e in events if e.type == "drew" and e.data["reason"] == "last_call"]
    assert "last_call_draw" not in after.to_dict()  # default games store exactly as before
    assert Game.from_dict(after.to_dict()).last_call_draw == 0


def test_the_house_rule_travels_with_the_state_and_replays():
    _before, after, _, actions = play_to_round_4(4, 5, 2)
    d = after.to_dict()
    assert d["last_call_draw"] == 2 and Game.from_dict(d).to_dict() == d
    again = replay(seed=4, gifts=make_gifts(5), last_call_draw=2, actions=actions)
    assert again.to_dict() == d and again.phase is Phase.ACTION and again.round == 4


@pytest.mark.parametrize("bad", [-1, 6, "2", True])
def test_a_bad_refill_is_refused(bad):
    with pytest.raises(MalformedActionError):
        new_game(seed=1, gifts=make_gifts(4), last_call_draw=bad)
