"""Issue 38: the home page's host form says what the step clock times and what the
captain or the host may play for a quiet guest in the words of the game the host picks
(its definition's duty_texts `clock_hint` and `stand_in_hint`), and says them again
when the host picks another game; a game that says nothing (the canary the test
settings register) gets the host's plain words. The form used to speak of Yankee
Heist's turn, reaction, discard and reveal whatever the game. The view side:
tests/games/test_duty_texts.py. A screenshot: artifacts/screenshots/home-hints-royal.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from games.definition import NamesDuties
from games.registry import DEFAULT_GAME, GAMES, game_named
from tests.browser.helpers import SHOTS, new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The host's own hints, for a game that gives none.
PLAIN = {
    "clock_hint": "how long a quiet guest's step may wait",
    "stand_in_hint": "else the captain or you may play the rules' do-nothing choice for them",
}
# Words only Yankee Heist's rules have: no other game's hints may say them.
YANKEE_ONLY = ("discard", "reveal", "reaction", "let it happen")


def _own(name: str) -> dict[str, str]:
    definition = game_named(name)
    texts = definition.duty_texts() if isinstance(definition, NamesDuties) else {}
    return {key: texts.get(key, plain) for key, plain in PLAIN.items()}


def _shown(page: Page) -> dict[str, str]:
    """The two hints as the form shows them, brackets and all."""
    return {
        "clock_hint": page.locator("label[for=party-clock] .hint").inner_text(),
        "stand_in_hint": page.locator("label[for=party-clock-server] .hint").inner_text(),
    }


def test_the_forms_clock_hints_follow_the_chosen_game(asgi_server, browser):
    errors: list[str] = []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = new_page(browser, 1280, 900, errors, "home")
    page.goto(asgi_server + "/")
    offered = page.locator("#party-game option").evaluate_all("options => options.map((o) => o.value)")
    assert sorted(offered) == sorted(GAMES), offered  # the canary too
    assert page.locator("#party-game").input_value() == DEFAULT_GAME
    assert _shown(page) == {key: f"({text})" for key, text in _own(DEFAULT_GAME).items()}
    # every game in turn, then back to the first: each choice's own words, never the last one's
    order = [name for name in sorted(GAMES) if name != DEFAULT_GAME] + [DEFAULT_GAME]
    seen = {}
    for name in order:
        page.locator("#party-game").select_option(name)
        seen[name] = _shown(page)
        assert seen[name] == {key: f"({text})" for key, text in _own(name).items()}, name
        if name == "royal":
            page.locator("#party-clock").scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / "home-hints-royal.png"))
    assert seen["canary"] == {key: f"({text})" for key, text in PLAIN.items()}
    assert "discard at random" in seen["yankee"]["stand_in_hint"]
    for name in set(GAMES) - {"yankee"}:
        for words in YANKEE_ONLY:
            assert words not in " ".join(seen[name].values()), (name, words)
    assert not errors, errors


def test_the_forms_clock_hints_follow_the_choice_in_german(asgi_server, browser):
    errors: list[str] = []
    page = new_page(browser, 1280, 900, errors, "home-de", locale="de-DE")
    page.goto(asgi_server + "/")
    page.locator("#party-game").select_option("royal")
    assert (
        _shown(page)["clock_hint"]
        == "(wie lange die Wahl eines stillen Gastes, dabeibleiben oder aussteigen, warten darf)"
    )
    page.locator("#party-game").select_option("canary")
    assert (
        _shown(page)["stand_in_hint"]
        == "(sonst dürfen der Kapitän oder du für ihn die Nichts-tun-Wahl der Regeln spielen)"
    )
    assert not errors, errors
