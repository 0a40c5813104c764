"""Each game says what its step clock times and what its captain does (games/definition.py
NamesDuties), and the page carries it in the page's language (`heist-game`'s `duties`):
the host's dashboard shows a Royal Heist party Royal Heist's stand-in, never Yankee
Heist's; a game that says nothing (the canary) gets nothing, and the host's plain words.
The browser side: tests/browser/test_host_duties_browser.py."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.utils import translation

from events.web.screens import game_for_page
from games.definition import NamesDuties
from games.registry import DEFAULT_GAME, GAMES, game_named

KEYS = {"clock", "clock_off", "tablet", "clock_hint", "stand_in_hint"}
# The host's form's hints for a game that gives none (events/web/views.py PLAIN_CLOCK_HINTS).
PLAIN_HINTS = {
    "clock_hint": "how long a quiet guest's step may wait",
    "stand_in_hint": "else the captain or you may play the rules' do-nothing choice for them",
}
# Words only Yankee Heist's rules have (its discard, reveal, reaction window).
YANKEE_ONLY = ("discard", "reveal", "reaction", "round 2")


@pytest.mark.parametrize("name", sorted(n for n, d in GAMES.items() if isinstance(d, NamesDuties)))
def test_the_page_carries_the_games_own_duties(name: str) -> None:
    definition = game_named(name)
    assert isinstance(definition, NamesDuties)
    texts = definition.duty_texts()
    assert set(texts) <= KEYS and {"clock", "tablet", "clock_hint", "stand_in_hint"} <= set(texts), texts
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


class _Form(HTMLParser):
    """The home page's game options' hints (`data-clock-hint`, `data-stand-in-hint`) and
    the text the page serves in the hints' spans (the default game's)."""

    def __init__(self) -> None:
        super().__init__()
        self.options: dict[str, dict[str, str]] = {}
        self.spans: dict[str, str] = {}
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "option" and "data-clock-hint" in a:
            self.options[a["value"]] = {"clock_hint": a["data-clock-hint"], "stand_in_hint": a["data-stand-in-hint"]}
        if tag == "span" and a.get("id") in ("party-clock-hint", "party-stand-in-hint"):
            self._in = a["id"]

    def handle_data(self, data: str) -> None:
        if self._in:
            self.spans[self._in] = self.spans.get(self._in, "") + data

    def handle_endtag(self, tag: str) -> None:
        self._in = None


def _home(language: str) -> _Form:
    form = _Form()
    form.feed(Client(headers={"accept-language": language}).get("/").content.decode())
    return form


@pytest.mark.django_db
def test_the_hosts_form_carries_each_games_own_clock_hints() -> None:
    """Issue 38: the home page's step clock spoke of turns, reactions, discards and the
    reveal whatever game was chosen. Each game's option carries its own two hints
    (home.js shows the chosen one's), a game that gives none the host's plain words,
    and the page serves the default game's."""
    form = _home("en")
    assert set(form.options) == set(GAMES), form.options  # the canary too (the test settings)
    for name, hints in form.options.items():
        definition = game_named(name)
        own = definition.duty_texts() if isinstance(definition, NamesDuties) else {}
        assert hints == {key: own.get(key, plain) for key, plain in PLAIN_HINTS.items()}, name
    assert form.options["canary"] == PLAIN_HINTS
    assert (
        form.options["yankee"]["stand_in_hint"] == "else the captain or you may: pass, discard at random, let it happen"
    )
    for name in ("royal", "word", "blinks"):
        for words in YANKEE_ONLY:
            assert words not in " ".join(form.options[name].values()), (name, words)
    assert len({hints["clock_hint"] for hints in form.options.values()}) == len(GAMES)
    served = {"clock_hint": form.spans["party-clock-hint"], "stand_in_hint": form.spans["party-stand-in-hint"]}
    assert served == form.options[DEFAULT_GAME]


@pytest.mark.django_db
def test_the_hosts_form_says_the_hints_in_the_pages_language() -> None:
    form = _home("de")
    assert (
        form.options["royal"]["clock_hint"]
        == "wie lange die Wahl eines stillen Gastes, dabeibleiben oder aussteigen, warten darf"
    )
    assert form.options["yankee"]["stand_in_hint"].startswith(
        "sonst dürfen der Kapitän oder du: passen, zufällig abwerfen"
    )
    assert form.options["canary"]["clock_hint"] == "wie lange der Schritt eines stillen Gastes warten darf"
    assert _home("es").options["blinks"]["clock_hint"] == "cuánto puede esperar el turno de un lanzador callado"
