"""Turn structure: automatic draw, one action, clockwise order, four rounds, the
starter rotation, the round-1 reveal and the end of the game."""

import pytest

from games.yankee import (
    ConfirmReveal,
    DrawRelaySeat,
    Gift,
    OutOfTurnError,
    Phase,
    PlayCard,
    React,
    Regroup,
    RelayExchange,
    Swipe,
    TimeoutPass,
    Trim,
    VaultExchange,
    WrongPhaseError,
    apply,
    public_view,
    waiting_for,
)
from tests.engine.builders import (
    C,
    act,
    build,
    draws,
    gift_id,
    of_type,
    one,
    pass_turn,
    pass_turns,
    start,
    top,
    vault_id,
)


def test_turn_starts_with_an_automatic_draw_of_one():
    g = build(4, hands=[[C.SNATCH], [C.NOT_SO_FAST], [], []], draw=[C.INSIDE_MAN, C.PICKPOCKET])
    nxt = top(g, 2)
    g2, events = apply(g, Regroup(0, ()))
    assert g2.active == 1 and g2.phase is Phase.ACTION
    assert g2.hands[1] == (*g.hands[1], nxt[0])
    assert g2.draw_pile == g.draw_pile[:-1]
    assert [e.type for e in events][-2:] == ["turn_started", "drew"]
    assert draws(events) == [(1, 1, "turn")]
    assert events[-1].secret == {"cards": [nxt[0]]} and events[-1].owners == (1,)


def test_exactly_one_action_per_turn():
    g = build(4, hands=[[C.INSIDE_MAN, C.SNATCH], [], [], []])
    g2, _ = apply(g, PlayCard(0, one(g, 0, C.INSIDE_MAN)))
    assert g2.active == 1
    with pytest.raises(OutOfTurnError):
        apply(g2, PlayCard(0, one(g2, 0, C.SNATCH), (1,)))
    with pytest.raises(OutOfTurnError):
        apply(g2, Regroup(0, ()))


def test_turn_order_is_clockwise_from_the_starter():
    g = build(5, hands=[[]] * 5, active=3, starter=3)
    order = [g.active]
    for _ in range(4):
        g, _ = pass_turn(g)
        order.append(g.active)
    assert order == [3, 4, 0, 1, 2]
    assert g.round == 1 and g.turn == 4


def test_four_rounds_one_turn_each_and_starter_moves_clockwise():
    g, _ = start(4, seed=11)
    s0 = g.starter
    actives = []
    round_starts = []
    while g.phase is not Phase.OVER:
        if g.phase is Phase.REVEAL:
            g, ev = apply(g, ConfirmReveal())
        else:
            actives.append((g.round, g.active))
            g, ev = pass_turn(g)
        round_starts += [(e.data["round"], e.data["starter"]) for e in of_type(ev, "round_started")]
    assert round_starts == [(2, (s0 + 1) % 4), (3, (s0 + 2) % 4), (4, (s0 + 3) % 4)]
    assert len(actives) == 16
    for r in range(1, 5):
        seats = [s for rr, s in actives if rr == r]
        start_r = (s0 + r - 1) % 4
        assert seats == [(start_r + k) % 4 for k in range(4)]


def test_round_one_ends_in_the_reveal_phase_with_gifts_still_wrapped():
    g = build(3, hands=[[], [], []], active=2, starter=0)
    g, events = pass_turn(g)
    assert g.phase is Phase.REVEAL
    assert [e.type for e in events][-2:] == ["round_ended", "reveal_due"]
    assert g.open == frozenset()
    assert waiting_for(g) == ()
    assert public_view(g)["active"] is None
    with pytest.raises(WrongPhaseError):
        apply(g, Regroup(g.active, ()))
    hands = list(g.hands)
    g2, events = apply(g, ConfirmReveal())
    # every held gift is now open; round 2 starts one seat clockwise, with its draw
    assert g2.open == frozenset(g.gifts)
    revealed = of_type(events, "revealed")[0]
    assert revealed.to is None
    assert revealed.data["gifts"] == [
        {"seat": s, "gift": g.gifts[s], "description": g.descriptions[g.gifts[s]]} for s in range(3)
    ]
    assert g2.round == 2 and g2.starter == 1 and g2.active == 1 and g2.phase is Phase.ACTION
    assert draws(events) == [(1, 1, "turn")]
    assert g2.hands[0] == hands[0] and len(g2.hands[1]) == len(hands[1]) + 1


def test_reveal_keeps_vault_gifts_in_their_state():
    # Seat 2 took vault gift 90 earlier (so it is open) and gave gift 12 (wrapped) to the vault.
    g = build(
        3,
        hands=[[], [], []],
        active=2,
        starter=0,
        vault=2,
        gifts=[gift_id(0), gift_id(1), vault_id(0)],
        vault_gifts=[gift_id(2), vault_id(1)],
        opened={vault_id(0)},
    )
    g, _ = pass_turn(g)
    g, _ = apply(g, ConfirmReveal())
    assert g.open == {gift_id(0), gift_id(1), vault_id(0)}
    assert gift_id(2) not in g.open and vault_id(1) not in g.open


def test_confirm_reveal_only_in_the_reveal_phase():
    g = build(3, hands=[[], [], []])
    with pytest.raises(WrongPhaseError, match="confirm the reveal"):
        apply(g, ConfirmReveal())


def test_gifts_stay_open_after_the_reveal_even_when_they_change_hands():
    g = build(3, hands=[[C.SNATCH], [], []], round=2)
    g, _ = act(g, PlayCard(0, one(g, 0, C.SNATCH), (1,)), React(1, None))
    assert g.gifts[:2] == [gift_id(1), gift_id(0)]
    assert g.open == {gift_id(0), gift_id(1), gift_id(2)}


def test_game_over_after_the_last_action_of_round_four():
    g = build(3, hands=[[], [C.INSIDE_MAN], []], active=1, starter=2, round=4)
    assert g.turn == 2  # the last turn of the last round
    g, events = apply(g, PlayCard(1, one(g, 1, C.INSIDE_MAN)))
    assert g.phase is Phase.OVER
    assert [e.type for e in events][-2:] == ["round_ended", "game_over"]
    assert events[-1].data == {"result": g.gifts, "vault": []}
    assert public_view(g)["result"] == g.gifts
    assert waiting_for(g) == ()
    assert draws(events) == [(1, 2, "inside_man")]  # nobody starts another turn
    for action in (
        Regroup(0, ()),
        PlayCard(0, 0),
        Swipe(0, (0, 1), 1),
        VaultExchange(0, (0, 1), 90),
        React(0, None),
        TimeoutPass(0),
        Trim(0, ()),
        ConfirmReveal(),
        DrawRelaySeat(),
        RelayExchange(Gift(99, "x")),
    ):
        with pytest.raises(WrongPhaseError):
            apply(g, action)


def test_game_ends_only_after_the_final_trims():
    g = build(3, hands=[[], [C.INSIDE_MAN, C.SNATCH, C.SNATCH, C.SNATCH, C.SNATCH], []], active=1, starter=2, round=4)
    g, _ = apply(g, PlayCard(1, one(g, 1, C.INSIDE_MAN)))
    assert g.phase is Phase.TRIM and g.trims == {1: 1}
    g, events = apply(g, Trim(1, (g.hands[1][0],)))
    assert g.phase is Phase.OVER and events[-1].type == "game_over"


def test_public_result_is_none_until_the_game_is_over():
    g, _ = start(3, seed=2)
    assert public_view(g)["result"] is None


def test_a_full_game_of_passes_takes_exactly_4n_turns():
    g, _ = start(5, seed=21)
    turns = 0
    while g.phase is not Phase.OVER:
        if g.phase is Phase.REVEAL:
            g, _ = apply(g, ConfirmReveal())
            continue
        g, _ev = pass_turn(g)
        turns += 1
    assert turns == 20 and g.round == 4


def test_gift_may_be_taken_back_on_a_later_action():
    g = build(3, hands=[[C.SNATCH], [], []], draw=[C.SNATCH], round=2)
    g, _ = act(g, PlayCard(0, one(g, 0, C.SNATCH), (1,)), React(1, None))
    assert g.active == 1 and g.gifts[1] == gift_id(0)
    g, _ = act(g, PlayCard(1, one(g, 1, C.SNATCH), (0,)), React(0, None))
    assert g.gifts[:2] == [gift_id(0), gift_id(1)]


def test_pass_turns_helper_walks_a_round():
    g = build(4, hands=[[]] * 4)
    g, _ = pass_turns(g, 3)
    assert g.active == 3 and g.round == 1
