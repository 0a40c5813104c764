"""Canary Heist's rules, one test per rule, and hypothesis for what holds in every game."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.definition import Role, Setup
from games.errors import IllegalActionError, MalformedActionError, OutOfTurnError, WrongPhaseError
from tests.canary.canary.definition import DEFINITION as CANARY
from tests.canary.canary.rules import Draw, TimeoutDraw, canary_setup


def _played(players: int, seed: int | str):
    state, _ = canary_setup(players=players, seed=seed)
    for seat in range(players):
        state, _ = CANARY.apply(state, Draw(seat))
    return state


def test_the_deck_is_the_52_cards_shuffled_by_the_seed():
    a, _ = canary_setup(players=2, seed=7)
    b, _ = canary_setup(players=2, seed=7)
    c, _ = canary_setup(players=2, seed=8)
    assert sorted(a.deck) == list(range(1, 53))
    assert a.deck == b.deck and a.deck != c.deck


def test_seats_draw_once_each_in_seat_order():
    state, _ = canary_setup(players=3, seed=1)
    top = state.deck[0]
    with pytest.raises(OutOfTurnError):
        CANARY.apply(state, Draw(1))
    state, events = CANARY.apply(state, Draw(0))
    assert state.cards == (top, None, None) and state.version == 1
    assert events[0].data == {"seat": 0, "card": top}
    with pytest.raises(OutOfTurnError):
        CANARY.apply(state, Draw(0))  # seat 0 has drawn: it never draws again


def test_the_highest_card_wins_and_the_game_is_over():
    state = _played(4, seed="x")
    assert CANARY.is_over(state) and CANARY.waiting_for(state) == ()
    best = max(c for c in state.cards if c is not None)
    standings = CANARY.standings(state)
    assert [s.seat for s in standings if s.winner] == [state.cards.index(best)]
    assert CANARY.public_view(state)["winners"] == [state.cards.index(best)]
    with pytest.raises(WrongPhaseError):
        CANARY.apply(state, Draw(0))


def test_tied_cards_share_the_win():
    state = _played(3, seed=2)
    tied = type(state)(players=3, deck=state.deck, cards=(9, 40, 40), version=3)
    standings = CANARY.standings(tied)
    assert [(s.rank, s.winner) for s in standings] == [(3, False), (1, True), (1, True)]


def test_a_table_of_2_to_10():
    for players in (2, 10):
        CANARY.setup(Setup(players=players, seed=1))
    for players in (1, 11):
        with pytest.raises(IllegalActionError):
            CANARY.setup(Setup(players=players, seed=1))


@pytest.mark.parametrize("data", [None, {}, {"type": "draw"}, {"type": "draw", "seat": "1"}, {"type": "x", "seat": 0}])
def test_a_malformed_draw_is_refused(data):
    with pytest.raises(MalformedActionError):
        CANARY.parse_action(data)


@given(st.integers(2, 10), st.integers(0, 2**32))
def test_every_game_deals_distinct_cards_and_ranks_every_seat(players, seed):
    state = _played(players, seed)
    assert len(set(state.cards)) == players and len(state.deck) == 52 - players
    assert CANARY.from_dict(CANARY.to_dict(state)) == state
    assert sum(s.winner for s in CANARY.standings(state)) == 1  # one deck: no two cards tie


def test_a_quiet_seat_s_clock_draws_for_it_as_a_captain_s_duty():
    state, _ = canary_setup(players=3, seed=4)
    clock = CANARY.clock(state, CANARY.clock_steps())
    assert clock is not None and clock.stand_in == TimeoutDraw(0) and clock.waiting == (0,)
    assert CANARY.role_of(clock.stand_in) is Role.DUTY and CANARY.role_of(Draw(0)) is Role.SEAT
    assert CANARY.legal_actions(state, None) == [TimeoutDraw(0)]
    with pytest.raises(OutOfTurnError):
        CANARY.apply(state, TimeoutDraw(1))
    after, _ = CANARY.apply(state, clock.stand_in)
    assert after.cards == (state.deck[0], None, None)
    assert CANARY.parse_action({"type": "timeout_draw", "seat": 0}) == TimeoutDraw(0)
