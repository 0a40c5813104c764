"""A phone on plain HTTP from the LAN stays awake (issue 40, item 6).

Chromium resolves party.lan to the loopback test server (--host-resolver-rules), so the
phone's page comes from http://party.lan:PORT/: not a secure context, as a phone's page
from the venue's 192.168.x.x is not (127.0.0.1 and localhost would be), so there is no
Screen Wake Lock API at all, with nothing faked. Before the guest's first tap the phone
says how to keep the screen on; the tap starts the silent looping video
(static/heist/awake.js), the note goes, and after the page was hidden and shown again,
or the socket dropped and came back, the video plays on."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests import shorthand
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.browser.helpers import DbThread, new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAN_NAME = "party.lan"

VIDEO = """() => {
  const v = document.querySelector('video.wake-video');
  return v && { paused: v.paused, loop: v.loop, muted: v.muted, volume: v.volume,
                time: v.currentTime, duration: v.duration, src: v.currentSrc };
}"""

# Headless Chromium keeps every page visible (no window to minimise, no tab to switch
# away from: tried with Browser.setWindowBounds and Target.activateTarget), so the page
# is told what the browser tells it when the guest switches apps: the visibility state
# and its event.
SET_VISIBILITY = """(state) => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => state === 'hidden' });
  document.dispatchEvent(new Event('visibilitychange'));
}"""


@pytest.fixture
def lan_browser():
    """Chromium that finds party.lan at 127.0.0.1: the traffic stays on loopback."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        args = [*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"]
        b = p.chromium.launch(executable_path=CHROMIUM, args=args, headless=True)
        try:
            yield b
        finally:
            b.close()


def test_a_phone_on_plain_http_stays_awake_from_its_first_tap(asgi_server, lan_browser):
    from events.models import Guest

    port = urlsplit(asgi_server).port
    base = f"http://{LAN_NAME}:{port}"
    errors: list[str] = []
    db = DbThread()
    try:
        party, _, tokens = db(shorthand.party_seated, name="Awake LAN", guests=3)
        guest = db(lambda: Guest.objects.filter(party=party).order_by("seat").first())
        seat_json = json.dumps({"token": tokens[guest.pk], "guest": guest.pk, "gift_number": guest.gift_number})

        phone = new_page(lan_browser, 390, 844, errors, "phone on the LAN")
        phone.context.add_init_script(f"localStorage.setItem('heist.seat.{party.code}', {json.dumps(seat_json)});")
        phone.goto(f"{base}/p/{party.code}/")
        expect(phone.locator(".seat-head h1")).to_be_visible()

        # Before any tap: nothing keeps the screen on, and the note says how.
        expect(phone.locator("body")).to_have_attribute("data-wake-lock", "unsupported")
        expect(phone.locator("#awake-note")).to_contain_text("Keep your screen on")
        expect(phone.locator("video.wake-video")).to_have_count(0)

        # Not a secure context, so no Wake Lock API: nothing here is faked.
        assert phone.evaluate("window.isSecureContext") is False
        assert phone.evaluate("'wakeLock' in navigator") is False

        # The guest's first tap (anywhere) starts the video; the note goes.
        phone.locator(".seat-head").click()
        expect(phone.locator("body")).to_have_attribute("data-wake-lock", "video")
        expect(phone.locator("#awake-note")).to_have_count(0)
        video = phone.evaluate(VIDEO)
        assert video is not None and not video["paused"] and video["loop"], video
        # Audible as far as the browser knows (Chromium keeps the screen on for an audible
        # video, hidden or not), silent in fact: the track is silence.
        assert not video["muted"] and video["volume"] > 0, video
        assert video["src"].startswith(f"{base}/static/heist/nosleep/silence."), video
        # It really plays, and loops past its end (the webm is under a second long).
        phone.wait_for_function("() => document.querySelector('video.wake-video').currentTime > 0")
        duration = phone.evaluate(VIDEO)["duration"]
        assert 0 < duration < 10, duration
        phone.wait_for_timeout(int(duration * 2000) + 500)
        assert not phone.evaluate(VIDEO)["paused"]

        # The page hidden: the video pauses; back in the foreground it plays again, with no tap.
        hide_and_show(phone)
        expect(phone.locator("body")).to_have_attribute("data-wake-lock", "video")
        expect(phone.locator("#awake-note")).to_have_count(0)

        # The socket drops and comes back (the page redraws from the new hello): the video
        # runs on, the note stays away.
        phone.evaluate("window.heistLive.drop()")
        expect(phone.locator("#conn")).to_contain_text("Back online")
        assert not phone.evaluate(VIDEO)["paused"]
        expect(phone.locator("body")).to_have_attribute("data-wake-lock", "video")
        expect(phone.locator("#awake-note")).to_have_count(0)
    finally:
        db.close()
    assert not errors, errors


def hide_and_show(phone: Page) -> None:
    """The page goes to the background (the video pauses) and comes back."""
    phone.evaluate(SET_VISIBILITY, "hidden")
    phone.wait_for_function("() => document.querySelector('video.wake-video').paused")
    phone.evaluate(SET_VISIBILITY, "visible")
    phone.wait_for_function("() => !document.querySelector('video.wake-video').paused")


def test_every_games_phone_tablet_and_big_screen_stay_awake_through_the_shell(asgi_server, lan_browser):
    """The wake call is the shells' (play.js, tablet.js, screen.js: awake.js holdAwake),
    not a game's: a Royal Heist phone, its table's tablet and the big screen, on plain
    HTTP from the LAN, each hold the screen with the silent video from their first tap;
    the phone and the tablet say how to keep the screen on before it, the big screen
    shows no phone's note."""
    from events.models import Guest
    from events.party import services
    from events.party.tablets import tablet_pair_start
    from tables.models import Table

    port = urlsplit(asgi_server).port
    base = f"http://{LAN_NAME}:{port}"
    errors: list[str] = []
    db = DbThread()

    def royal_party():
        party, _ = shorthand.party_create(name="Awake Royal", game="royal")
        tokens = {}
        for i in range(3):
            guest, token, _ = shorthand.guest_join(code=party.code, name=f"R{i}", description="")
            tokens[guest.pk] = token
        services.party_seat(party_id=party.pk)
        return party, tokens

    try:
        party, tokens = db(royal_party)
        guest = db(lambda: Guest.objects.filter(party=party).order_by("seat").first())
        table = db(lambda: Table.objects.get(party=party))
        seat_json = json.dumps({"token": tokens[guest.pk], "guest": guest.pk, "gift_number": guest.gift_number})

        phone = new_page(lan_browser, 390, 844, errors, "royal phone")
        phone.context.add_init_script(f"localStorage.setItem('heist.seat.{party.code}', {json.dumps(seat_json)});")
        phone.goto(f"{base}/p/{party.code}/")
        expect(phone.locator("#phone [data-version]").first).to_be_visible()
        pairing = db(lambda: tablet_pair_start(party_id=party.pk, table_id=table.pk).data["pairing"])
        tablet = new_page(lan_browser, 1024, 768, errors, "tablet")
        tablet.goto(f"{base}/t/{party.code}/")
        tablet.get_by_label("Pairing code").fill(pairing)
        tablet.get_by_role("button", name="Pair this tablet").click()
        expect(tablet.locator("#tablet [data-version]").first).to_be_visible()
        screen = new_page(lan_browser, 1280, 720, errors, "big screen")
        screen.goto(f"{base}/screen/{party.code}/")
        expect(screen.locator("#tables [data-version]").first).to_be_visible()

        # The phone and the big screen before their first tap: nothing holds them yet,
        # and only the phone says how to keep the screen on.
        for page, noted in ((phone, True), (screen, False)):
            assert page.evaluate("window.isSecureContext") is False
            expect(page.locator("body")).to_have_attribute("data-wake-lock", "unsupported")
            expect(page.locator("#awake-note")).to_have_count(1 if noted else 0)
            expect(page.locator("video.wake-video")).to_have_count(0)
            page.mouse.click(5, 5)  # the first tap, anywhere
        # Each of the three now holds its screen with the video (the tablet's first tap
        # was its pairing), and no note is left.
        for page in (phone, tablet, screen):
            expect(page.locator("body")).to_have_attribute("data-wake-lock", "video")
            expect(page.locator("#awake-note")).to_have_count(0)
            page.wait_for_function("() => document.querySelector('video.wake-video').currentTime > 0")
            video = page.evaluate(VIDEO)
            assert video is not None and not video["paused"] and video["loop"], video
    finally:
        db.close()
    assert not errors, errors
