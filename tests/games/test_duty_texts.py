"""Each game says what its step clock times and what its captain does (games/definition.py
NamesDuties), and the page carries it in the page's language (`heist-game`'s `duties`):
the host's dashboard shows a Royal Heist party Royal Heist's stand-in, never Yankee
Heist's; a game that says nothing (the canary) gets nothing, and the host's plain words.
The browser side: tests/browser/test_host_duties_browser.py."""

from __future__ import annotations

import pytest
from django.utils import translation

from events.web.screens import game_for_page
from games.definition import NamesDuties
from games.registry import GAMES, game_named

KEYS = {"clock", "clock_off", "tablet"}


@pytest.mark.parametrize("name", sorted(n for n, d in GAMES.items() if isinstance(d, NamesDuties)))
def test_the_page_carries_the_games_own_duties(name: str) -> None:
    definition = game_named(name)
    assert isinstance(definition, NamesDuties)
    texts = definition.duty_texts()
    assert set(texts) <= KEYS and {"clock", "tablet"} <= set(texts), texts
    with translation.override("en"):
        assert game_for_page(name)["duties"] == dict(texts)


def test_only_yankee_heist_speaks_of_its_rules() -> None:
    # the stand-ins of each game's clock (docs/RULES.md), in its menu
    menus = {name: game_for_page(name)["duties"]["clock"] for name in ("yankee", "royal", "word", "blinks")}
    assert menus["yankee"].endswith("pass the turn, discard at random, let the move happen, start round 2.")
    assert "get out" in menus["royal"]
    assert "an abstention" in menus["word"]
    assert "pass the turn, with no throw and no skip" in menus["blinks"]
    for name in ("royal", "word", "blinks"):
        assert "discard" not in menus[name] and "round 2" not in menus[name], name
        assert "clock_off" not in game_for_page(name)["duties"], name  # no rulebook pass with the clock off


def test_a_game_without_duties_gets_none() -> None:
    assert game_for_page("canary")["duties"] == {}


@pytest.mark.parametrize(
    ("language", "name", "start"),
    [
        ("de", "yankee", "Wie lange Zug, Reaktion, Abwurf oder Aufdecken"),
        ("es", "yankee", "Cuánto pueden esperar el turno, la reacción"),
        ("de", "royal", "Wie lange die Wahl eines stillen Gastes"),
        ("es", "word", "Cuánto pueden esperar la palabra secreta"),
        ("de", "blinks", "Wie lange der Zug eines stillen Werfers"),
    ],
)
def test_the_duties_arrive_in_the_pages_language(language: str, name: str, start: str) -> None:
    with translation.override(language):
        assert game_for_page(name)["duties"]["clock"].startswith(start)
