"""Seeded determinism: replay reproduces a game exactly; to_dict/from_dict round-trip."""

import json
import random

import pytest

from games.yankee import (
    Game,
    Gift,
    Phase,
    PlayCard,
    React,
    RelayExchange,
    TimeoutPass,
    apply,
    new_game,
    replay,
)
from games.yankee.bots import bot_action
from tests.engine.builders import C, assert_cards_conserved, build, make_gifts, make_vault, one


def play_out(players, seed, *, vault=0, gate=False, bot_seed=0):
    """A whole game with random legal actions; returns (actions, final game, all states)."""
    gifts, vgifts = make_gifts(players), make_vault(vault)
    g, _ = new_game(seed=seed, gifts=gifts, vault=vgifts, gate=gate)
    r = random.Random(bot_seed)
    actions, states = [], [g]
    while g.phase is not Phase.OVER:
        a = bot_action(g, r)
        if a is None:  # at the gate with the seat drawn: a gift arrives from the next table
            a = RelayExchange(Gift(id=777, description="relayed"))
        g, _ = apply(g, a)
        actions.append(a)
        states.append(g)
    return gifts, vgifts, actions, g, states


@pytest.mark.parametrize(
    "players, seed, vault, gate",
    [(2, 1, 0, False), (3, "abc", 1, False), (5, 77, 3, True), (10, 2024, 0, True), (4, 5, 2, False)],
)
def test_replay_reproduces_the_game_exactly(players, seed, vault, gate):
    gifts, vgifts, actions, final, states = play_out(players, seed, vault=vault, gate=gate, bot_seed=players)
    again = replay(seed=seed, gifts=gifts, vault=vgifts, gate=gate, actions=actions)
    assert again.to_dict() == final.to_dict()
    assert final.phase is Phase.OVER and final.round == 4
    if gate:
        assert final.relayed and 777 in final.gifts + final.vault
    # every state along the way: cards conserved, one gift per seat, vault size constant
    expected_gifts = sorted({g.id for g in gifts} | {v.id for v in vgifts})
    for s in states:
        assert_cards_conserved(s)
        assert len(s.gifts) == players and len(s.vault) == vault
        held = sorted(s.gifts + s.vault)
        assert len(set(held)) == len(held)
        if not s.relayed:
            assert held == expected_gifts


def test_different_bot_choices_give_different_games():
    a = play_out(4, 3, bot_seed=1)[3]
    b = play_out(4, 3, bot_seed=2)[3]
    assert a.to_dict() != b.to_dict()


def test_to_dict_from_dict_round_trip_at_every_step():
    _, _, _, _, states = play_out(6, 31, vault=2, gate=True, bot_seed=9)
    phases = set()
    for s in states:
        d = s.to_dict()
        wire = json.loads(json.dumps(d))
        back = Game.from_dict(wire)
        assert back.to_dict() == d
        assert back == s
        phases.add(s.phase)
    assert {Phase.ACTION, Phase.REACTION, Phase.REVEAL, Phase.GATE, Phase.OVER} <= phases


def test_a_restored_window_with_answers_and_a_forced_pass_continues_identically():
    g = build(5, hands=[[], [C.TRIPWIRE], [C.SWITCHEROO], [], [C.NOT_SO_FAST]], active=2, seed="x")
    g1, _ = apply(g, PlayCard(2, one(g, 2, C.SWITCHEROO), (1, 4)))
    g2, _ = apply(g1, React(1, one(g, 1, C.TRIPWIRE)))
    g3, _ = apply(g2, TimeoutPass(4))
    for state in (g1, g2):
        restored = Game.from_dict(json.loads(json.dumps(state.to_dict())))
        assert restored == state
    restored = Game.from_dict(json.loads(json.dumps(g2.to_dict())))
    out_a, ev_a = apply(g2, TimeoutPass(4))
    out_b, ev_b = apply(restored, TimeoutPass(4))
    assert out_a.to_dict() == out_b.to_dict() and ev_a == ev_b
    assert out_a.to_dict() == g3.to_dict()


def test_same_seed_and_actions_same_events():
    gifts = make_gifts(3)
    g1, _e1 = new_game(seed=42, gifts=gifts)
    g2, _e2 = new_game(seed=42, gifts=gifts)
    r1, r2 = random.Random(5), random.Random(5)
    for _ in range(30):
        if g1.phase is Phase.OVER:
            break
        a1, a2 = bot_action(g1, r1), bot_action(g2, r2)
        assert a1 == a2
        g1, x1 = apply(g1, a1)
        g2, x2 = apply(g2, a2)
        assert x1 == x2
    assert g1.to_dict() == g2.to_dict()


def test_inlined_shuffle_draws_exactly_what_below_draws():
    """rng.shuffle inlines SplitMix64 + Lemire for speed; it must stay identical to the
    step-by-step Fisher-Yates over rng.below, or stored games would replay differently."""
    from games import rng

    def reference(state, items):
        for i in range(len(items) - 1, 0, -1):
            j, state = rng.below(state, i + 1)
            items[i], items[j] = items[j], items[i]
        return state

    for seed in range(300):
        for size in (0, 1, 2, 10, 44, 54):
            a, b = list(range(size)), list(range(size))
            state = rng.seed_state(seed)
            assert rng.shuffle(state, a) == reference(state, b)
            assert a == b
