"""Hand limit of 5, empty draw pile, empty hands."""

import pytest

from games.yankee import (
    HAND_LIMIT,
    CardNotInHandError,
    MalformedActionError,
    OutOfTurnError,
    Phase,
    PlayCard,
    React,
    Regroup,
    Trim,
    WrongPhaseError,
    apply,
    waiting_for,
)
from tests.engine.builders import C, act, assert_cards_conserved, build, draws, of_type, one, trim_all

FIVE = [C.SNATCH, C.SNATCH, C.PICKPOCKET, C.INSIDE_MAN, C.CASE_THE_JOINT]


def test_hand_limit_is_five():
    assert HAND_LIMIT == 5


def test_after_the_action_every_hand_over_five_trims_by_owner_choice():
    # seat 0 holds 6 after its draw and snatches from seat 1 (5 cards) who gets a comeback
    g = build(4, hands=[[C.SNATCH, *FIVE], FIVE, [], []])
    assert len(g.hands[0]) == 6  # more than 5 during an action is fine
    g1, events = act(g, PlayCard(0, one(g, 0, C.SNATCH), (1,)), React(1, None))
    assert g1.phase is Phase.TRIM
    assert g1.trims == {1: 1}  # seat 0 is back at 5 after spending the SNATCH
    assert of_type(events, "trim_required")[0].data == {"seats": {"1": 1}}
    assert waiting_for(g1) == (1,)
    assert draws(events)[-1] == (1, 1, "comeback")  # no next turn yet
    chosen = (g1.hands[1][2],)
    g2, events = apply(g1, Trim(1, chosen))
    # exactly the chosen card left; then seat 1's own turn draw
    assert g2.hands[1][:-1] == tuple(c for c in g1.hands[1] if c not in chosen)
    assert draws(events) == [(1, 1, "turn")]
    assert g2.discards[-1] == chosen[0]
    assert g2.phase is Phase.ACTION and g2.active == 1
    assert [e.type for e in events][:2] == ["trimmed", "turn_started"]


def test_several_players_trim_and_the_next_turn_waits_for_all():
    g = build(
        4,
        hands=[[C.INSIDE_MAN, *FIVE], [], [C.TRIPWIRE, *FIVE], []],
        draw=[C.SNATCH] * 3,
    )
    g1, _ = apply(g, PlayCard(0, one(g, 0, C.INSIDE_MAN)))
    assert len(g1.hands[0]) == 7
    assert g1.trims == {0: 2, 2: 1} and waiting_for(g1) == (0, 2)
    with pytest.raises(MalformedActionError, match="exactly 2"):
        apply(g1, Trim(0, g1.hands[0][:1]))
    with pytest.raises(OutOfTurnError):
        apply(g1, Trim(1, ()))
    with pytest.raises(CardNotInHandError):
        apply(g1, Trim(0, (g1.hands[0][0], g1.hands[2][0])))
    with pytest.raises(WrongPhaseError):
        apply(g1, Regroup(0, ()))
    g2, events = apply(g1, Trim(2, (one(g, 2, C.TRIPWIRE),)))
    assert g2.phase is Phase.TRIM and waiting_for(g2) == (0,)
    assert of_type(events, "turn_started") == []
    with pytest.raises(OutOfTurnError):
        apply(g2, Trim(2, ()))  # already trimmed
    g3, events = apply(g2, Trim(0, g1.hands[0][-2:]))
    assert g3.phase is Phase.ACTION and g3.active == 1
    assert [len(h) for h in g3.hands] == [5, 1, 5, 0]


def test_trim_only_in_the_trim_phase():
    g = build(4, hands=[FIVE, [], [], []])
    with pytest.raises(WrongPhaseError, match="trim"):
        apply(g, Trim(0, (g.hands[0][0],)))


def test_more_than_five_during_an_action_is_fine():
    # a TRIPWIRE blocker reaches 7 cards while the YANKEE HEIST is still running
    g = build(4, hands=[[C.YANKEE_HEIST, C.SNATCH], [C.TRIPWIRE, *FIVE], [], []])
    g1, _ = act(
        g, PlayCard(0, one(g, 0, C.YANKEE_HEIST), (1, 2), extra=one(g, 0, C.SNATCH)), React(1, one(g, 1, C.TRIPWIRE))
    )
    assert len(g1.hands[1]) == 7 and g1.phase is Phase.REACTION and g1.trims == {}
    g2, _ = apply(g1, React(2, None))
    assert g2.trims == {1: 2}


def test_empty_pile_reshuffles_the_discards_but_keeps_the_resolving_card_aside():
    g = build(4, hands=[[C.INSIDE_MAN], [], [], []], discards=[C.NOT_SO_FAST], leftover="discards")
    # make the pile empty: everything else is in the discards
    g.discards = g.discards + g.draw_pile
    g.draw_pile = []
    assert_cards_conserved(g)
    inside = one(g, 0, C.INSIDE_MAN)
    before = sorted(g.discards)
    g1, events = apply(g, PlayCard(0, inside))
    assert of_type(events, "reshuffled")[0].data == {"cards": len(before)}
    drawn = g1.hands[0]
    assert len(drawn) == 2 and inside not in drawn and set(drawn) <= set(before)
    assert inside in g1.discards  # back in the discards only after the action
    assert_cards_conserved(g1)


def test_with_both_piles_empty_draw_what_exists_and_resume_later():
    # every card is held except 1 in the draw pile; nothing in the discards
    hands = [
        [C.INSIDE_MAN] + [C.SNATCH] * 10 + [C.SWITCHEROO] * 6 + [C.THREE_GIFT_GRIFT] * 4,
        [C.YANKEE_HEIST] * 4 + [C.CASE_THE_JOINT] * 4 + [C.INSIDE_MAN] * 4 + [C.PICKPOCKET] * 6,
        [C.NOT_SO_FAST] * 8 + [C.TRIPWIRE] * 6,
    ]
    g = build(3, hands=hands, draw=[C.INSIDE_MAN], leftover="none")
    assert len(g.draw_pile) == 1 and g.discards == []
    last = g.draw_pile[0]
    inside = one(g, 0, C.INSIDE_MAN)
    g1, events = apply(g, PlayCard(0, inside))
    assert draws(events) == [(0, 1, "inside_man")]
    assert of_type(events, "drew")[0].data["wanted"] == 2
    assert g1.hands[0][-1] == last
    assert g1.draw_pile == [] and g1.discards == [inside]
    # draws resume once cards are available: after the trims, seat 1's turn draw
    # reshuffles the discards (the INSIDE MAN and the trimmed cards)
    g2, events = trim_all(g1)
    assert of_type(events, "reshuffled")[0].data == {"cards": 1 + sum(g1.trims.values())}
    assert draws(events) == [(1, 1, "turn")]
    assert_cards_conserved(g2)


def test_no_cards_anywhere_draws_zero():
    hands = [
        [C.SNATCH] * 10 + [C.SWITCHEROO] * 6 + [C.THREE_GIFT_GRIFT] * 4 + [C.INSIDE_MAN] * 6,
        [C.YANKEE_HEIST] * 4 + [C.CASE_THE_JOINT] * 4 + [C.PICKPOCKET] * 6,
        [C.NOT_SO_FAST] * 8 + [C.TRIPWIRE] * 6,
    ]
    g = build(3, hands=hands, leftover="none")
    g1, events = apply(g, PlayCard(0, one(g, 0, C.INSIDE_MAN)))
    assert of_type(events, "drew")[0].data == {"seat": 0, "count": 0, "wanted": 2, "reason": "inside_man"}
    assert of_type(events, "reshuffled") == []
    assert_cards_conserved(g1)


def test_reactions_stay_aside_through_a_reshuffle():
    # Both piles empty (seat 3 holds every spare card). A TRIPWIRE block and the comeback
    # find nothing to draw: the heist, its extra card and the TRIPWIRE are aside and are
    # not reshuffled. After the action they are discards.
    g = build(4, hands=[[C.YANKEE_HEIST, C.SNATCH], [C.TRIPWIRE], [], []], leftover="discards")
    g.hands[3] = tuple(g.discards)
    g.discards = []
    assert_cards_conserved(g)
    heist, extra, trip = one(g, 0, C.YANKEE_HEIST), one(g, 0, C.SNATCH), one(g, 1, C.TRIPWIRE)
    g1, events = act(g, PlayCard(0, heist, (1, 2), extra=extra), React(1, trip))
    assert draws(events) == [(1, 0, "tripwire")]
    assert of_type(events, "reshuffled") == []
    assert g1.aside == [heist, extra, trip]
    g2, events = apply(g1, React(2, None))
    assert draws(events) == [(2, 0, "comeback")]
    assert of_type(events, "reshuffled") == []
    assert g2.aside == [] and g2.discards == [heist, extra, trip]
    assert_cards_conserved(g2)


def test_empty_hand_still_draws_next_turn_and_can_pass_or_regroup():
    g = build(4, hands=[[], [], [], []], draw=[C.SNATCH, C.INSIDE_MAN])
    assert g.hands[0] == ()
    g1, _ = apply(g, Regroup(0, ()))  # a pass with an empty hand
    assert g1.active == 1 and len(g1.hands[1]) == 1
    _g2, events = apply(g1, Regroup(1, g1.hands[1]))
    assert draws(events)[0] == (1, 1, "regroup")


def test_empty_hand_with_an_empty_pile_draws_from_the_reshuffled_discards():
    g = build(4, hands=[[], [], [], []], leftover="discards")
    assert g.draw_pile == [] and g.hands[1] == ()
    g1, events = apply(g, Regroup(0, ()))
    assert of_type(events, "reshuffled")[0].data == {"cards": 54}
    assert draws(events) == [(1, 1, "turn")] and len(g1.hands[1]) == 1
    g2, _ = apply(g1, Regroup(1, ()))
    assert g2.active == 2
