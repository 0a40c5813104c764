"""Turns in order, skips, and the alternate rule (docs/RULES.md, "Blinks Heist").

A turn is one throw; an accidental connect on the way back skips the thrower's next
turn, exactly one; with the alternate rule a thrower throws on after a hit until a miss
(which ends the turn and skips the next) or until they stop.
"""

import pytest

from games.blinks import EndTurn, EndTurnError, PassTurn, Phase, Throw, WrongPhaseError, apply, new_game
from tests.games.blinks.builders import of, record, table, throw, throws


def test_the_seed_draws_who_throws_first_and_turns_go_round_in_seat_order():
    firsts = {new_game(seed, 5)[0].turn for seed in range(40)}
    assert firsts == set(range(5))
    g = table(3, first=1)
    seen = []
    for _ in range(6):
        seen.append(g.turn)
        g, _ = throw(g, None)
    assert seen == [1, 2, 0, 1, 2, 0]


def test_a_touch_on_the_way_back_skips_exactly_one_turn():
    g = table(3)
    g, events = throw(g, 1, touched=True)  # seat 0 hits, then touches: skips its next turn
    assert of(events, "skip_earned")[0].data == {"seat": 0, "reason": "touched"}
    assert g.health[0] == 3  # the hit counts; the touch is no attack
    order = []
    for _ in range(7):
        order.append(g.turn)
        g, events = throw(g, None)
    # 1, 2, (0 skipped), 1, 2, 0, 1: the next turn after the skip is played
    assert order == [1, 2, 1, 2, 0, 1, 2]
    assert not any(g.skips)


def test_the_skipped_turn_is_announced_and_used_up():
    g = table(3)
    g, _ = throw(g, None, touched=True)
    g, _ = throw(g, None)  # seat 1
    g, events = throw(g, None)  # seat 2; seat 0's turn is skipped
    assert [e.data["seat"] for e in of(events, "skipped")] == [0]
    assert g.turn == 1 and g.skips == [False, False, False]


def test_two_players_both_skipping():
    g = table(2)
    g, _ = throw(g, None, touched=True)  # seat 0 skips its next turn
    g, events = throw(g, None, touched=True)  # seat 1 skips its next turn too
    # seat 0's turn is skipped, then seat 1's: seat 0 throws, each having missed one turn
    assert [e.data["seat"] for e in of(events, "skipped")] == [0, 1]
    assert g.turn == 0 and g.skips == [False, False]


def test_a_skip_is_one_turn_however_it_was_earned():
    # the alternate rule: a miss that also touched skips one turn, not two
    g = table(3, alternate=True)
    g, events = throw(g, None, touched=True)
    assert len(of(events, "skip_earned")) == 1
    order = []
    for blink in (1, 2, 3, 4, 5):
        order.append(g.turn)
        g, _ = throw(g, blink)
        g, _ = apply(g, EndTurn(g.turn))
    assert order == [1, 2, 1, 2, 0]


def test_the_alternate_rule_throws_on_after_a_hit():
    g = table(3, alternate=True)
    g, _ = throw(g, 1)
    assert g.turn == 0 and g.thrown == 1 and g.phase is Phase.THROW
    g, _ = throw(g, 2)
    assert g.turn == 0 and g.thrown == 2
    g, events = throw(g, None)  # a miss ends the turn and skips the next
    assert of(events, "skip_earned")[0].data == {"seat": 0, "reason": "missed"}
    assert g.turn == 1 and g.thrown == 0 and g.skips[0]
    g, events = throws(g, None, None)  # seats 1 and 2 miss too, each skipping its next
    # every seat's next turn is skipped once, in order; then seat 0 throws again
    assert [e.data["seat"] for e in of(events, "skipped")] == [0, 1, 2]
    assert g.turn == 0 and g.skips == [False, False, False]


def test_the_alternate_rule_ends_a_turn_on_a_touch():
    g = table(3, alternate=True)
    g, _ = throw(g, 1, touched=True)
    assert g.turn == 1 and g.skips[0] and g.health[0] == 3


def test_a_thrower_stops_only_after_a_throw_and_only_by_the_alternate_rule():
    g = table(3, alternate=True)
    with pytest.raises(EndTurnError) as refused:
        apply(g, EndTurn(0))
    assert refused.value.rule == "end_turn"
    g, _ = throw(g, 1)
    g, events = apply(g, EndTurn(0))
    assert of(events, "turn_ended")[0].data == {"seat": 0, "throws": 1}
    assert g.turn == 1 and not g.skips[0]
    g = table(3)
    g, _ = record(g, 1)
    with pytest.raises(WrongPhaseError):  # a record waits for the captain
        apply(g, EndTurn(0))
    g = table(3)
    with pytest.raises(EndTurnError):
        apply(g, EndTurn(0))


def test_a_passed_turn_moves_on_without_a_throw():
    g = table(3)
    g, events = apply(g, PassTurn(0))
    assert g.turn == 1 and g.throws == 0 and of(events, "passed")
    # the next record is still throw 1
    g, _ = apply(g, Throw(1, 1, None, False))
    assert g.pending is not None and g.pending.throw == 1
