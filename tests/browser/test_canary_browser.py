"""Canary Heist in Chromium: the host creates the party from the home form, three guests
join on their phones, a captain's tablet pairs with the table and the big screen watches;
each phone draws on its turn until the table is over, and every screen shows who drew
highest, drawn by the game's own modules."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import DbThread, new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_three_guests_play_a_canary_table_to_the_end_on_every_screen(asgi_server, browser):
    from events.party.tablets import tablet_pair_start
    from tables.models import Table
    from tests.canary.canary.definition import DEFINITION as CANARY

    base = asgi_server
    errors: list[str] = []
    db = DbThread()
    try:
        host = new_page(browser, 1280, 900, errors, "host")
        host.goto(base + "/")
        host.get_by_label("Party name").fill("Canary night")
        host.locator("#party-game").select_option("canary")
        host.get_by_role("button", name="Host a party").click()
        host.wait_for_url(re.compile(r"/host/[A-Z0-9]{6}/$"))
        code = host.url.rstrip("/").rsplit("/", 1)[1]
        assert "Canary Heist" in host.title()

        phones = []
        for name in ("Ana", "Ben", "Cy"):
            phone = new_page(browser, 360, 740, errors, f"phone-{name}")
            phone.goto(f"{base}/j/{code}/")
            phone.get_by_label("Your name", exact=True).fill(name)
            phone.get_by_role("button", name="Join the party").click()
            phone.wait_for_url(f"**/p/{code}/")
            phones.append(phone)
        expect(host.locator("#roster li.guest")).to_have_count(3)
        host.locator("#deal").click()
        expect(host.locator("#tables [data-version]")).to_have_count(1)

        screen = new_page(browser, 1280, 720, errors, "screen")
        screen.goto(f"{base}/screen/{code}/")
        expect(screen.locator("#tables [data-version]")).to_have_count(1)
        table = db(lambda: Table.objects.get(party__code=code))
        pairing = db(lambda: tablet_pair_start(party_id=table.party_id, table_id=table.pk).data["pairing"])
        tablet = new_page(browser, 1024, 768, errors, "tablet")
        tablet.goto(f"{base}/t/{code}/")
        tablet.get_by_label("Pairing code").fill(pairing)
        tablet.get_by_role("button", name="Pair this tablet").click()
        expect(tablet.locator("#tablet [data-version]")).to_be_visible()

        # Each seat draws on its turn, from its own phone: only that phone offers Draw.
        by_seat = {}
        for phone in phones:
            expect(phone.locator("#phone [data-version]")).to_be_visible()
        roster = [entry["name"] for entry in table.roster]
        for phone, name in zip(phones, ("Ana", "Ben", "Cy"), strict=True):
            by_seat[roster.index(name)] = phone
        for seat in range(3):
            drawer = by_seat[seat]
            expect(drawer.locator("#canary-draw")).to_be_visible()
            for other in phones:
                if other is not drawer:
                    expect(other.locator("#canary-draw")).to_have_count(0)
            drawer.locator("#canary-draw").click()
            expect(drawer.locator("#canary-draw")).to_have_count(0)
            expect(screen.locator(f'#tables li[data-seat="{seat}"]')).not_to_contain_text("not drawn")

        state = db(lambda: CANARY.from_dict(Table.objects.get(pk=table.pk).state))
        assert CANARY.is_over(state)
        winner = roster[state.cards.index(max(state.cards))]
        for page in (*phones, tablet, screen):
            expect(page.locator(".canary-over").first).to_contain_text(f"Highest card: {winner}")
        expect(host.locator("#result .canary-ranking li").first).to_contain_text(winner)
        expect(host.locator("#result #download-csv")).to_be_visible()
        assert not errors, errors
    finally:
        db.close()
