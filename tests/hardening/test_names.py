"""Names (item 10 of issue 8): NFKC-normalised, invisible and bidi-control characters
stripped, refused when nothing visible is left; two guests never share a name on the
screens (the server suffixes " (2)", " (3)"...)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from events.models import Guest
from events.party import services
from tables.errors import ServiceError
from tests import shorthand

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]

BLANK = [
    "\u200b",  # zero-width space
    "\u200b\u200c\u200d\u2060\ufeff",  # zero-width (non-)joiners, word joiner, BOM
    "\u202e\u202c",  # bidi override and pop
    "\u2066\u2069\u200e\u200f",  # bidi isolates and marks
    "\ufe0f\u0301",  # a variation selector and a combining mark, on nothing
    "\u3164\u115f",  # Hangul fillers: letters that draw nothing
    " \u00ad ",  # a soft hyphen between spaces
]


def _join(code, name, description="a gift"):
    return shorthand.guest_join(code=code, name=name, description=description)[0]


@pytest.mark.parametrize("name", BLANK)
def test_a_name_with_nothing_visible_is_refused_and_changes_nothing(name):
    party, _ = shorthand.party_create(name="Blank")
    with pytest.raises(ServiceError) as exc:
        _join(party.code, name)
    assert exc.value.code == "invalid" and "name" in str(exc.value)
    assert not Guest.objects.filter(party=party).exists()
    res = Client().post(
        f"/api/parties/{party.code}/guests", json.dumps({"name": name, "description": "x"}), "application/json"
    )
    assert res.status_code == 400 and res.json()["error"] == "invalid"


@pytest.mark.parametrize(
    "typed, stored",
    [
        ("\u202eevil\u202c", "evil"),  # right-to-left override stripped
        ("A\u200bn\u200bn", "Ann"),
        ("\uff22\uff45\uff41", "Bea"),  # full-width letters, NFKC
        ("Zo\u0065\u0301", "Zo\u00e9"),  # e + combining acute composes
        ("\u2066Dan\u2069 \u200fK", "Dan K"),
        ("👩\u200d👩\u200d👧 Fam", "👩\u200d👩\u200d👧 Fam"),  # an emoji sequence keeps its joiners
        ("Eve\u200d", "Eve"),  # a joiner joining nothing goes
    ],
)
def test_names_are_normalised_and_stripped_of_invisibles(typed, stored):
    party, _ = shorthand.party_create(name="Norm\u200b")
    assert party.name == "Norm"
    assert _join(party.code, typed).name == stored


def test_two_guests_with_the_same_name_are_told_apart():
    party, _ = shorthand.party_create(name="Twins")
    first = _join(party.code, "Sam")
    second = _join(party.code, "sam")
    third = _join(party.code, "S\u200bam")  # the same after stripping
    assert [first.name, second.name, third.name] == ["Sam", "sam (2)", "Sam (3)"]
    long = "L" * 40
    assert _join(party.code, long).name == long
    assert _join(party.code, long).name == "L" * 36 + " (2)"  # still within 40 characters
    # the join response says the name the screens will show
    res = Client().post(
        f"/api/parties/{party.code}/guests", json.dumps({"name": "Sam", "description": "x"}), "application/json"
    )
    assert res.status_code == 201 and res.json()["name"] == "Sam (4)"
    # the host renames to tell guests apart: a rename to a name another guest is called
    # (a " (N)" does not tell them apart at the table) is refused and changes nothing;
    # renaming to one's own name is fine
    services.guest_rename(party_id=party.pk, guest_id=second.pk, name="Bea")
    for taken in ("Sam", "sam (2)", "BEA", "Sam (7)"):
        with pytest.raises(ServiceError, match="another guest already has that name"):
            services.guest_rename(party_id=party.pk, guest_id=third.pk, name=taken)
        assert Guest.objects.get(pk=third.pk).name == "Sam (3)"
    services.guest_rename(party_id=party.pk, guest_id=third.pk, name="Sam B")
    assert Guest.objects.get(pk=third.pk).name == "Sam B"
    services.guest_rename(party_id=party.pk, guest_id=second.pk, name="BEA")
    assert Guest.objects.get(pk=second.pk).name == "BEA"
