"""A Royal Heist party's pages: a guest joins without describing a gift (the game has
none; Yankee Heist still asks for one), and its phone page, dashboard, big screen and tablet load
Royal's scripts with its rules, while a Yankee Heist party's pages load none of them."""

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


def test_royal_pages_load_royal_scripts_and_rules_and_yankee_pages_do_not():
    royal, _ = shorthand.party_create(name="Royal night", game="royal")
    yankee, _ = shorthand.party_create(name="Swap night")
    rules = json.dumps(game_named("royal").rules_for_screens())
    for path in ("/p/{}/", "/host/{}/", "/screen/{}/", "/t/{}/"):
        page = Client().get(path.format(royal.code)).content.decode()
        assert 'id="royal-rules"' in page and "royal/royal.css" in page, path
        other = Client().get(path.format(yankee.code)).content.decode()
        assert 'id="royal-rules"' not in other and "royal/play.js" not in other, path
    phone = Client().get(f"/p/{royal.code}/").content.decode()
    assert "royal/play.js" in phone and "yankee/phone.js" not in phone
    assert json.loads(rules) == json.loads(
        phone.split('id="royal-rules" type="application/json">')[1].split("</script>")[0]
    )
    assert 'id="guest-gift"' not in Client().get(f"/j/{royal.code}/").content.decode()
    assert 'id="guest-gift"' in Client().get(f"/j/{yankee.code}/").content.decode()
