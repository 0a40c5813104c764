"""tables/services.py `table_writers`: the one place a table action's writer is chosen
(on the event loop, optimistically from a thread, under the row lock)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from events.party.play import PARTY_RULES
from games.yankee.actions import Action, ConfirmReveal, DrawRelaySeat
from tables import write
from tables.services import ActRequest, Writer, table_writers

SEAT = write.Condition("TRUE", ())


def _request(action: Action) -> ActRequest:
    return ActRequest(party_id=1, table_id=2, action=action, actor_label="host")


def test_an_action_goes_from_the_loop_then_optimistically_then_under_the_lock(settings):
    settings.ACTS_ON_LOOP_CONNECTIONS = 4
    request = _request(ConfirmReveal())
    assert table_writers(request, PARTY_RULES, on_loop=True) == (Writer.ON_LOOP,)
    assert table_writers(request, PARTY_RULES, on_loop=False) == (Writer.OPTIMISTIC, Writer.LOCKED)


def test_the_loop_writes_nothing_when_turned_off(settings):
    settings.ACTS_ON_LOOP_CONNECTIONS = 0
    assert table_writers(_request(ConfirmReveal()), PARTY_RULES, on_loop=True) == ()


@pytest.mark.parametrize("on_loop", [True, False])
def test_a_relay_draw_is_decided_under_the_lock_only(settings, on_loop):
    settings.ACTS_ON_LOOP_CONNECTIONS = 4
    expected = () if on_loop else (Writer.LOCKED,)
    assert table_writers(_request(DrawRelaySeat()), PARTY_RULES, on_loop=on_loop) == expected


def test_a_guests_seat_check_rides_only_in_the_optimistic_statement(settings):
    """`only_if` lives in the optimistic statement: the locked writer cannot carry it, so
    a request with one is never written there (the socket reads the seat first)."""
    settings.ACTS_ON_LOOP_CONNECTIONS = 4
    request = replace(_request(ConfirmReveal()), only_if=SEAT)
    assert table_writers(request, PARTY_RULES, on_loop=True) == (Writer.ON_LOOP,)
    assert table_writers(request, PARTY_RULES, on_loop=False) == (Writer.OPTIMISTIC,)
    assert table_writers(replace(_request(DrawRelaySeat()), only_if=SEAT), PARTY_RULES, on_loop=False) == ()
