"""Every registered game's pages, in Chromium, each loading the game's own modules by its
name (heist-game): the host's form shows the game's parts only (the gift fields for a
game with gifts, the vault for one with vaults), the dashboard's lobby counts the tables
the server's seating will really make (the game's table_max: 17 guests are 2 tables of
Yankee Heist and 3 of Royal Heist), and once seated, the dashboard, a guest's phone, a
paired captain's tablet and the big screen each draw the tables from the game's module,
under the game's title, with no error on any page. Screenshots go to
artifacts/screenshots/game-pages-<game>-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.registry import GAMES
from tests.browser.helpers import SHOTS, DbThread, new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GUESTS = 17  # besides the phone: 18 seats, a count the games' seatings tell apart


def _visible(page: Page, selector: str) -> bool:
    return bool(
        page.evaluate(
            f"() => {{ const el = document.querySelector('{selector}'); return !!el && !el.closest('[hidden]'); }}"
        )
    )


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_games_pages_draw_from_its_own_modules(asgi_server, browser, name):
    from events.models import Party
    from events.party.lobbycast import lobby_announce
    from events.party.tablets import tablet_pair_start
    from tables.models import Table
    from tables.seating import table_count
    from tests import shorthand

    definition = GAMES[name]
    base = asgi_server
    errors: list[str] = []
    SHOTS.mkdir(parents=True, exist_ok=True)
    db = DbThread()
    try:
        # --- the home form, with this game chosen -----------------------------------------------
        host = new_page(browser, 1280, 900, errors, "host")
        host.goto(base + "/")
        host.get_by_label("Party name").fill(f"{definition.title} night")
        if host.locator("#party-game").count():
            host.locator("#party-game").select_option(name)
        assert _visible(host, "#party-budget") == definition.features.gifts
        assert _visible(host, "#party-jokes") == definition.features.gifts
        assert _visible(host, "#party-vault") == definition.features.vaults
        host.get_by_role("button", name="Host a party").click()
        host.wait_for_url(re.compile(r"/host/[A-Z0-9]{6}/$"))
        code = host.url.rstrip("/").rsplit("/", 1)[1]
        assert definition.title in host.title()

        # --- guests join (one on a phone); the lobby counts the game's tables ------------------
        def join_bots() -> int:
            for i in range(GUESTS):
                _, _, outcome = shorthand.guest_join(
                    code=code, name=f"Guest {i + 1}", description=f"gift {i}" if definition.features.gifts else ""
                )
                lobby_announce(outcome.data["party"])
            return Party.objects.get(code=code).pk

        party_id = db(join_bots)
        phone = new_page(browser, 360, 740, errors, "phone")
        phone.goto(f"{base}/j/{code}/")
        assert definition.title in phone.title()
        phone.get_by_label("Your name", exact=True).fill("Pia")
        if definition.features.gifts:
            phone.get_by_label("Secretly describe the gift you brought").fill("A scarf")
        phone.get_by_role("button", name="Join the party").click()
        phone.wait_for_url(f"**/p/{code}/")
        expect(phone.locator("#phone > *").first).to_be_visible()
        seats = GUESTS + 1
        tables = table_count(seats, definition.table_max)
        expect(host.locator("#roster li.guest")).to_have_count(seats)
        expect(host.locator("[data-stat=joined]")).to_contain_text(f"{seats} joined · {tables} tables")
        host.screenshot(path=str(SHOTS / f"game-pages-{name}-lobby.png"))

        # --- seated: the server makes exactly the tables the lobby said ------------------------
        host.locator("#deal").click()
        # A game's first table in a server may read its data first (a dictionary: seconds
        # on a busy machine), so the deal gets longer than a tap's 5 s.
        expect(host.locator("#tables [data-version]")).to_have_count(tables, timeout=60_000)
        assert db(lambda: Table.objects.filter(party_id=party_id).count()) == tables
        expect(phone.locator("#phone [data-version]")).to_have_count(1)
        assert definition.title in phone.title()

        screen = new_page(browser, 1280, 720, errors, "screen")
        screen.goto(f"{base}/screen/{code}/")
        expect(screen.locator("#tables")).to_have_attribute("data-count", str(tables))
        expect(screen.locator("#tables [data-version]").first).to_be_visible()
        assert definition.title in screen.title()

        table_a = db(lambda: Table.objects.get(party_id=party_id, letter="A").pk)
        pairing = db(lambda: tablet_pair_start(party_id=party_id, table_id=table_a).data["pairing"])
        tablet = new_page(browser, 1024, 768, errors, "tablet")
        tablet.goto(f"{base}/t/{code}/")
        assert definition.title in tablet.title()  # the pairing page: the game's title
        tablet.get_by_label("Pairing code").fill(pairing)
        tablet.get_by_role("button", name="Pair this tablet").click()
        expect(tablet.locator("#tablet [data-version]").first).to_be_visible()
        for page, label in ((host, "host"), (phone, "phone"), (screen, "screen"), (tablet, "tablet")):
            page.screenshot(path=str(SHOTS / f"game-pages-{name}-{label}.png"))
            # Each page loaded this game's module, and no other game's.
            loaded = page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")
            assert any(f"/static/{name}/" in url for url in loaded), label
            assert not [url for url in loaded for other in GAMES if other != name and f"/static/{other}/" in url], label
        assert not errors, errors
    finally:
        db.close()
