"""Registration: closed and open, the guest cap (removed guests free their place) and
the late arrivals' cap (only late arrivals count)."""

from __future__ import annotations

import pytest

from events.models import Party
from events.party import services
from tables import seating
from tables.errors import ServiceError
from tests import shorthand

pytestmark = pytest.mark.django_db


def join(party: Party, name: str) -> int:
    return services.guest_join(code=party.code, name=name, description="a gift").data["guest"]


def refused(expected: str, call, **kwargs) -> None:
    with pytest.raises(ServiceError) as err:
        call(**kwargs)
    assert err.value.code == expected, err.value


def test_a_closed_registration_refuses_a_join_until_the_host_reopens_it():
    party, _ = shorthand.party_create(name="Door")
    join(party, "Ann")
    services.party_set_registration(party_id=party.pk, open_=False)
    refused("closed", services.guest_join, code=party.code, name="Bob", description="a gift")
    services.party_set_registration(party_id=party.pk, open_=True)
    join(party, "Bob")
    # Lobby joins are no late arrivals; their gifts are labelled 1, 2, ...
    assert list(party.guests.order_by("pk").values_list("late", "gift_number")) == [(False, 1), (False, 2)]


def test_an_ended_party_takes_no_one():
    party, _ = shorthand.party_create(name="Over")
    Party.objects.filter(pk=party.pk).update(status=Party.Status.OVER)
    refused("closed", services.guest_join, code=party.code, name="Late", description="a gift")


def test_after_the_deal_a_join_is_a_late_arrival_and_registration_cannot_be_toggled():
    party, _, _ = shorthand.party_seated(name="Dealt", guests=3)
    guest = party.guests.get(pk=join(party, "Latecomer"))
    assert guest.late and guest.table_id is None
    refused("seated", services.party_set_registration, party_id=party.pk, open_=True)
    refused("seated", services.party_set_registration, party_id=party.pk, open_=False)


def test_a_lobby_takes_the_cap_and_not_one_more_and_a_removed_guest_frees_a_place():
    party, _ = shorthand.party_create(name="Full")
    ids = [join(party, f"G{i}") for i in range(seating.MAX_GUESTS)]  # the last one fits
    refused("full", services.guest_join, code=party.code, name="One too many", description="a gift")
    services.guest_remove(party_id=party.pk, guest_id=ids[0])
    join(party, "In the freed place")
    refused("full", services.guest_join, code=party.code, name="Again too many", description="a gift")
    assert party.guests.filter(removed_at__isnull=True).count() == seating.MAX_GUESTS


LATE_CAP = 30  # late arrivals a party takes (docs/RULES.md); stated here, not read from the code


def test_the_late_cap_counts_late_arrivals_only():
    # More seated guests than the late cap: they must not count against it.
    party, _, _ = shorthand.party_seated(name="Late cap", guests=LATE_CAP + 1)
    for i in range(LATE_CAP):
        join(party, f"Late {i}")
    refused("full", services.guest_join, code=party.code, name="Too late", description="a gift")
    assert party.guests.filter(late=True).count() == LATE_CAP


def test_a_join_code_must_name_a_party():
    refused("bad_code", services.guest_join, code=None, name="Ann", description="a gift")
    refused("no_party", services.guest_join, code="CCCCCC", name="Ann", description="a gift")
