"""Removing a guest: only in the lobby, once, and a removed guest is gone everywhere
(their place, their name, their secret, the seating)."""

from __future__ import annotations

import pytest

from events.access import gate
from events.broadcast.groups import guest_group
from events.party import services
from tables.errors import ServiceError
from tests import shorthand

pytestmark = pytest.mark.django_db


def refused(expected: str, call, **kwargs) -> None:
    with pytest.raises(ServiceError) as err:
        call(**kwargs)
    assert err.value.code == expected, err.value


def test_a_removed_guest_is_told_and_gone_from_every_lobby_command():
    party, _ = shorthand.party_create(name="Remove")
    guest, token, _ = shorthand.guest_join(code=party.code, name="Sam", description="a gift")
    assert gate.opens_party(party, token)
    outcome = services.guest_remove(party_id=party.pk, guest_id=guest.pk)
    told = [m for g, m in outcome.messages if m.get("type") == "removed"]
    assert len(told) == 1
    assert not gate.opens_party(party, token)  # their secret opens nothing now
    refused("no_guest", services.guest_remove, party_id=party.pk, guest_id=guest.pk)
    refused("no_guest", services.guest_rename, party_id=party.pk, guest_id=guest.pk, name="Sammy")
    # Their name is free again: a new Sam is plain "Sam".
    again, _, _ = shorthand.guest_join(code=party.code, name="Sam", description="a gift")
    assert again.name == "Sam"


def test_removed_guests_are_not_seated_and_do_not_count_toward_two():
    party, _ = shorthand.party_create(name="Too few")
    ids = [shorthand.guest_join(code=party.code, name=f"G{i}", description="a gift")[0].pk for i in range(3)]
    services.guest_remove(party_id=party.pk, guest_id=ids[0])
    services.guest_remove(party_id=party.pk, guest_id=ids[1])
    refused("too_few", services.party_seat, party_id=party.pk)
    shorthand.guest_join(code=party.code, name="Third", description="a gift")
    services.party_seat(party_id=party.pk)
    assert party.guests.get(pk=ids[0]).table_id is None
    assert party.guests.filter(table__isnull=False).count() == 2


def test_once_seated_no_guest_or_vault_gift_leaves_and_seated_names_stay():
    party, _ = shorthand.party_create(name="Seated", vault_size=1)
    guests = [shorthand.guest_join(code=party.code, name=f"G{i}", description="a gift")[0] for i in range(2)]
    services.vault_gift_add(party_id=party.pk, contributor="Host", description="vault")
    services.party_seat(party_id=party.pk)
    refused("seated", services.guest_remove, party_id=party.pk, guest_id=guests[0].pk)
    refused("seated", services.guest_rename, party_id=party.pk, guest_id=guests[0].pk, name="New")
    refused("seated", services.vault_gift_add, party_id=party.pk, contributor="Host", description="late vault")
    refused("seated", services.vault_gift_remove, party_id=party.pk, number=1)
    refused("seated", services.party_seat, party_id=party.pk)
    assert party.guests.filter(removed_at__isnull=False).count() == 0


def test_in_the_lobby_vault_gifts_come_and_go_and_an_unknown_one_is_refused():
    party, _ = shorthand.party_create(name="Vault")
    services.vault_gift_add(party_id=party.pk, contributor="Host", description="vault")
    services.vault_gift_add(party_id=party.pk, contributor="Friend", description="vault too")
    assert list(party.vault_gifts.order_by("number").values_list("number", "contributor")) == [
        (1, "Host"),
        (2, "Friend"),
    ]
    services.vault_gift_remove(party_id=party.pk, number=1)
    refused("invalid", services.vault_gift_remove, party_id=party.pk, number=1)


def test_a_captain_is_chosen_among_seated_guests_only():
    party, _ = shorthand.party_create(name="Captain")
    guests = [shorthand.guest_join(code=party.code, name=f"G{i}", description="a gift")[0] for i in range(3)]
    refused("not_seated", services.party_set_captain, party_id=party.pk, guest_id=guests[0].pk)
    services.party_seat(party_id=party.pk)
    old = party.guests.get(is_captain=True)
    new = party.guests.exclude(pk=old.pk).first()
    assert new is not None
    outcome = services.party_set_captain(party_id=party.pk, guest_id=new.pk)
    assert [g.pk for g in party.guests.filter(is_captain=True)] == [new.pk]
    # Both phones re-read their rights (the old captain's and the new one's).
    told = {group for group, m in outcome.messages if m.get("type") == "resubscribe"}
    assert told == {guest_group(old.pk), guest_group(new.pk)}
