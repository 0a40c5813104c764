"""The rules' do-nothing choice for a guest whose step clock ran out (docs/RULES.md,
"When a guest does not answer"): a turn passed, a reaction let happen, a trim
discarded at random from the game's own generator, the reveal confirmed."""

from __future__ import annotations

import pytest

from games.yankee import (
    ConfirmReveal,
    Direction,
    IllegalActionError,
    OutOfTurnError,
    Phase,
    PlayCard,
    React,
    TimeoutPass,
    WrongPhaseError,
    apply,
    stand_in,
)
from tests.engine.builders import C, act, assert_cards_conserved, build, of_type, one, pass_turns, start


def test_a_turn_passed_is_a_regroup_of_nothing_and_the_next_seat_plays():
    g = build(4, hands=[[C.SNATCH, C.INSIDE_MAN], [C.TRIPWIRE], [], []], draw=[C.PICKPOCKET])
    hand = g.hands[0]
    assert stand_in(g) == TimeoutPass(seat=0)
    g2, events = apply(g, TimeoutPass(0))
    assert g2.hands[0] == hand  # nothing played, nothing discarded, nothing drawn
    assert g2.gifts == g.gifts
    assert [e.type for e in events[:2]] == ["turn_timed_out", "regrouped"]
    assert of_type(events, "regrouped")[0].data == {"seat": 0, "count": 0, "cards": []}
    assert g2.phase is Phase.ACTION and g2.active == 1
    assert_cards_conserved(g2)


def test_only_the_active_seats_turn_can_be_passed():
    g = build(4, hands=[[C.SNATCH], [C.TRIPWIRE], [], []])
    with pytest.raises(OutOfTurnError):
        apply(g, TimeoutPass(2))


def test_a_pass_meant_for_a_closed_reaction_window_never_passes_a_turn():
    g = build(4, hands=[[C.SNATCH], [], [], []])
    with pytest.raises(IllegalActionError, match="has closed"):
        apply(g, TimeoutPass(0, window=g.version))


def _trimming(seed: int):
    """Seat 1 holds 5 cards, loses its gift to seat 0's SNATCH and draws a comeback
    card: 6 cards, one to discard."""
    g = build(
        4,
        hands=[[C.SNATCH], [C.INSIDE_MAN, C.PICKPOCKET, C.SWITCHEROO, C.CASE_THE_JOINT, C.INSIDE_MAN], [], []],
        draw=[C.SNATCH],
        seed=seed,
    )
    g, _ = act(g, PlayCard(0, one(g, 0, C.SNATCH), (1,)), React(1, None))
    assert g.phase is Phase.TRIM and g.trims == {1: 1}
    return g


def test_a_trim_passed_discards_the_excess_at_random_from_the_games_generator():
    g = _trimming(seed=5)
    assert stand_in(g) == TimeoutPass(seat=1)
    hand = set(g.hands[1])
    g2, events = apply(g, TimeoutPass(1))
    (trimmed,) = of_type(events, "trimmed")
    (gone,) = trimmed.data["cards"]
    assert gone in hand and gone not in g2.hands[1] and hand - {gone} <= set(g2.hands[1])
    assert g2.discards[-1] == gone
    assert g2.rng != g.rng  # the choice came from the game's generator
    assert of_type(events, "trim_timed_out")[0].data == {"seat": 1}
    assert g2.phase is Phase.ACTION and g2.active == 1  # seat 1's own turn follows
    assert_cards_conserved(g2)
    # The same game makes the same choice (replay), and other games other choices.
    assert apply(g, TimeoutPass(1))[0].hands == g2.hands
    chosen = set()
    for seed in range(12):
        t = _trimming(seed)
        chosen.update(*(e.data["cards"] for e in of_type(apply(t, TimeoutPass(1))[1], "trimmed")))
    assert len(chosen) > 1


def test_only_a_seat_that_must_trim_can_have_its_trim_passed():
    with pytest.raises(OutOfTurnError):
        apply(_trimming(seed=1), TimeoutPass(2))


def test_the_stand_in_for_a_reaction_is_the_clockwise_first_waiting_seats_pass():
    g = build(4, hands=[[C.THREE_GIFT_GRIFT], [], [], []])
    g, _ = act(g, PlayCard(0, one(g, 0, C.THREE_GIFT_GRIFT), (1, 2), direction=Direction.CLOCKWISE))
    assert g.phase is Phase.REACTION
    w = g.pending.window
    assert stand_in(g) == TimeoutPass(seat=1, window=w.version)
    g, _ = apply(g, React(1, None))
    assert stand_in(g) == TimeoutPass(seat=2, window=w.version)
    _g2, events = apply(g, stand_in(g))
    assert of_type(events, "reaction_timed_out")[0].data == {"seat": 2}
    assert of_type(events, "gifts_moved")  # let happen: the move resolves


def test_the_stand_in_for_the_reveal_is_its_confirmation_and_the_gate_has_none():
    g, _ = start(4, gate=True)
    g, _ = pass_turns(g, 4)
    assert g.phase is Phase.REVEAL
    assert stand_in(g) == ConfirmReveal()
    g, _ = apply(g, ConfirmReveal())
    g, _ = pass_turns(g, 4)
    assert g.phase is Phase.GATE
    assert stand_in(g) is None
    with pytest.raises(WrongPhaseError):
        apply(g, TimeoutPass(0))
