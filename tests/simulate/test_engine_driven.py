"""The simulator drives the real engine: its games replay with the engine's own
`replay`, the in-place apply plays exactly the games the copying apply plays, and every
bot action is legal (the copying apply refuses illegal ones)."""

import random

import pytest

from games.yankee import Phase, replay
from games.yankee.party.simulate.play import POLICIES, play_party, play_table
from games.yankee.rules import apply


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("players, vault", [(2, 0), (3, 1), (6, 0), (10, 3)])
def test_a_simulated_game_replays_from_its_seed_and_actions(policy, players, vault):
    for seed in (1, 2, 3):
        t = play_table(seed=seed, players=players, policies=(policy,), vault=vault, record=True, in_place=False)
        assert t.game.phase is Phase.OVER and t.game.round == 4
        again = replay(seed=seed, actions=t.actions, **t.setup)
        assert again.to_dict() == t.game.to_dict()
        assert again.gifts == t.final


def test_a_game_under_the_house_rule_replays_and_differs_from_the_rulebook_game():
    t = play_table(seed=21, players=6, last_call_draw=2, record=True)
    plain = play_table(seed=21, players=6, record=True)
    assert replay(seed=21, actions=t.actions, **t.setup).to_dict() == t.game.to_dict()
    assert t.game.last_call_draw == 2 and plain.game.last_call_draw == 0
    from games.yankee import new_game

    g, _ = new_game(seed=21, **plain.setup)
    k = 0
    while g.round < 4:
        g, _ = apply(g, plain.actions[k])
        k += 1
    assert t.actions[:k] == plain.actions[:k]  # the same game until round 4 starts ...
    assert t.actions[k:] != plain.actions[k:]  # ... where the refill changes what happens


def test_a_simulated_party_replays_table_by_table_through_the_relay():
    p = play_party(seed=5, guests=23, policies=("greedy", "random", "hoarder"), vault=1, record=True)
    assert p.relayed and [t.players for t in p.tables] == [8, 8, 7]
    every_gift = set()
    for t in p.tables:
        again = replay(seed=t.seed, actions=t.actions, **t.setup)
        assert again.to_dict() == t.game.to_dict()
        assert again.relayed and again.phase is Phase.OVER
        every_gift |= set(t.final) | set(t.vault)
    # the relay moved gifts between tables but no gift was lost or duplicated
    assert len(every_gift) == 23 + 3 == sum(t.gifts for t in p.tables)


def test_in_place_apply_plays_the_same_games_as_the_copying_apply():
    r = random.Random(12)
    names = sorted(POLICIES)
    for seed in range(400):
        players, vault = r.randint(2, 10), r.randint(0, 3)
        pols = tuple(r.choice(names) for _ in range(r.randint(1, 3)))
        a = play_table(seed=seed, players=players, policies=pols, vault=vault, record=True, in_place=True)
        b = play_table(seed=seed, players=players, policies=pols, vault=vault, record=True, in_place=False)
        assert a.actions == b.actions
        assert a.game.to_dict() == b.game.to_dict()
        assert (a.ranks, a.counts) == (b.ranks, b.counts)
    for seed in range(4):
        a = play_party(seed=seed, guests=31, vault=2, record=True, in_place=True)
        b = play_party(seed=seed, guests=31, vault=2, record=True, in_place=False)
        assert [t.game.to_dict() for t in a.tables] == [t.game.to_dict() for t in b.tables]


def test_in_place_apply_changes_the_game_it_is_given_and_apply_does_not():
    from games.yankee import Regroup
    from games.yankee.rules import apply_in_place
    from tests.engine.builders import start

    g, _ = start(4)
    before = g.to_dict()
    g2, _ = apply(g, Regroup(g.active, ()))
    assert g.to_dict() == before and g2 is not g
    g3, events = apply_in_place(g, Regroup(g.active, ()))
    assert g3 is g and g.to_dict() == g2.to_dict()
    assert [e.type for e in events][:2] == ["regrouped", "turn_started"]


def test_counts_match_the_engine_events():
    t = play_table(seed=9, players=5, record=True, in_place=False)
    from games.yankee import new_game

    g, _ = new_game(seed=9, **t.setup)
    types = []
    for a in t.actions:
        g, ev = apply(g, a)
        types += [e.type for e in ev]
    assert t.total(0) == 20  # turns: 4 rounds of 5
    assert t.total(1) == types.count("window_opened")
    assert t.total(3) == types.count("blocked")
    assert t.total(5) == types.count("gifts_moved")
