"""Seating a late arrival in a leaver's place: only while the tables play, only a late
arrival not yet seated, only in place of a seated guest."""

from __future__ import annotations

import pytest

from events.models import Guest, SeatHandOver
from events.party import services
from tables.errors import ServiceError
from tests import shorthand

pytestmark = pytest.mark.django_db


def refused(expected: str, call, **kwargs) -> None:
    with pytest.raises(ServiceError) as err:
        call(**kwargs)
    assert err.value.code == expected, err.value


def test_a_late_arrival_is_seated_once_in_place_of_a_seated_guest_only():
    party, _ = shorthand.party_create(name="Late")
    early = [shorthand.guest_join(code=party.code, name=f"G{i}", description="a gift")[0] for i in range(3)]
    refused("not_playing", services.late_guest_seat, party_id=party.pk, late_guest_id=early[0].pk, guest_id=early[1].pk)
    services.party_seat(party_id=party.pk)
    late = [shorthand.guest_join(code=party.code, name=f"L{i}", description="a gift")[0] for i in range(2)]
    # Not a late arrival; then a leaver with no seat.
    refused("no_guest", services.late_guest_seat, party_id=party.pk, late_guest_id=early[0].pk, guest_id=early[1].pk)
    refused("not_seated", services.late_guest_seat, party_id=party.pk, late_guest_id=late[0].pk, guest_id=late[1].pk)
    leaver = Guest.objects.get(pk=early[1].pk)
    services.seat_hand_over(party_id=party.pk, guest_id=leaver.pk, requested_by="host")  # a code never used
    seat = services.late_guest_seat(party_id=party.pk, late_guest_id=late[0].pk, guest_id=leaver.pk).data
    assert seat["guest"] == late[0].pk and seat["seat"] == leaver.seat
    # The seated late arrival cannot be seated again; the leaver has no seat to give now.
    refused("seated", services.late_guest_seat, party_id=party.pk, late_guest_id=late[0].pk, guest_id=early[2].pk)
    refused("not_seated", services.late_guest_seat, party_id=party.pk, late_guest_id=late[1].pk, guest_id=leaver.pk)
    moved = Guest.objects.get(pk=late[0].pk)
    assert (moved.table_id, moved.seat, moved.is_captain) == (leaver.table_id, leaver.seat, leaver.is_captain)
    gone = Guest.objects.get(pk=leaver.pk)
    assert (gone.table_id, gone.seat, gone.is_captain) == (None, None, False)
    # The unused code's record is gone; the one hand-over left is the late arrival's.
    records = SeatHandOver.objects.filter(guest=leaver)
    assert [(r.substitute_id, r.claimed_by) for r in records] == [(late[0].pk, "L0")]


def test_a_captain_leaving_hands_the_captaincy_to_the_late_arrival():
    party, _, _ = shorthand.party_seated(name="Captain leaves", guests=3)
    captain = Guest.objects.get(party=party, is_captain=True)
    late, _, _ = shorthand.guest_join(code=party.code, name="Late", description="a gift")
    services.late_guest_seat(party_id=party.pk, late_guest_id=late.pk, guest_id=captain.pk)
    assert list(Guest.objects.filter(party=party, is_captain=True).values_list("pk", flat=True)) == [late.pk]
