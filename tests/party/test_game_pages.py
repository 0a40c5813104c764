"""Each game's pages are its own: every page of a party names the party's game's module
for that page (the phone's, the tablet's, the host's tile, the big screen's board), its
title and its facts (`heist-game`), and no other registered game's module, title or
style sheet; the host's form shows the gift fields only for a game with gifts."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from events.web.screens import PAGE_MODULES
from games.registry import GAMES
from tests import shorthand

pytestmark = [pytest.mark.django_db]

PAGES = {
    "events/play.html": "/p/{}/",
    "events/tablet.html": "/t/{}/",
    "events/host.html": "/host/{}/",
    "events/screen.html": "/screen/{}/",
}
EMBEDDED = re.compile(r'<script id="heist-game" type="application/json">(.*?)</script>', re.S)
TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def _game_on(page: str) -> dict:
    found = EMBEDDED.findall(page)
    assert len(found) == 1
    return json.loads(found[0])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_page_of_a_party_names_its_games_module_and_title_and_no_other_games(name):
    party, _ = shorthand.party_create(name="Night out", game=name)
    definition = GAMES[name]
    others = [d for d in GAMES.values() if d.name != name]
    assert others, "the test needs a second registered game to tell them apart"
    for template, path in PAGES.items():
        page = Client().get(path.format(party.code)).content.decode()
        game = _game_on(page)
        module = PAGE_MODULES[template]
        assert game["module"] == f"/static/{name}/{module}.js", path
        assert (game["name"], game["title"]) == (name, definition.title)
        assert game["min_players"] == definition.min_players and game["table_max"] == definition.table_max
        assert game["private_keys"] == list(definition.private_keys())
        assert game["features"]["gifts"] == definition.features.gifts
        assert definition.title in TITLE.findall(page)[0], path
        for other in others:
            assert f"/static/{other.name}/" not in page, (path, other.name)
            assert other.title not in page, (path, other.name)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_join_page_names_the_games_title_and_loads_no_module(name):
    party, _ = shorthand.party_create(name="Night out", game=name)
    page = Client().get(f"/j/{party.code}/").content.decode()
    assert _game_on(page)["module"] is None
    assert GAMES[name].title in TITLE.findall(page)[0]
    assert all(d.title not in page for d in GAMES.values() if d.name != name)


def test_the_hosts_form_shows_the_gift_fields_only_for_a_game_with_gifts():
    page = Client().get("/").content.decode()
    for name, definition in GAMES.items():
        option = re.search(rf'<option value="{name}"[^>]*>', page)
        assert option is not None, name
        assert f'data-gifts="{"1" if definition.features.gifts else "0"}"' in option.group(0), name
    assert 'id="party-gift-fields"' in page and 'id="party-budget"' in page
    # No page before a party names a game in its title: the product's name.
    assert TITLE.findall(page)[0].startswith("Heist Night")
