"""The party relay hook: the gate after round 2, the seat draw and the exchange."""

from collections import Counter

import pytest

from games import rng as engine_rng
from games.yankee import (
    DrawRelaySeat,
    Gift,
    IllegalActionError,
    IllegalTargetError,
    Phase,
    Regroup,
    RelayExchange,
    WrongPhaseError,
    apply,
    public_view,
    waiting_for,
)
from tests.engine.builders import build, draws, gift_id, of_type, pass_turn, pass_turns

INCOMING = Gift(id=500, description="a gift from the next table")


def at_gate(players=4, seed=1, starter=1):
    """The last turn of round 2 at a gated table, then pass it: the GATE phase."""
    g = build(
        players, hands=[[]] * players, round=2, starter=starter, active=(starter - 1) % players, gate=True, seed=seed
    )
    g, events = pass_turn(g)
    return g, events


def test_gate_after_round_two():
    g, events = at_gate()
    assert g.phase is Phase.GATE and g.round == 2
    assert [e.type for e in events][-2:] == ["round_ended", "at_gate"]
    assert waiting_for(g) == ()
    with pytest.raises(WrongPhaseError):
        apply(g, Regroup(g.active, ()))


def test_gate_does_not_stop_round_one():
    g = build(4, hands=[[]] * 4, starter=1, active=0, gate=True)
    g, _ = pass_turn(g)
    assert g.phase is Phase.REVEAL


def test_draw_relay_seat_uses_the_games_rng_and_only_once():
    g, _ = at_gate()
    expected, new_rng = engine_rng.below(g.rng, 4)
    g1, events = apply(g, DrawRelaySeat())
    assert g1.relay_seat == expected and g1.rng == new_rng
    assert events[0].type == "relay_seat_drawn"
    assert events[0].data == {"seat": expected, "gift": g.gifts[expected]}
    assert g1.phase is Phase.GATE and public_view(g1)["relay_seat"] == expected
    with pytest.raises(IllegalActionError, match="already drawn") as err:
        apply(g1, DrawRelaySeat())
    assert err.value.rule == "relay_drawn"


def test_relay_seat_is_uniform_over_the_seats():
    seats = Counter()
    for seed in range(400):
        g, _ = at_gate(players=4, seed=seed)
        seats[apply(g, DrawRelaySeat())[0].relay_seat] += 1
    assert set(seats) == {0, 1, 2, 3}
    assert all(60 < n < 140 for n in seats.values()), seats


def test_relay_exchange_replaces_the_drawn_seats_gift_and_starts_round_three():
    g, _ = at_gate(starter=1)
    g1, _ = apply(g, DrawRelaySeat())
    seat = g1.relay_seat
    hands = list(g1.hands)
    g2, events = apply(g1, RelayExchange(INCOMING))
    expected = [gift_id(s) for s in range(4)]
    expected[seat] = 500
    assert g2.gifts == expected
    assert 500 in g2.open and g2.descriptions[500] == INCOMING.description
    assert g2.relayed is True
    ev = of_type(events, "relay_exchanged")[0]
    assert ev.data == {"seat": seat, "gave": gift_id(seat), "received": 500, "description": INCOMING.description}
    # no window, no comeback: the only draw is round 3's first turn draw
    assert of_type(events, "window_opened") == []
    assert draws(events) == [(2, 1, "turn")]
    assert g2.round == 3 and g2.starter == 2 and g2.phase is Phase.ACTION
    assert all(g2.hands[s] == hands[s] for s in range(4) if s != 2)
    # rounds 3 and 4 finish locally; no second gate
    g3, _ = pass_turns(g2, 8)
    assert g3.phase is Phase.OVER


def test_relay_exchange_needs_the_seat_drawn_and_a_new_gift():
    g, _ = at_gate()
    with pytest.raises(IllegalActionError, match="draw the relay seat first") as err:
        apply(g, RelayExchange(INCOMING))
    assert err.value.rule == "relay_not_drawn"
    g1, _ = apply(g, DrawRelaySeat())
    with pytest.raises(IllegalTargetError, match="already at this table"):
        apply(g1, RelayExchange(Gift(gift_id(0), "dup")))


def test_no_relay_without_the_gate():
    g = build(4, hands=[[]] * 4, round=2, starter=1, active=0)
    with pytest.raises(WrongPhaseError):
        apply(g, DrawRelaySeat())
    g, events = pass_turn(g)
    assert g.phase is Phase.ACTION and g.round == 3
    assert of_type(events, "at_gate") == []
    for action in (DrawRelaySeat(), RelayExchange(INCOMING)):
        with pytest.raises(WrongPhaseError):
            apply(g, action)
