"""The result CSV opens in Excel with its accents (issue 28, item 9): it starts with a
UTF-8 byte-order mark, without which Excel reads it in the system's code page and shows
"TomÃ¡s" for "Tomás"."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from events.party import services
from tests import shorthand

pytestmark = [pytest.mark.django_db]


def test_the_result_csv_starts_with_a_utf8_byte_order_mark():
    party, host_token = shorthand.party_create(name="Fiesta")
    for name in ("Tomás", "Zoë", "Ann"):
        shorthand.guest_join(code=party.code, name=name, description=f"{name}'s piñata")
    services.party_seat(party_id=party.pk)
    got = Client().get(f"/api/parties/{party.code}/result.csv", HTTP_AUTHORIZATION=f"Bearer {host_token}")
    assert got.status_code == 200
    assert got.content.startswith(b"\xef\xbb\xbf")
    assert got.content.count(b"\xef\xbb\xbf") == 1  # once, not before every row
    rows = list(csv.DictReader(io.StringIO(got.content.decode("utf-8-sig"))))
    assert list(rows[0]) == ["kind", "name", "table", "seat", "gift", "description", "source", "played by"]
    assert {r["name"] for r in rows} == {"Tomás", "Zoë", "Ann"}
