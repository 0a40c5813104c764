"""The bots do what their policy says, on hand-built tables."""

import random

from games.yankee import PlayCard, React, Swipe, apply
from games.yankee.party.simulate.policies import GreedyPolicy, HoarderPolicy, NeverStealPolicy, Seat
from tests.engine.builders import C, build, gift_id, ids


def seat_with(values, seat=0):
    return Seat(seat, values, random.Random(0))


def test_greedy_snatches_the_best_open_gift():
    g = build(4, hands=[[C.SNATCH, C.INSIDE_MAN], [], [], []], round=2, opened=[gift_id(s) for s in range(4)])
    me = seat_with({gift_id(0): 0.1, gift_id(1): 0.5, gift_id(2): 0.9, gift_id(3): 0.3})
    a = GreedyPolicy().turn(g, me)
    assert isinstance(a, PlayCard) and a.card == ids(g, 0, C.SNATCH)[0] and a.targets == (2,)


def test_greedy_keeps_a_gift_it_likes_and_swipes_with_its_cheapest_cards():
    opened = [gift_id(s) for s in range(3)]
    g = build(3, hands=[[C.TRIPWIRE, C.CASE_THE_JOINT, C.SWITCHEROO], [], []], round=2, opened=opened)
    happy = seat_with({gift_id(0): 0.95, gift_id(1): 0.5, gift_id(2): 0.9})
    a = GreedyPolicy().turn(g, happy)
    assert not isinstance(a, (PlayCard, Swipe)) or (isinstance(a, PlayCard) and a.targets == ())
    unhappy = seat_with({gift_id(0): 0.1, gift_id(1): 0.5, gift_id(2): 0.9})
    a = GreedyPolicy().turn(g, unhappy)
    assert isinstance(a, Swipe) and a.target == 2
    assert set(a.cards) == set(ids(g, 0, C.CASE_THE_JOINT) + ids(g, 0, C.SWITCHEROO))  # never the TRIPWIRE
    apply(g, a)  # legal


def test_greedy_grift_brings_the_target_gift_to_itself():
    for target in (1, 2, 3):
        opened = [gift_id(s) for s in range(4)]
        g = build(4, hands=[[C.THREE_GIFT_GRIFT], [], [], []], round=2, opened=opened)
        values = {gift_id(s): 0.2 for s in range(4)}
        values[gift_id(target)] = 0.9
        a = GreedyPolicy().turn(g, seat_with(values))
        g2, _ = apply(g, a)
        while g2.phase.value == "reaction":
            g2, _ = apply(g2, React(g2.pending.window.waiting()[0], None))
        assert g2.gifts[0] == gift_id(target)


def test_greedy_heist_ends_with_the_target_gift():
    opened = [gift_id(s) for s in range(4)]
    g = build(4, hands=[[C.YANKEE_HEIST, C.INSIDE_MAN], [], [], []], round=2, opened=opened)
    values = {gift_id(0): 0.1, gift_id(1): 0.3, gift_id(2): 0.8, gift_id(3): 0.2}
    a = GreedyPolicy().turn(g, seat_with(values))
    g2, _ = apply(g, a)
    while g2.phase.value == "reaction":
        g2, _ = apply(g2, React(g2.pending.window.waiting()[0], None))
    assert g2.gifts[0] == gift_id(2)


def test_greedy_blocks_only_to_keep_a_better_gift_and_the_hoarder_always_blocks():
    opened = [gift_id(s) for s in range(3)]
    g = build(3, hands=[[C.SNATCH], [C.NOT_SO_FAST, C.TRIPWIRE], []], round=2, opened=opened)
    g, _ = apply(g, PlayCard(0, ids(g, 0, C.SNATCH)[0], (1,)))
    likes_own = seat_with({gift_id(0): 0.1, gift_id(1): 0.9, gift_id(2): 0.5}, seat=1)
    likes_incoming = seat_with({gift_id(0): 0.9, gift_id(1): 0.1, gift_id(2): 0.5}, seat=1)
    assert GreedyPolicy().react(g, likes_own) == ids(g, 1, C.TRIPWIRE)[0]  # TRIPWIRE draws 2
    assert GreedyPolicy().react(g, likes_incoming) is None
    assert HoarderPolicy().react(g, likes_incoming) is not None
    assert NeverStealPolicy().react(g, likes_own) is None


def test_greedy_breaks_ties_at_random_so_seat_numbers_carry_no_effect():
    from collections import Counter

    snatched, pickpocketed = Counter(), Counter()
    for i in range(300):
        # Round 1: every other gift is wrapped, so all are worth the prior to seat 3.
        g = build(6, hands=[[], [], [], [C.SNATCH], [], []], active=3, round=1)
        g.peeks = tuple(frozenset({gift_id(s)}) for s in range(6))
        poor = Seat(3, {**{gift_id(s): 0.9 for s in range(6)}, gift_id(3): 0.1}, random.Random(i))
        snatched[GreedyPolicy().turn(g, poor).targets[0]] += 1
        # Every other hand holds one card: any of them is the richest.
        g = build(
            6, hands=[[C.SNATCH], [C.SNATCH], [C.SNATCH], [C.PICKPOCKET], [C.SNATCH], [C.SNATCH]], active=3, round=1
        )
        g.peeks = tuple(frozenset({gift_id(s)}) for s in range(6))
        happy = Seat(3, {**{gift_id(s): 0.1 for s in range(6)}, gift_id(3): 0.9}, random.Random(i))
        pickpocketed[GreedyPolicy().turn(g, happy).targets[0]] += 1
    for counts in (snatched, pickpocketed):
        assert set(counts) == {0, 1, 2, 4, 5} and min(counts.values()) > 35, counts
