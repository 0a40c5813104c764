"""Every card of GAME.md's deck, played through the engine."""

import pytest

from games import rng as engine_rng
from games.yankee import (
    CardNotInHandError,
    Direction,
    IllegalCardError,
    IllegalTargetError,
    MalformedActionError,
    Phase,
    PlayCard,
    React,
    apply,
    card_targets,
    playable_cards,
    seat_view,
    waiting_for,
)
from games.yankee.legal import heist_steps
from tests.engine.builders import (
    C,
    act,
    assert_cards_conserved,
    build,
    desc,
    draws,
    gift_id,
    of_type,
    one,
    top,
)

G = gift_id


# --- SNATCH ---------------------------------------------------------------------------------


def test_snatch_swaps_your_gift_with_one_other_players_gift():
    g = build(4, hands=[[C.SNATCH, C.INSIDE_MAN], [], [], []], draw=[C.PICKPOCKET, C.TRIPWIRE])
    snatch = one(g, 0, C.SNATCH)
    g1, events = apply(g, PlayCard(0, snatch, (2,)))
    # the move is announced and waits for the target before any gift moves
    assert g1.phase is Phase.REACTION and waiting_for(g1) == (2,)
    assert g1.gifts == g.gifts
    assert of_type(events, "window_opened")[0].data["move"] == [[0, 2], [2, 0]]
    assert g1.aside == [snatch] and g1.hands[0] == (one(g, 0, C.INSIDE_MAN),)
    comeback, next_turn = top(g1, 2)
    g2, events = apply(g1, React(2, None))
    assert g2.gifts == [G(2), G(1), G(0), G(3)]
    assert draws(events) == [(2, 1, "comeback"), (1, 1, "turn")]
    assert g2.hands[2] == (comeback,) and g2.hands[1] == (next_turn,)
    assert g2.discards == [snatch] and g2.aside == []
    moved = of_type(events, "gifts_moved")[0].data
    assert moved == {
        "label": "SNATCH",
        "moves": [{"from": 0, "to": 2, "gift": G(0)}, {"from": 2, "to": 0, "gift": G(2)}],
    }
    assert_cards_conserved(g2)


# --- SWITCHEROO -----------------------------------------------------------------------------


def test_switcheroo_swaps_two_other_players_and_your_gift_does_not_move():
    g = build(5, hands=[[], [], [C.SWITCHEROO], [], []], active=2)
    g1, events = apply(g, PlayCard(2, one(g, 2, C.SWITCHEROO), (1, 4)))
    assert g1.pending.window.affected == (4, 1)  # clockwise from seat 2
    g2, events = act(g1, React(4, None), React(1, None))
    assert g2.gifts == [G(0), G(4), G(2), G(3), G(1)]
    assert draws(events, "comeback") == [(4, 1, "comeback"), (1, 1, "comeback")]


def test_switcheroo_needs_two_different_other_players():
    g = build(4, hands=[[C.SWITCHEROO], [], [], []])
    card = one(g, 0, C.SWITCHEROO)
    with pytest.raises(IllegalTargetError, match="two different"):
        apply(g, PlayCard(0, card, (1, 1)))
    with pytest.raises(IllegalTargetError, match="yourself"):
        apply(g, PlayCard(0, card, (0, 1)))
    with pytest.raises(IllegalTargetError, match="names 2"):
        apply(g, PlayCard(0, card, (1,)))


# --- THREE-GIFT GRIFT -----------------------------------------------------------------------
# Direction.CLOCKWISE: the three seats taken clockwise from the active player (a, p, q);
# a's gift goes to p, p's to q, q's to a: every gift moves to the next of the three
# clockwise. COUNTERCLOCKWISE is the reverse ring.


@pytest.mark.parametrize("targets", [(1, 4), (4, 1)])
def test_grift_clockwise_moves_each_gift_to_the_next_of_the_three_clockwise(targets):
    g = build(5, hands=[[], [], [], [C.THREE_GIFT_GRIFT], []], active=3)
    g1, _ = apply(g, PlayCard(3, one(g, 3, C.THREE_GIFT_GRIFT), targets, direction=Direction.CLOCKWISE))
    assert g1.pending.window.affected == (4, 1)
    assert g1.pending.window.move == ((3, 4), (4, 1), (1, 3))
    g2, events = act(g1, React(1, None), React(4, None))
    # 3 -> 4 -> 1 -> 3
    assert g2.gifts == [G(0), G(4), G(2), G(1), G(3)]
    assert draws(events, "comeback") == [(4, 1, "comeback"), (1, 1, "comeback")]


@pytest.mark.parametrize("targets", [(1, 4), (4, 1)])
def test_grift_counterclockwise_is_the_reverse_rotation(targets):
    g = build(5, hands=[[], [], [], [C.THREE_GIFT_GRIFT], []], active=3)
    g1, _ = apply(g, PlayCard(3, one(g, 3, C.THREE_GIFT_GRIFT), targets, direction=Direction.COUNTERCLOCKWISE))
    g2, events = act(g1, React(4, None), React(1, None))
    # 3 -> 1 -> 4 -> 3
    assert g2.gifts == [G(0), G(3), G(2), G(4), G(1)]
    assert draws(events, "comeback") == [(4, 1, "comeback"), (1, 1, "comeback")]


def test_grift_with_three_players_and_direction_required():
    g = build(3, hands=[[], [C.THREE_GIFT_GRIFT], []], active=1)
    card = one(g, 1, C.THREE_GIFT_GRIFT)
    with pytest.raises(MalformedActionError, match="direction"):
        apply(g, PlayCard(1, card, (0, 2)))
    g1, _ = act(g, PlayCard(1, card, (0, 2), direction=Direction.CLOCKWISE), React(2, None), React(0, None))
    assert g1.gifts == [G(2), G(0), G(1)]  # 1 -> 2 -> 0 -> 1


def test_one_block_stops_the_whole_rotation():
    g = build(4, hands=[[C.THREE_GIFT_GRIFT], [], [], [C.NOT_SO_FAST]])
    g1, events = act(
        g,
        PlayCard(0, one(g, 0, C.THREE_GIFT_GRIFT), (1, 3), direction=Direction.CLOCKWISE),
        React(1, None),
        React(3, one(g, 3, C.NOT_SO_FAST)),
    )
    assert g1.gifts == g.gifts
    assert draws(events, "comeback") == []


# --- YANKEE HEIST ---------------------------------------------------------------------------


def test_yankee_heist_costs_an_extra_card_and_swaps_twice():
    g = build(4, hands=[[C.YANKEE_HEIST, C.INSIDE_MAN, C.SNATCH], [], [], []])
    heist, extra = one(g, 0, C.YANKEE_HEIST), one(g, 0, C.INSIDE_MAN)
    g1, events = apply(g, PlayCard(0, heist, (1, 2), extra=extra))
    assert g1.hands[0] == (one(g, 0, C.SNATCH),)
    assert g1.aside == [heist, extra]
    assert waiting_for(g1) == (1,)  # step 1 has its own window, for seat 1 only
    g2, events = apply(g1, React(1, None))
    # step 1 done: seat 0 now holds gift 11; step 2's window opens for seat 2 only
    assert g2.gifts == [G(1), G(0), G(2), G(3)]
    assert g2.phase is Phase.REACTION and waiting_for(g2) == (2,)
    assert of_type(events, "window_opened")[0].data["move"] == [[0, 2], [2, 0]]
    assert draws(events) == []  # comebacks wait for the whole action
    g3, events = apply(g2, React(2, None))
    # step 2 swaps the gift seat 0 holds now (gift 11) with seat 2's
    assert g3.gifts == [G(2), G(0), G(1), G(3)]
    assert draws(events, "comeback") == [(1, 1, "comeback"), (2, 1, "comeback")]
    assert [e.type for e in events].index("gifts_moved") < [e.type for e in events].index("drew")
    assert sorted(g3.discards) == sorted([heist, extra])


def test_yankee_heist_extra_card_rules():
    g = build(4, hands=[[C.YANKEE_HEIST, C.TRIPWIRE], [C.SNATCH], [], []])
    heist = one(g, 0, C.YANKEE_HEIST)
    with pytest.raises(MalformedActionError, match="one more card"):
        apply(g, PlayCard(0, heist, (1, 2)))
    with pytest.raises(CardNotInHandError, match="another card in your hand"):
        apply(g, PlayCard(0, heist, (1, 2), extra=heist))
    with pytest.raises(CardNotInHandError):
        apply(g, PlayCard(0, heist, (1, 2), extra=one(g, 1, C.SNATCH)))
    with pytest.raises(IllegalTargetError, match="two different"):
        apply(g, PlayCard(0, heist, (1, 1), extra=one(g, 0, C.TRIPWIRE)))
    # any card pays, even a reaction
    g1, _ = apply(g, PlayCard(0, heist, (1, 2), extra=one(g, 0, C.TRIPWIRE)))
    assert g1.hands[0] == ()
    # only YANKEE HEIST takes an extra card
    g = build(4, hands=[[C.SNATCH, C.INSIDE_MAN], [], [], []])
    with pytest.raises(MalformedActionError, match="only YANKEE HEIST"):
        apply(g, PlayCard(0, one(g, 0, C.SNATCH), (1,), extra=one(g, 0, C.INSIDE_MAN)))


def test_yankee_heist_alone_in_hand_has_no_legal_play():
    g = build(4, hands=[[C.YANKEE_HEIST], [], [], []])
    heist = one(g, 0, C.YANKEE_HEIST)
    assert card_targets(g, 0, heist) is None
    assert heist not in playable_cards(g, 0)
    with pytest.raises(MalformedActionError):
        apply(g, PlayCard(0, heist, (1, 2)))


def test_yankee_heist_blocked_first_step_still_attempts_the_second():
    g = build(4, hands=[[C.YANKEE_HEIST, C.SNATCH], [C.NOT_SO_FAST], [], []])
    g1, events = act(
        g,
        PlayCard(0, one(g, 0, C.YANKEE_HEIST), (1, 2), extra=one(g, 0, C.SNATCH)),
        React(1, one(g, 1, C.NOT_SO_FAST)),
    )
    assert g1.gifts == g.gifts and waiting_for(g1) == (2,)
    g2, events = apply(g1, React(2, None))
    assert g2.gifts == [G(2), G(1), G(0), G(3)]  # the active player's original gift went to seat 2
    assert draws(events, "comeback") == [(2, 1, "comeback")]


def test_yankee_heist_blocked_second_step_keeps_the_first():
    g = build(4, hands=[[C.YANKEE_HEIST, C.SNATCH], [], [C.TRIPWIRE], []])
    g1, events = act(
        g,
        PlayCard(0, one(g, 0, C.YANKEE_HEIST), (1, 2), extra=one(g, 0, C.SNATCH)),
        React(1, None),
        React(2, one(g, 2, C.TRIPWIRE)),
    )
    assert g1.gifts == [G(1), G(0), G(2), G(3)]
    assert draws(events)[:2] == [(2, 2, "tripwire"), (1, 1, "comeback")]


def test_yankee_heist_with_two_players_is_one_swap_and_still_costs_the_extra_card():
    g = build(2, hands=[[C.YANKEE_HEIST, C.INSIDE_MAN], []])
    assert heist_steps(g) == 1
    heist, extra = one(g, 0, C.YANKEE_HEIST), one(g, 0, C.INSIDE_MAN)
    assert card_targets(g, 0, heist) == (1,)
    with pytest.raises(IllegalTargetError, match="names 1"):
        apply(g, PlayCard(0, heist, (1, 1), extra=extra))
    with pytest.raises(MalformedActionError, match="one more card"):
        apply(g, PlayCard(0, heist, (1,)))
    g1, _ = apply(g, PlayCard(0, heist, (1,), extra=extra))
    assert g1.aside == [heist, extra] and g1.hands[0] == ()
    g2, events = apply(g1, React(1, None))
    assert g2.gifts == [G(1), G(0)]
    assert len(of_type(events, "window_opened")) == 0 and len(of_type(events, "gifts_moved")) == 1
    assert g2.phase is Phase.ACTION and g2.active == 1
    assert draws(events) == [(1, 1, "comeback"), (1, 1, "turn")]


# --- CASE THE JOINT -------------------------------------------------------------------------


def test_case_the_joint_is_a_private_peek_at_a_wrapped_gift():
    g = build(4, hands=[[C.CASE_THE_JOINT], [], [], []], gifts=[G(0), G(3), G(2), G(1)])
    card = one(g, 0, C.CASE_THE_JOINT)
    assert card_targets(g, 0, card) == (1, 2, 3)
    g1, events = apply(g, PlayCard(0, card, (1,)))
    peek = of_type(events, "peeked")[0]
    assert peek.to == (0,)
    assert peek.data == {"seat": 0, "gift": G(3), "description": desc(3), "own": False}
    assert peek.view(1) is None and peek.view(None) is None
    assert G(3) in g1.peeks[0] and all(g1.peeks[s] == g.peeks[s] for s in (1, 2, 3))
    assert g1.gifts == g.gifts and G(3) not in g1.open
    assert seat_view(g1, 0)["seats"][1]["description"] == desc(3)
    assert seat_view(g1, 2)["seats"][1]["description"] is None
    assert draws(events, "comeback") == []
    assert g1.active == 1 and g1.discards == [card]


def test_case_the_joint_only_targets_wrapped_gifts_and_has_no_target_once_all_are_open():
    g = build(4, hands=[[C.CASE_THE_JOINT, C.SNATCH], [], [], []], opened={G(1)})
    card = one(g, 0, C.CASE_THE_JOINT)
    assert card_targets(g, 0, card) == (2, 3)
    with pytest.raises(IllegalTargetError, match="still-wrapped"):
        apply(g, PlayCard(0, card, (1,)))
    with pytest.raises(IllegalTargetError, match="yourself"):
        apply(g, PlayCard(0, card, (0,)))
    g = build(4, hands=[[C.CASE_THE_JOINT, C.SNATCH], [], [], []], round=2)
    assert card_targets(g, 0, card) is None
    assert card not in playable_cards(g, 0) and one(g, 0, C.SNATCH) in playable_cards(g, 0)
    for t in (1, 2, 3):
        with pytest.raises(IllegalTargetError):
            apply(g, PlayCard(0, card, (t,)))


# --- INSIDE MAN -----------------------------------------------------------------------------


def test_inside_man_draws_two():
    g = build(4, hands=[[C.INSIDE_MAN, C.SNATCH], [], [], []], draw=[C.TRIPWIRE, C.PICKPOCKET, C.SNATCH])
    card = one(g, 0, C.INSIDE_MAN)
    a, b, c = top(g, 3)
    g1, events = apply(g, PlayCard(0, card, ()))
    assert g1.hands[0] == (one(g, 0, C.SNATCH), a, b)
    assert draws(events) == [(0, 2, "inside_man"), (1, 1, "turn")]
    assert g1.hands[1] == (c,)
    assert g1.gifts == g.gifts
    with pytest.raises(IllegalTargetError, match="names 0"):
        apply(g, PlayCard(0, card, (1,)))


# --- PICKPOCKET -----------------------------------------------------------------------------


def test_pickpocket_takes_a_random_card_from_another_hand_using_the_games_rng():
    g = build(4, hands=[[C.PICKPOCKET], [C.SNATCH, C.TRIPWIRE, C.INSIDE_MAN], [], []])
    card = one(g, 0, C.PICKPOCKET)
    victim = g.hands[1]
    i, _ = engine_rng.below(g.rng, len(victim))
    next_turn = top(g)[0]
    g1, events = apply(g, PlayCard(0, card, (1,)))
    stolen = victim[i]
    assert g1.hands[0] == (stolen,)
    # seat 1 loses the stolen card, then draws for its own turn
    assert g1.hands[1] == (*(c for c in victim if c != stolen), next_turn)
    ev = of_type(events, "pickpocketed")[0]
    assert ev.data == {"seat": 0, "target": 1}
    assert ev.view(0)["card"] == stolen and ev.view(1)["card"] == stolen
    assert "card" not in ev.view(2) and "card" not in ev.view(None)
    assert g1.gifts == g.gifts and draws(events, "comeback") == []
    assert_cards_conserved(g1)


def test_pickpocket_choice_varies_with_the_seed():
    stolen = set()
    for seed in range(40):
        g = build(3, hands=[[C.PICKPOCKET], [C.SNATCH, C.TRIPWIRE, C.INSIDE_MAN], []], seed=seed)
        g1, _ = apply(g, PlayCard(0, one(g, 0, C.PICKPOCKET), (1,)))
        stolen.add(g1.hands[0][0])
    assert len(stolen) == 3


def test_pickpocket_cannot_target_an_empty_hand():
    g = build(4, hands=[[C.PICKPOCKET], [], [C.SNATCH], []])
    card = one(g, 0, C.PICKPOCKET)
    assert card_targets(g, 0, card) == (2,)
    with pytest.raises(IllegalTargetError, match="cards in hand"):
        apply(g, PlayCard(0, card, (1,)))
    g = build(4, hands=[[C.PICKPOCKET], [], [], []])
    assert card_targets(g, 0, card) is None


# --- reactions are not actions --------------------------------------------------------------


@pytest.mark.parametrize("reaction", [C.NOT_SO_FAST, C.TRIPWIRE])
def test_reactions_cannot_be_played_as_actions(reaction):
    g = build(4, hands=[[reaction], [], [], []])
    card = one(g, 0, reaction)
    assert card_targets(g, 0, card) is None and playable_cards(g, 0) == {}
    for targets in ((), (1,)):
        with pytest.raises(IllegalCardError, match="reaction"):
            apply(g, PlayCard(0, card, targets))


def test_a_card_with_no_legal_target_can_still_be_swiped_or_regrouped():
    from games.yankee import Regroup, Swipe

    g = build(3, hands=[[C.CASE_THE_JOINT, C.PICKPOCKET], [], []], round=2)
    cj, pp = one(g, 0, C.CASE_THE_JOINT), one(g, 0, C.PICKPOCKET)
    assert playable_cards(g, 0) == {}
    g1, _ = apply(g, Swipe(0, (cj, pp), 1))
    assert g1.aside == [cj, pp]
    g2, _ = apply(g, Regroup(0, (cj,)))
    assert cj in g2.discards
