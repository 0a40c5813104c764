"""Issue 38: a game that brings no story of its own (no `party/story`) gets the host's
page: its title, the champions and winners of its result, no table-by-table story, no
JSON, no picture; and the story pages of the real games name their own game only."""

from __future__ import annotations

import random

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory

from events.access.gate import give_pass
from events.party import services
from story.game import FALLBACK_TEMPLATE, story_of
from tests import shorthand
from tests.bare_game import register
from tests.party.played import play_to_the_end

pytestmark = pytest.mark.django_db


def test_a_game_without_a_story_gets_the_hosts_page(monkeypatch):
    game = register(monkeypatch)
    assert story_of(game) is None and story_of("royal") is not None and story_of("yankee") is not None
    party, _ = shorthand.party_create(name="Bare night", game=game, games=1)
    for i in range(9):
        shorthand.guest_join(code=party.code, name=f"G{i}", description="")
    services.party_seat(party_id=party.pk)
    r = random.Random(3)
    play_to_the_end(party, r)
    client = Client()
    page = client.get(f"/story/{party.code}/")
    assert page.status_code == 200
    assert page.templates[0].name == FALLBACK_TEMPLATE
    text = page.content.decode()
    title = text.split("<title>")[1].split("</title>")[0]
    assert "Bare Caper" in title
    told = text.split('id="story"')[1].split("<script")[0]
    assert "Champion" in told and "Bare Caper tells no table-by-table story" in told
    for other in ("Royal", "Yankee", "heist by heist", "jewels"):
        assert other not in told and other not in title, other
    for download in ("story.json", "flow.svg"):
        missing = client.get(f"/story/{party.code}/{download}")
        assert missing.status_code == 404 and missing.json()["error"] == "no_story"


def test_the_pages_wait_in_each_games_own_words(monkeypatch):
    """Before the end, one of the party's own sees the page wait, titled with its game and
    worded by it (a Royal Heist table plays heists; the host's words say turns)."""
    bare = register(monkeypatch)
    for game, title, last in (
        ("yankee", "Yankee Heist", "its last turn"),
        ("royal", "Royal Heist", "its last heist"),
        (bare, "Bare Caper", "its last turn"),
    ):
        party, _ = shorthand.party_create(name="Waiting night", game=game)
        cookie = HttpResponse()
        give_pass(cookie, RequestFactory().get("/"), party.code)
        own = Client()
        own.cookies.update(cookie.cookies)
        page = own.get(f"/story/{party.code}/")
        assert page.status_code == 200
        text = page.content.decode()
        assert "Not over yet" in text and last in text
        head = text.split("<title>")[1].split("</title>")[0]
        told = text.split('id="story"')[1].split("<script")[0]  # the page's own words (base.html's brand aside)
        assert title in head
        for other in {"Yankee Heist", "Royal Heist", "Bare Caper"} - {title}:
            assert other not in head and other not in told, (game, other)
