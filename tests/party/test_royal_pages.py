"""A Royal Heist party's pages: a guest joins without describing a gift (the game has
none; Yankee Heist still asks for one), and its phone page, dashboard, big screen and tablet carry
Royal's rules and style sheet, while a Yankee Heist party's pages carry none of them
(which module each page loads: tests/party/test_game_pages.py)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from events.models import Guest
from games.registry import game_named
from tests import shorthand

pytestmark = [pytest.mark.django_db]


def _join(code: str, **fields: object):
    return Client().post(f"/api/parties/{code}/guests", json.dumps(fields), "application/json")


def test_a_royal_guest_joins_without_a_gift_and_a_yankee_guest_cannot():
    royal, _ = shorthand.party_create(name="Royal night", game="royal")
    assert _join(royal.code, name="Bea").status_code == 201
    assert Guest.objects.get(party=royal).description == ""
    yankee, _ = shorthand.party_create(name="Swap night")
    answer = _join(yankee.code, name="Bea")
    assert answer.status_code == 400 and "gift" in answer.json()["message"]


def test_royal_pages_carry_royal_rules_and_css_and_yankee_pages_do_not():
    royal, _ = shorthand.party_create(name="Royal night", game="royal")
    yankee, _ = shorthand.party_create(name="Swap night")
    rules = json.dumps(game_named("royal").rules_for_screens())
    for path in ("/p/{}/", "/host/{}/", "/screen/{}/", "/t/{}/"):
        page = Client().get(path.format(royal.code)).content.decode()
        assert "royal/royal.css" in page, path
        assert json.loads(rules) == json.loads(
            page.split('id="heist-rules" type="application/json">')[1].split("</script>")[0]
        )
        other = Client().get(path.format(yankee.code)).content.decode()
        assert "royal/" not in other, path
    assert 'id="guest-gift"' not in Client().get(f"/j/{royal.code}/").content.decode()
    assert 'id="guest-gift"' in Client().get(f"/j/{yankee.code}/").content.decode()


def test_a_royal_tablets_pairing_page_says_where_royals_dashboard_pairs_a_tablet():
    # Royal Heist's dashboard shows each table with its "Pair a tablet" button; only Yankee
    # Heist's folds a table into a tile whose Details hold it.
    royal, _ = shorthand.party_create(name="Royal night", game="royal")
    yankee, _ = shorthand.party_create(name="Swap night")
    royal_page = Client().get(f"/t/{royal.code}/").content.decode()
    yankee_page = Client().get(f"/t/{yankee.code}/").content.decode()
    assert "<strong>Details</strong>" not in royal_page and "“Pair a tablet” under the table" in royal_page
    assert "<strong>Details</strong>" in yankee_page and "under the table" not in yankee_page
