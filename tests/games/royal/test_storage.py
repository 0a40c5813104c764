"""Storage and replay: to_dict is plain JSON and round-trips; the version grows by one
per action; seed + actions rebuild the stored game; apply never changes its input."""

import json
import random

from games.definition import Setup
from games.royal import ROYAL, Game, Phase, apply, bot_action, new_game, replay


def _played(seed, players, gate=False):
    g, _ = new_game(seed, players, gate=gate)
    r = random.Random(seed)
    actions = []
    while g.phase is not Phase.OVER:
        action = bot_action(g, r)
        before = g.to_dict()
        g2, events = apply(g, action)
        assert g.to_dict() == before  # the input is untouched
        assert g2.version == g.version + 1 and all(e.version == g2.version for e in events)
        actions.append(action)
        g = g2
    return g, actions


def test_to_dict_is_json_and_round_trips():
    g, _ = new_game("party-7", 5)
    for _ in range(3):
        data = json.loads(json.dumps(g.to_dict()))
        back = Game.from_dict(data)
        assert back == g and back.to_dict() == g.to_dict()
        g, _ = apply(g, bot_action(g, random.Random(1)))


def test_a_round_tripped_game_plays_on_identically():
    g, _ = new_game(11, 4)
    back = Game.from_dict(json.loads(json.dumps(g.to_dict())))
    r1, r2 = random.Random(3), random.Random(3)
    while g.phase is not Phase.OVER:
        a1, a2 = bot_action(g, r1), bot_action(back, r2)
        assert a1 == a2
        g, e1 = apply(g, a1)
        back, e2 = apply(back, a2)
        assert e1 == e2 and g == back


def test_replay_equals_the_stored_game():
    for seed, players, gate in [(1, 3, False), ("x", 8, True), (99, 5, True)]:
        g, actions = _played(seed, players, gate)
        wire = [ROYAL.parse_action(json.loads(json.dumps(ROYAL.action_to_dict(a)))) for a in actions]
        assert replay(seed, players, wire, gate=gate) == g
        assert ROYAL.replay(Setup(players=players, seed=seed, gate=gate), wire).to_dict() == g.to_dict()
        assert ROYAL.version(g) == 1 + len(actions)


def test_the_64_bit_generator_state_survives_json():
    g, _ = new_game(2**63 + 12345, 3)
    assert json.loads(json.dumps(g.to_dict()))["rng"] == str(g.rng)
    assert Game.from_dict(json.loads(json.dumps(g.to_dict()))).rng == g.rng
