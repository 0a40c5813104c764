"""Reaction windows and comeback draws."""

import pytest

from games.yankee import (
    CardNotInHandError,
    Direction,
    IllegalActionError,
    IllegalCardError,
    OutOfTurnError,
    Phase,
    PlayCard,
    React,
    Regroup,
    Swipe,
    TimeoutPass,
    WrongPhaseError,
    apply,
    public_view,
    waiting_for,
)
from tests.engine.builders import C, act, build, draws, gift_id, of_type, one, top

G = gift_id


def switcheroo_game(**kw):
    """5 players, seat 2 plays SWITCHEROO on seats 1 and 4: affected (4, 1) in clockwise order."""
    hands = kw.pop(
        "hands",
        [[C.TRIPWIRE], [C.NOT_SO_FAST, C.TRIPWIRE], [C.SWITCHEROO], [C.NOT_SO_FAST], [C.NOT_SO_FAST, C.TRIPWIRE]],
    )
    g = build(5, hands=hands, active=2, **kw)
    g1, events = apply(g, PlayCard(2, one(g, 2, C.SWITCHEROO), (1, 4)))
    return g, g1, events


# --- who is asked ---------------------------------------------------------------------------


def test_window_asks_only_affected_players_clockwise_from_the_active_player():
    _g, g1, events = switcheroo_game()
    opened = of_type(events, "window_opened")[0]
    assert opened.data["affected"] == [4, 1] and opened.data["active"] == 2
    assert waiting_for(g1) == (4, 1)
    assert public_view(g1)["window"]["waiting"] == [4, 1]
    # not affected: seats 0 and 3 (even holding reactions); the active player never reacts
    for seat in (0, 3, 2):
        with pytest.raises(OutOfTurnError, match="not threatened"):
            apply(g1, React(seat, g1.hands[seat][0] if g1.hands[seat] else None))
        with pytest.raises(OutOfTurnError):
            apply(g1, React(seat, None))


def test_snatch_window_is_the_target_only():
    g = build(4, hands=[[C.SNATCH], [C.NOT_SO_FAST], [C.NOT_SO_FAST], [C.NOT_SO_FAST]])
    g1, _ = apply(g, PlayCard(0, one(g, 0, C.SNATCH), (2,)))
    assert g1.pending.window.affected == (2,)
    with pytest.raises(OutOfTurnError):
        apply(g1, React(1, one(g, 1, C.NOT_SO_FAST)))


def test_no_other_action_while_a_window_is_open_and_the_game_never_passes_by_itself():
    _g, g1, _ = switcheroo_game()
    with pytest.raises(WrongPhaseError, match="reaction"):
        apply(g1, Regroup(2, ()))
    with pytest.raises(WrongPhaseError):
        apply(g1, PlayCard(2, g1.hands[2][0] if g1.hands[2] else 0, (1,)))
    assert g1.phase is Phase.REACTION and g1.pending.window.answers == {}


# --- answering ------------------------------------------------------------------------------


def test_first_affected_player_blocks_and_the_window_closes_at_once():
    g, g1, _ = switcheroo_game()
    nsf = one(g, 4, C.NOT_SO_FAST)
    g2, events = apply(g1, React(4, nsf))
    assert g2.gifts == g.gifts
    assert of_type(events, "blocked")[0].data["seat"] == 4
    assert g2.phase is Phase.ACTION and g2.active == 3  # seat 1 was never asked
    assert g2.hands[1] == g.hands[1]
    with pytest.raises(WrongPhaseError):
        apply(g2, React(1, one(g, 1, C.NOT_SO_FAST)))  # no reaction to a reaction
    assert of_type(events, "window_opened") == []


def test_answers_in_any_order_the_clockwise_first_block_wins_and_later_blocker_keeps_card():
    g, g1, _ = switcheroo_game()
    later = one(g, 1, C.TRIPWIRE)
    g2, events = apply(g1, React(1, later))  # seat 1 answers first, but is second in order
    assert g2.phase is Phase.REACTION and waiting_for(g2) == (4,)
    assert of_type(events, "blocked") == []
    first = one(g, 4, C.NOT_SO_FAST)
    g3, events = apply(g2, React(4, first))
    assert of_type(events, "blocked")[0].data["seat"] == 4
    assert g3.gifts == g.gifts
    assert later in g3.hands[1] and len(g3.hands[1]) == 2  # seat 1 keeps its TRIPWIRE, draws nothing
    assert first not in g3.hands[4] and first in g3.discards
    unused = of_type(events, "reaction_unused")
    assert [(e.to, e.data) for e in unused] == [((1,), {"seat": 1, "card": later})]
    assert draws(events, "tripwire") == []


def test_later_block_counts_when_the_earlier_player_passes():
    g, g1, _ = switcheroo_game()
    trip = one(g, 1, C.TRIPWIRE)
    g2, _ = apply(g1, React(1, trip))
    g3, events = apply(g2, React(4, None))
    assert of_type(events, "blocked")[0].data["seat"] == 1
    assert g3.gifts == g.gifts
    assert draws(events)[0] == (1, 2, "tripwire")


def test_all_pass_then_the_move_happens():
    _g, g1, _ = switcheroo_game()
    g2, events = act(g1, React(1, None), React(4, None))
    assert g2.gifts == [G(0), G(4), G(2), G(3), G(1)]
    assert of_type(events, "blocked") == []


def test_a_pass_is_final():
    g, g1, _ = switcheroo_game()
    g2, _ = apply(g1, React(1, None))
    with pytest.raises(IllegalActionError, match="already answered") as err:
        apply(g2, React(1, one(g, 1, C.TRIPWIRE)))
    assert err.value.rule == "answered"
    with pytest.raises(IllegalActionError, match="already answered"):
        apply(g2, React(1, None))


def test_tripwire_blocks_and_draws_two_at_once():
    g = build(4, hands=[[C.YANKEE_HEIST, C.SNATCH], [C.TRIPWIRE], [], []], draw=[C.INSIDE_MAN, C.PICKPOCKET, C.SNATCH])
    two = top(g, 2)
    g1, _ = apply(g, PlayCard(0, one(g, 0, C.YANKEE_HEIST), (1, 2), extra=one(g, 0, C.SNATCH)))
    trip = one(g, 1, C.TRIPWIRE)
    g2, events = apply(g1, React(1, trip))
    # drawn at once, before the next window, while the action is still running
    assert g2.phase is Phase.REACTION and g2.hands[1] == tuple(two)
    assert [e.type for e in events] == ["reaction_answered", "blocked", "drew", "window_opened"]
    assert draws(events) == [(1, 2, "tripwire")]
    assert of_type(events, "blocked")[0].data["card_name"] == "TRIPWIRE"
    assert trip in g2.aside


def test_not_so_fast_blocks_and_draws_nothing():
    g = build(4, hands=[[C.SNATCH], [C.NOT_SO_FAST, C.INSIDE_MAN], [], []])
    g1, events = act(g, PlayCard(0, one(g, 0, C.SNATCH), (1,)), React(1, one(g, 1, C.NOT_SO_FAST)))
    assert g1.gifts == g.gifts
    assert draws(events) == [(1, 1, "turn")]  # only seat 1's own turn draw
    assert g1.hands[1][0] == one(g, 1, C.INSIDE_MAN) and len(g1.hands[1]) == 2


def test_only_reaction_cards_in_hand_can_block():
    g = build(4, hands=[[C.SNATCH], [C.INSIDE_MAN], [C.TRIPWIRE], []])
    g1, _ = apply(g, PlayCard(0, one(g, 0, C.SNATCH), (1,)))
    with pytest.raises(IllegalCardError, match="not a reaction"):
        apply(g1, React(1, one(g, 1, C.INSIDE_MAN)))
    with pytest.raises(CardNotInHandError):
        apply(g1, React(1, one(g, 2, C.TRIPWIRE)))


def test_timeout_pass_records_a_forced_pass():
    g, g1, _ = switcheroo_game()
    g2, events = apply(g1, TimeoutPass(4))
    assert [e.type for e in events] == ["reaction_timed_out"]
    assert g2.pending.window.forced == (4,) and g2.pending.window.answers == {4: None}
    assert waiting_for(g2) == (1,)
    with pytest.raises(IllegalActionError, match="already answered"):
        apply(g2, React(4, one(g, 4, C.NOT_SO_FAST)))
    with pytest.raises(IllegalActionError, match="already answered"):
        apply(g2, TimeoutPass(4))
    g3, events = apply(g2, React(1, None))
    assert g3.gifts == [G(0), G(4), G(2), G(3), G(1)]
    with pytest.raises(IllegalActionError, match="closed"):  # the window's pass never passes the next turn
        apply(g3, TimeoutPass(1, window=g1.pending.window.version))


def test_reaction_cards_stay_aside_until_the_action_ends():
    g = build(4, hands=[[C.YANKEE_HEIST, C.SNATCH], [C.NOT_SO_FAST], [], []])
    heist, extra = one(g, 0, C.YANKEE_HEIST), one(g, 0, C.SNATCH)
    g1, _ = act(g, PlayCard(0, heist, (1, 2), extra=extra), React(1, one(g, 1, C.NOT_SO_FAST)))
    assert g1.aside == [heist, extra, one(g, 1, C.NOT_SO_FAST)] and g1.discards == []
    g2, _ = apply(g1, React(2, None))
    assert g2.aside == [] and g2.discards == [heist, extra, one(g, 1, C.NOT_SO_FAST)]


# --- comeback draws -------------------------------------------------------------------------


def test_comeback_one_each_clockwise_from_the_active_player_after_all_effects():
    _g, g1, _ = switcheroo_game()
    cards = top(g1, 2)
    g2, events = act(g1, React(1, None), React(4, None))
    types = [e.type for e in events]
    assert types.index("gifts_moved") < types.index("drew")
    assert draws(events, "comeback") == [(4, 1, "comeback"), (1, 1, "comeback")]
    assert g2.hands[4][-1] == cards[0] and g2.hands[1][-1] == cards[1]


def test_active_player_never_draws_a_comeback():
    g = build(4, hands=[[C.SNATCH], [], [], []])
    g1, events = act(g, PlayCard(0, one(g, 0, C.SNATCH), (3,)), React(3, None))
    assert g1.gifts[0] == G(3)
    assert [d for d in draws(events) if d[0] == 0] == []
    assert draws(events, "comeback") == [(3, 1, "comeback")]


def test_blocked_moves_earn_no_comeback():
    g = build(4, hands=[[C.SNATCH], [], [C.TRIPWIRE], []])
    _g1, events = act(g, PlayCard(0, one(g, 0, C.SNATCH), (2,)), React(2, one(g, 2, C.TRIPWIRE)))
    assert draws(events, "comeback") == []
    assert draws(events) == [(2, 2, "tripwire"), (1, 1, "turn")]


def test_successful_two_step_heist_gives_both_recipients_one_comeback():
    g = build(5, hands=[[], [], [], [C.YANKEE_HEIST, C.SNATCH], []], active=3)
    g1, events = act(
        g,
        PlayCard(3, one(g, 3, C.YANKEE_HEIST), (1, 4), extra=one(g, 3, C.SNATCH)),
        React(1, None),
        React(4, None),
    )
    # clockwise from seat 3: seat 4 before seat 1, though seat 1's gift moved first
    assert draws(events, "comeback") == [(4, 1, "comeback"), (1, 1, "comeback")]
    assert g1.gifts == [G(0), G(3), G(2), G(4), G(1)]


def test_grift_gives_the_two_others_one_comeback_each_and_not_the_active_player():
    g = build(4, hands=[[C.THREE_GIFT_GRIFT], [], [], []])
    g1, events = act(
        g,
        PlayCard(0, one(g, 0, C.THREE_GIFT_GRIFT), (3, 2), direction=Direction.COUNTERCLOCKWISE),
        React(2, None),
        React(3, None),
    )
    assert draws(events, "comeback") == [(2, 1, "comeback"), (3, 1, "comeback")]
    assert g1.gifts == [G(2), G(1), G(3), G(0)]  # 0 -> 3 -> 2 -> 0


def test_no_comeback_for_a_scheme():
    g = build(4, hands=[[C.PICKPOCKET], [C.SNATCH], [], []])
    _g1, events = apply(g, PlayCard(0, one(g, 0, C.PICKPOCKET), (1,)))
    assert draws(events, "comeback") == []


def test_swipe_window_and_comeback():
    g = build(3, hands=[[C.SNATCH, C.SNATCH], [], [C.NOT_SO_FAST]], active=0)
    g1, events = act(g, Swipe(0, g.hands[0], 2), React(2, None))
    assert draws(events, "comeback") == [(2, 1, "comeback")]
    assert g1.hands[2][0] == one(g, 2, C.NOT_SO_FAST)  # passing keeps the card


def test_a_late_answer_naming_a_closed_window_is_refused_not_counted_in_the_next():
    """A phone's tap for window W arriving after W closed must not answer window W+1
    (YANKEE HEIST opens a second window right after the first)."""
    from games.yankee import Gift, Phase, PlayCard, React, apply, card_of, new_game
    from games.yankee.errors import IllegalActionError

    for seed in range(2000):  # a seed that deals the starter a YANKEE HEIST
        g, _ = new_game(seed=seed, gifts=[Gift(i, f"g{i}", i) for i in range(3)])
        heists = [c for c in g.hands[g.active] if card_of(c) is C.YANKEE_HEIST]
        if heists:
            break
    active, heist = g.active, heists[0]
    extra = next(c for c in g.hands[active] if c != heist)
    first, second = (active + 1) % 3, (active + 2) % 3
    g, _ = apply(g, PlayCard(active, heist, (first, second), extra))
    w1 = g.pending.window.version
    g, _ = apply(g, React(first, None, w1))  # pass the first step, naming its window
    assert g.phase is Phase.REACTION and g.pending.window.affected == (second,)
    w2 = g.pending.window.version
    assert w2 == w1 + 1
    before = g.to_dict()
    with pytest.raises(IllegalActionError) as err:
        apply(g, React(second, None, w1))  # a late tap meant for the closed window
    assert err.value.rule == "window"
    assert g.to_dict() == before
    g, _ = apply(g, React(second, None, w2))  # naming the open window counts
    assert g.pending is None or g.pending.window is None or g.pending.window.version != w2
