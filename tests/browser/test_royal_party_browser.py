"""A Royal Heist party through the real pages, in real browsers: the host chooses Royal
Heist in the home page's form (no vault offered; three games in a row, as recommended),
three phones join (no gift asked: the game has none), the host seats them from the
dashboard, and each phone taps Press on or Get out until the three games are over.
Every phone ends showing the winners and its total over the three; no phone ever shows another
seat's choice before the reveal; nothing scrolls sideways at 360 px. The big screen and
the captain's tablet (paired from the dashboard) show the table and the leaderboard to
the end. Screenshots go to artifacts/screenshots/royal-party-*.png."""

from __future__ import annotations

import random
import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import SHOTS, new_page, overflows
from tests.browser.screens import PROJECTOR_MIN_PX, small_texts

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Alex", "Bea", "Cam"]
PHONE = "#phone .r-phone"
# Another seat's choice while it is still being made: a choice mark on a row that is not
# this phone's, in the deciding phase, outside the "last step" note of the reveal before.
OTHERS_PENDING = f"{PHONE}[data-phase=decide] tr[data-seat]:not(.me).in .r-state > .r-choice"


def _phase(page: Page) -> str | None:
    el = page.query_selector(PHONE)
    return el.get_attribute("data-phase") if el else None


def test_a_royal_party_plays_to_the_end_on_the_phones(asgi_server, browser):
    base = asgi_server
    errors: list[str] = []
    SHOTS.mkdir(parents=True, exist_ok=True)

    host = new_page(browser, 1024, 900, errors, "host")
    host.goto(base + "/")
    host.get_by_label("Party name").fill("Royal night")
    expect(host.locator("#party-vault")).to_be_visible()  # Yankee Heist, the default, has a vault
    expect(host.locator("#party-games")).to_be_hidden()  # ... and plays one game
    host.locator("#party-game").select_option("royal")
    expect(host.locator("#party-vault")).to_be_hidden()  # Royal Heist has none
    expect(host.locator("#party-games")).to_have_value("3")  # three games in a row, recommended
    host.get_by_role("button", name="Host a party").click()
    host.wait_for_url(re.compile(r"/host/[A-Z0-9]{6}/$"))
    code = host.url.rstrip("/").rsplit("/", 1)[1]
    expect(host.locator("#vault-panel")).to_be_hidden()
    screen = new_page(browser, 1280, 720, errors, "big screen")
    screen.goto(f"{base}/screen/{code}/")

    phones: list[Page] = []
    for name in NAMES:
        phone = new_page(browser, 360, 740, errors, name)  # a browser context each
        phone.goto(f"{base}/j/{code}/")
        expect(phone.locator("#guest-gift")).to_have_count(0)  # Royal Heist asks for no gift
        phone.get_by_label("Your name", exact=True).fill(name)
        phone.get_by_role("button", name="Join the party").click()
        phone.wait_for_url(f"**/p/{code}/")
        expect(phone.get_by_role("heading", name=f"You're in, {name}!")).to_be_visible()
        phones.append(phone)

    expect(host.locator("#roster li.guest")).to_have_count(3)
    host.get_by_role("button", name=re.compile(r"Seat everyone")).click()
    for phone in phones:
        expect(phone.locator(PHONE)).to_be_visible()
    expect(host.locator("#tables .r-table")).to_have_count(1)
    expect(host.locator("#tables .r-leaderboard")).to_be_visible()
    expect(screen.locator("#tables .r-table.tile")).to_have_count(1)
    expect(screen.locator("#tables .r-leaderboard tbody tr")).to_have_count(3)
    # Read across the room: the one table's heading too (it was a phone's 21 px).
    assert not small_texts(screen, PROJECTOR_MIN_PX), small_texts(screen, PROJECTOR_MIN_PX)
    # The captain's tablet, paired from the dashboard, shows the table.
    host.get_by_role("button", name="Pair a tablet with table A").click()
    pairing = host.locator(".pairing-code").inner_text()
    tablet = new_page(browser, 1024, 768, errors, "tablet")
    tablet.goto(f"{base}/t/{code}/#{pairing}")
    expect(tablet.locator("#tablet .r-table:not(.tile)")).to_be_visible()
    # The code is spent: the dashboard shows the tablet paired, not the used QR code.
    expect(host.locator(".tablet-list li")).to_have_count(1)
    expect(host.locator(".pairing")).to_have_count(0)

    r = random.Random(7)
    taps = 0
    shot = False
    deadline = time.monotonic() + 240
    while not all(_phase(p) == "over" for p in phones):
        assert time.monotonic() < deadline, [_phase(p) for p in phones]
        for phone in phones:
            assert phone.locator(OTHERS_PENDING).count() == 0, phone.inner_text(PHONE)
            buttons = phone.locator(f"{PHONE} button.r-decide:not([disabled])")
            if buttons.count() != 2:
                continue
            version = phone.locator(PHONE).get_attribute("data-version")
            if not shot and taps >= 3:
                phone.screenshot(path=str(SHOTS / "royal-party-phone.png"), full_page=True)
                shot = True
            choice = "press_on" if r.random() < 0.7 else "get_out"
            phone.locator(f"{PHONE} button[data-choice={choice}]").click()
            taps += 1
            # The choice shows locked on this phone (until the reveal moves the table on).
            expect(
                phone.locator(f"{PHONE}:not([data-version='{version}']), {PHONE} .r-status:has-text('You chose')")
            ).not_to_have_count(0)
            assert not overflows(phone), "the phone scrolls sideways at 360 px"
        assert taps < 500
    assert taps >= 3 and shot

    for phone in phones:
        over = phone.locator(f"{PHONE}[data-phase=over] .r-status.over")
        expect(over).to_contain_text("Winner")
        expect(over).to_contain_text("over 3 games")  # the running total of the three
        # The guest's place among everyone: in the snapshot the phone's shell asks for
        # when the party ends (the party update carries no one's result).
        expect(over.locator(".r-party-rank")).to_have_text(re.compile(r"You placed \d+ of 3 guests\."))
        assert not overflows(phone)
    winners = phones[0].locator(f"{PHONE} .r-status.over").inner_text()
    assert any(n in winners for n in NAMES) or "you" in winners
    for page in (host, screen, tablet):
        expect(page.locator(".r-table[data-phase=over] .r-status.over")).to_contain_text("Winner")
    expect(screen.locator(".r-leaderboard tbody tr")).to_have_count(3)
    screen.screenshot(path=str(SHOTS / "royal-party-screen.png"))
    expect(host.locator("#tables .r-leaderboard")).to_be_visible()
    # The dashboard's end-of-party panel: the champion, every guest's total, the CSV.
    expect(host.locator("#result .r-champion")).to_contain_text("Champion")
    expect(host.locator("#result .r-ranking tbody tr")).to_have_count(3)
    expect(host.locator("#result #download-csv")).to_be_visible()
    expect(host.locator("#result a.story-link")).to_have_attribute("href", f"/story/{code}/")
    expect(phones[0].locator("a.story-link")).to_be_visible()
    host.locator("#tables .r-table").screenshot(path=str(SHOTS / "royal-party-host-tile.png"))
    phones[0].screenshot(path=str(SHOTS / "royal-party-phone-over.png"), full_page=True)
    # The story, from the phone's link: the table heist by heist, in Royal Heist's words.
    phones[0].locator("a.story-link").click()
    phones[0].wait_for_url(f"**/story/{code}/")
    expect(phones[0].get_by_role("heading", name="Table by table, heist by heist")).to_be_visible()
    expect(phones[0].locator("#story-tables")).to_contain_text("Game 1, heist 1")  # three games a table
    assert not overflows(phones[0]), "the story scrolls sideways at 360 px"
    # The big screen's slideshow of it opens on the result.
    screen.goto(f"{base}/story/{code}/?screen=1")
    expect(screen.locator(".story-slide:visible")).to_contain_text("Champion")
    assert not errors, errors
