"""A table's broadcast in two parts: the public view, sent to every screen, and each
seat's private part, sent only to that seat's screens. A phone merges them
(static/heist/live.js; `merge_private` here): the result must be exactly the seat view,
and the private part must hold nothing of any other seat."""

from __future__ import annotations

import json

import pytest

from games.yankee import public_view, seat_view
from games.yankee.views import merge_private, merge_table_message, seat_private
from tests.engine.test_leaks import Recorded


def roundtrip(x):
    return json.loads(json.dumps(x))


@pytest.mark.parametrize("index", range(0, 60, 3))
def test_public_plus_private_is_the_seat_view_at_every_step(index):
    rec = Recorded(index)
    steps = 0
    while True:
        g = rec.game
        public = roundtrip(public_view(g))
        for seat in range(g.players):
            private = roundtrip(seat_private(g, seat))
            assert merge_private(public, private) == roundtrip(seat_view(g, seat))
        assert public == roundtrip(public_view(g)), "merging changed the shared public view"
        steps += 1
        if not rec.step():
            break
    assert steps > 5


@pytest.mark.parametrize("index", range(1, 60, 7))
def test_a_private_part_names_only_its_own_seat_hand_and_peeks(index):
    rec = Recorded(index)
    while rec.step():
        g = rec.game
        for seat in range(g.players):
            private = seat_private(g, seat)
            assert [c["id"] for c in private["hand"]] == list(g.hands[seat])
            text = json.dumps(private)
            for gift, description in rec.desc.items():
                if description in text:
                    assert gift in g.peeks[seat] and gift not in g.open, f"seat {seat} sees gift {gift}"
            for other in range(g.players):
                if other != seat:
                    for card in set(g.hands[other]) - set(g.hands[seat]):
                        assert f'"id": {card},' not in text


def test_a_message_without_a_private_part_is_left_as_it_is():
    msg = {"type": "table", "version": 3, "view": {"seats": []}, "events": []}
    assert merge_table_message(msg) is msg


def test_a_seat_message_takes_its_own_events_when_it_has_them():
    rec = Recorded(4)
    g = rec.game
    private = {**seat_private(g, 1), "events": [{"type": "drew", "cards": [1]}]}
    msg = {
        "type": "table",
        "version": g.version,
        "view": public_view(g),
        "events": [{"type": "drew"}],
        "private": private,
    }
    out = merge_table_message(msg)
    assert "private" not in out
    assert out["events"] == [{"type": "drew", "cards": [1]}]
    assert out["view"] == seat_view(g, 1)
