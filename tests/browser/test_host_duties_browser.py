"""Issue 38: the host's dashboard says what the step clock times and what a captain's
tablet does in the party's own game's words (its definition's `duty_texts`, sent in the
page's `heist-game`), not Yankee Heist's: a Royal, Word or Blinks Heist party's clock menu
names that game's stand-ins, and a game that says nothing (the canary) gets the host's
plain sentences. A Yankee party's texts are as they were, in English and in German."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from tests import shorthand
from tests.browser.helpers import SHOTS, DbThread, new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What a Yankee party's dashboard said before its words moved into its package.
YANKEE = {
    "clock": "How long a quiet guest's turn, reaction, discard or reveal may wait. Then the table's captain or you "
    "may play the rules' do-nothing choice for them: pass the turn, discard at random, let the move happen, "
    "start round 2.",
    "clock-off": "Off: every step waits for its guest (a reaction may still be passed after 60 s).",
    "tablet": "No tablet yet. The captain's duties (reveal, passing for a quiet guest once the step clock runs out, "
    "relay draw and delivery, hand-over) can run on a tablet at the table.",
}
YANKEE_DE = {
    "clock": "Wie lange Zug, Reaktion, Abwurf oder Aufdecken eines stillen Gastes warten dürfen. Danach können der "
    "Kapitän des Tisches oder du für ihn die Nichts-tun-Wahl der Regeln spielen: Zug passen, zufällig abwerfen, "
    "den Zug zulassen, Runde 2 starten.",
    "clock-off": "Aus: Jeder Schritt wartet auf seinen Gast (eine Reaktion kann nach 60 s trotzdem gepasst werden).",
}
# The host's own sentences, for a game that gives none.
PLAIN = {
    "clock": "How long a quiet guest's step may wait. Then the table's captain or you may play the rules' "
    "do-nothing choice for them.",
    "clock-off": "Off: every step waits for its guest.",
}
# Each game's own stand-in, as its definition's clock plays it (docs/RULES.md).
OWN_STAND_IN = {
    "royal": "get out",
    "word": "no word this round, no clues, no Halt! guess, an abstention",
    "blinks": "pass the turn, with no throw and no skip",
}
# Words only Yankee Heist's rules have: no other game's dashboard may say them.
YANKEE_ONLY = ("discard at random", "start round 2", "reaction", "relay draw", "reveal")


def _party(game: str) -> tuple[str, str]:
    """A seated party of three guests at one table, its step clock off: (code, host secret)."""
    from events.party import services

    party, token = shorthand.party_create(name=f"{game} night", game=game, step_clock=0)
    for name in ("Ann", "Bo", "Cy"):
        shorthand.guest_join(code=party.code, name=name, description=f"{name}'s mug")
    services.party_seat(party_id=party.pk)
    return party.code, token


def _dashboard(page: Page, base: str, code: str, token: str) -> dict[str, str]:
    """The dashboard's step-clock menu (opened: its hints, the second one the clock off's)
    and the tablets panel's hint under the table."""
    page.add_init_script(f"localStorage.setItem('heist.host.{code}', {json.dumps(token)})")
    page.goto(f"{base}/host/{code}/")
    expect(page.locator("#tables [data-version]").first).to_be_attached(timeout=15_000)
    page.locator("#clock-summary").click()
    hints = page.locator("#clock-menu p.hint")
    expect(hints.first).to_be_visible()
    expect(hints).to_have_count(2)  # the clock is off
    tablet = page.locator(".tablets-panel p.hint")
    return {
        "clock": hints.nth(0).text_content() or "",
        "clock-off": hints.nth(1).text_content() or "",
        "tablet": (tablet.first.text_content() or "") if tablet.count() else "",
    }


def test_each_partys_dashboard_names_its_own_games_stand_ins(asgi_server, browser):
    from games.definition import NamesDuties
    from games.registry import game_named

    errors: list[str] = []
    SHOTS.mkdir(parents=True, exist_ok=True)
    db = DbThread()
    try:
        parties = {game: db(_party, game) for game in ("yankee", "royal", "word", "blinks", "canary")}
    finally:
        db.close()
    seen = {}
    for game, (code, token) in parties.items():
        page = new_page(browser, 1280, 900, errors, f"host-{game}")
        seen[game] = _dashboard(page, asgi_server, code, token)
        if game == "royal":
            page.screenshot(path=str(SHOTS / "host-duties-royal-clock-menu.png"))
        page.context.close()

    assert seen["yankee"] == YANKEE
    for game, stand_in in OWN_STAND_IN.items():
        definition = game_named(game)
        assert isinstance(definition, NamesDuties), game
        own = definition.duty_texts()
        assert seen[game]["clock"] == own["clock"], game
        assert stand_in in seen[game]["clock"], (game, seen[game]["clock"])
        assert seen[game]["tablet"] == own["tablet"], game
        # no game but Yankee Heist has a rulebook pass that holds with the clock off
        assert seen[game]["clock-off"] == PLAIN["clock-off"], game
        for words in YANKEE_ONLY:
            assert words not in " ".join(seen[game].values()), (game, words)
    # the canary says nothing of its duties, and draws no tablets panel
    assert seen["canary"] == {**PLAIN, "tablet": ""}
    assert not errors, errors


def test_a_yankee_partys_duties_keep_their_german(asgi_server, browser):
    errors: list[str] = []
    db = DbThread()
    try:
        code, token = db(_party, "yankee")
    finally:
        db.close()
    page = new_page(browser, 1280, 900, errors, "host-de", locale="de-DE")
    got = _dashboard(page, asgi_server, code, token)
    assert {key: got[key] for key in YANKEE_DE} == YANKEE_DE
    assert got["tablet"].startswith("Noch kein Tablet. Die Aufgaben des Kapitäns (Aufdecken")
    assert not errors, errors
