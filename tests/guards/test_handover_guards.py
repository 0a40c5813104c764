"""A seat's hand-over: who may start it and when (the host always; a captain for their
own seat, an offered seat while the offer lasts, or a seat offline long enough), and
the claim code's life and shape."""

from __future__ import annotations

from datetime import timedelta

import pytest

from events.models import Guest, SeatHandOver
from events.party import services
from tables.errors import ServiceError
from tests import shorthand

pytestmark = pytest.mark.django_db

# The deadlines (docs/RULES.md), stated here rather than read from the code under test.
OFFLINE = timedelta(minutes=2)  # a seat nobody used this long may be handed over by its captain
OFFER = timedelta(minutes=10)  # a guest's offer of their seat lasts this long
CLAIM = timedelta(minutes=15)  # a hand-over's claim code lasts this long


def refused(expected: str, call, **kwargs) -> None:
    with pytest.raises(ServiceError) as err:
        call(**kwargs)
    assert err.value.code == expected, err.value


def seated(n: int = 4):
    party, _, _ = shorthand.party_seated(name="Hand-over", guests=n)
    guests = list(Guest.objects.filter(party=party).order_by("pk"))
    captain = next(g for g in guests if g.is_captain)
    other = next(g for g in guests if not g.is_captain and g.table_id == captain.table_id)
    return party, captain, other


def hand_over(party, guest, by: str):
    return services.seat_hand_over(party_id=party.pk, guest_id=guest.pk, requested_by=by)


def seen(guest: Guest, when) -> None:
    Guest.objects.filter(pk=guest.pk).update(last_seen=when)


def reasons(guest: Guest) -> list[str]:
    return list(SeatHandOver.objects.filter(guest=guest).order_by("pk").values_list("reason", flat=True))


def test_a_seat_in_use_goes_by_the_host_or_the_captains_own_seat_only(clock):
    party, captain, other = seated()
    seen(other, clock.now)
    seen(captain, clock.now)
    refused("seat_in_use", hand_over, party=party, guest=other, by=f"captain:{captain.pk}")
    by_host = hand_over(party, other, "host")
    by_captain = hand_over(party, captain, f"captain:{captain.pk}")
    assert reasons(other) == ["host"] and reasons(captain) == ["consent"]
    # The notice reaches every seat at the table (and the host), and says who asked.
    seats = Guest.objects.filter(table_id=captain.table_id).count()
    for outcome, by in ((by_host, "host"), (by_captain, "captain")):
        notices = [(g, m) for g, m in outcome.messages if m.get("kind") == "handover"]
        assert len(notices) == seats + 1 and {m["by"] for _, m in notices} == {by}


def test_a_captain_may_hand_over_a_seat_offline_two_minutes_and_not_before(clock):
    party, captain, other = seated()
    seen(other, clock.now - OFFLINE + timedelta(seconds=1))
    refused("seat_in_use", hand_over, party=party, guest=other, by=f"captain:{captain.pk}")
    seen(other, clock.now - OFFLINE)
    hand_over(party, other, f"captain:{captain.pk}")
    assert reasons(other) == ["offline"]


def test_a_seat_never_seen_counts_as_offline(clock):
    party, captain, other = seated()
    seen(other, None)
    hand_over(party, other, f"captain:{captain.pk}")
    assert reasons(other) == ["offline"]


def test_an_offer_lets_a_captain_take_the_seat_once_and_only_for_ten_minutes(clock):
    party, captain, other = seated()
    seen(other, clock.now)
    offer = services.seat_offer(party_id=party.pk, guest_id=other.pk)
    assert offer.data == {"minutes": 10}
    seats = Guest.objects.filter(table_id=other.table_id).count()
    assert len([m for _, m in offer.messages if m.get("kind") == "offer"]) == seats + 1
    clock.forward(OFFER - timedelta(seconds=1))
    seen(other, clock.now)
    hand_over(party, other, f"captain:{captain.pk}")
    assert reasons(other) == ["consent"]
    # The offer was used: a second hand-over of a seat in use is refused again.
    refused("seat_in_use", hand_over, party=party, guest=other, by=f"captain:{captain.pk}")
    services.seat_offer(party_id=party.pk, guest_id=other.pk)
    clock.forward(OFFER)
    seen(other, clock.now)
    refused("seat_in_use", hand_over, party=party, guest=other, by=f"captain:{captain.pk}")


def test_only_a_seated_guests_seat_is_offered_or_handed_over():
    party, _ = shorthand.party_create(name="Lobby")
    guest, _, _ = shorthand.guest_join(code=party.code, name="Ann", description="a gift")
    refused("not_seated", services.seat_offer, party_id=party.pk, guest_id=guest.pk)
    refused("not_seated", hand_over, party=party, guest=guest, by="host")


def test_a_claim_code_works_for_fifteen_minutes_once(clock):
    party, _, other = seated()
    started = hand_over(party, other, "host").data
    assert started["minutes"] == 15
    code = started["claim"]
    clock.forward(CLAIM - timedelta(seconds=1))
    guest, _, _ = shorthand.seat_claim(code=party.code, claim=code, name="Sub")
    assert guest.pk == other.pk and guest.name == "Sub"
    record = SeatHandOver.objects.get(guest=other)
    assert record.claimed_by == "Sub" and record.claimed_at == clock.now
    refused("bad_claim", services.seat_claim, code=party.code, claim=code, name="Sub again")
    late = hand_over(party, other, "host").data["claim"]
    clock.forward(CLAIM)
    refused("bad_claim", services.seat_claim, code=party.code, claim=late, name="Too late")


@pytest.mark.parametrize("claim", ["ABC", "A" * 17, "CDFG-HJKM", None])
def test_a_malformed_claim_code_is_refused_before_any_lookup(claim):
    party, _, _other = seated()
    refused("bad_claim", services.seat_claim, code=party.code, claim=claim, name="Sub")


def test_a_claim_names_the_party_whose_seat_it_takes():
    party, _, other = seated()
    code = hand_over(party, other, "host").data["claim"]
    elsewhere, _ = shorthand.party_create(name="Elsewhere")
    refused("bad_claim", services.seat_claim, code=elsewhere.code, claim=code, name="Sub")
    refused("no_party", services.seat_claim, code="CCCCCC", claim=code, name="Sub")
    refused("bad_code", services.seat_claim, code=None, claim=code, name="Sub")
    # A short code of four letters is well formed (the shortest a code may be).
    refused("bad_claim", services.seat_claim, code=party.code, claim="CDFG", name="Sub")
