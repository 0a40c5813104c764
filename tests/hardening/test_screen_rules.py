"""Every page carries the engine's rules for its scripts, once, exactly as
games/yankee/catalogue.py states them (static/heist/ui.js reads them from there;
tests/browser/test_rules_browser.py checks that its behaviour follows them)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from games.yankee import rules_for_screens
from tests import shorthand

pytestmark = [pytest.mark.django_db]

EMBEDDED = re.compile(r'<script id="heist-rules" type="application/json">(.*?)</script>', re.S)


def test_every_page_embeds_the_engines_rules_once():
    party, _ = shorthand.party_create(name="Rules")
    client = Client()
    for path in (
        "/",
        f"/j/{party.code}/",
        f"/host/{party.code}/",
        f"/p/{party.code}/",
        f"/t/{party.code}/",
        f"/screen/{party.code}/",
    ):
        html = client.get(path).content.decode()
        found = EMBEDDED.findall(html)
        assert len(found) == 1, path
        assert json.loads(found[0]) == rules_for_screens(), path
