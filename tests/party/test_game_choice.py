"""The game a party plays: chosen when it is created, among the games whose package
brings all four screens' modules (the host's form offers no game a phone cannot play);
the API takes any registered game and refuses the rest, naming them."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from events.models import Party
from events.party.services import guest_join, party_create, party_seat
from events.web.screens import MODULES, on_screens
from games.registry import DEFAULT_GAME, GAMES
from tables.models import Table

pytestmark = [pytest.mark.django_db]


def _create(client: Client, **fields: object):
    return client.post("/api/parties", json.dumps({"name": "Game night", **fields}), "application/json")


def test_the_hosts_form_offers_only_games_whose_pages_are_wired():
    page = Client().get("/").content.decode()
    wired = [name for name in GAMES if on_screens(name)]
    offered = [name for name in GAMES if f'<option value="{name}"' in page]
    assert offered == (wired if len(wired) > 1 else [])
    # While one game is on the screens, the form has no choice to make at all.
    assert ('id="party-game"' in page) == (len(wired) > 1)
    assert DEFAULT_GAME in wired


def test_a_game_is_on_the_screens_exactly_when_its_package_has_the_four_modules(settings, tmp_path):
    assert all(on_screens(name) for name in GAMES)
    # A game's static folder (found as any app's) with one module short, then whole: a
    # name no registered game has, so no package's own modules answer for it.
    folder = tmp_path / "static" / "sparrow"
    folder.mkdir(parents=True)
    settings.STATICFILES_DIRS = [*settings.STATICFILES_DIRS, tmp_path / "static"]
    for module in MODULES[:-1]:
        (folder / f"{module}.js").write_text("export function mount() {}\n")
        assert not on_screens("sparrow")
    (folder / f"{MODULES[-1]}.js").write_text("export function mount() {}\n")
    assert on_screens("sparrow")


def test_a_party_plays_the_game_it_was_created_with():
    client = Client()
    assert _create(client).status_code == 201
    assert Party.objects.get().game == DEFAULT_GAME
    assert _create(client, game="royal").status_code == 201
    assert Party.objects.order_by("-pk").first().game == "royal"


@pytest.mark.parametrize("game", ["chess", "", 7, None, "ROYAL"])
def test_an_unknown_game_is_refused_and_nothing_is_created(game):
    answer = _create(Client(), game=game)
    assert answer.status_code == 400
    assert "royal" in answer.json()["message"] and "yankee" in answer.json()["message"]
    assert not Party.objects.exists()


def test_a_royal_party_plays_three_games_in_a_row_unless_the_host_says_otherwise():
    client = Client()
    assert _create(client, game="royal").status_code == 201
    assert _create(client, game="royal", games=1).status_code == 201
    assert _create(client).status_code == 201
    assert [p.games for p in Party.objects.order_by("pk")] == [3, 1, 1]


@pytest.mark.parametrize(
    ("game", "games"), [("royal", 0), ("royal", 5), ("royal", "3"), ("royal", True), ("yankee", 2), ("yankee", 0)]
)
def test_more_games_in_a_row_than_the_game_offers_is_refused_and_nothing_is_created(game, games):
    answer = _create(Client(), game=game, games=games)
    assert answer.status_code == 400, answer.json()
    assert "in a row" in answer.json()["message"]
    assert not Party.objects.exists()


def test_each_table_of_the_party_plays_its_games_in_a_row():
    created = party_create(name="Game night", game="royal", games=2).data
    for i in range(4):
        guest_join(code=created["code"], name=f"Guest {i}", description="")
    party_seat(party_id=created["party"])
    (table,) = Table.objects.all()
    assert table.state["games"] == 2 and table.state["game"] == 1 and table.setup["games"] == 2


def test_the_home_pages_welcome_is_the_party_hosts_not_one_games():
    """The welcome above the forms speaks for the host of every game: it names each game
    the form offers (their titles, from the registry) and tells no one game's rules (it
    told a gift swap's to a party of any game)."""
    page = Client().get("/").content.decode()
    hero = page.split('class="panel hero"', 1)[1].split("</section>", 1)[0]
    for name, definition in GAMES.items():
        assert (definition.title in hero) == on_screens(name), (name, hero)
    assert "gift" not in hero.lower(), hero
