"""An expired party (parties last seven days) refuses every write, clearly, by its
code or by its id; a deleted one is unknown."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from events.models import Party
from events.party import services, tablets
from tables.errors import ServiceError
from tests import shorthand

pytestmark = pytest.mark.django_db


def refused(expected: str, call, **kwargs) -> None:
    with pytest.raises(ServiceError) as err:
        call(**kwargs)
    assert err.value.code == expected, err.value


def expire(party: Party) -> None:
    Party.objects.filter(pk=party.pk).update(expires_at=timezone.now() - timedelta(seconds=1))


def test_an_expired_party_refuses_joins_and_the_hosts_commands():
    party, _ = shorthand.party_create(name="Old")
    guest, _, _ = shorthand.guest_join(code=party.code, name="Ann", description="a gift")
    expire(party)
    refused("expired", services.guest_join, code=party.code, name="Bob", description="a gift")
    refused("expired", services.guest_remove, party_id=party.pk, guest_id=guest.pk)
    refused("expired", services.party_set_registration, party_id=party.pk, open_=False)
    refused("expired", services.party_seat, party_id=party.pk)
    refused("expired", tablets.tablet_pair, code=party.code, pairing="CDFGHJKM")


def test_a_party_not_expired_yet_still_works():
    party, _ = shorthand.party_create(name="Fresh")
    Party.objects.filter(pk=party.pk).update(expires_at=timezone.now() + timedelta(seconds=60))
    shorthand.guest_join(code=party.code, name="Ann", description="a gift")


def test_a_deleted_party_is_unknown():
    party, _ = shorthand.party_create(name="Gone")
    Party.objects.filter(pk=party.pk).delete()
    refused("no_party", services.party_seat, party_id=party.pk)
    refused("no_party", services.guest_join, code=party.code, name="Ann", description="a gift")
