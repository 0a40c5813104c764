"""A phone on a connection that stalls (bytes stop, the socket stays open) shows it is
down within 5 s, thanks to the application heartbeat; a tap made meanwhile shows it is
pending at once and says it is unconfirmed after a few seconds; when the line comes
back the phone reconnects and the tap is applied once."""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import expect

from tests import shorthand
from tests.browser.helpers import SHOTS, DbThread, new_page
from tests.browser.proxy import StallingProxy

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_stalled_connection_shows_within_five_seconds_and_a_tap_says_it_is_pending(asgi_server, browser):
    from events.party import services
    from games.yankee import Game
    from tables.models import Table

    db = DbThread()
    proxy = StallingProxy(int(asgi_server.rsplit(":", 1)[1]))
    errors: list[str] = []
    try:

        def make():
            party, _ = shorthand.party_create(name="Stall test")
            tokens = {}
            for name in ["Ann", "Ben", "Cy"]:
                guest, token, _ = shorthand.guest_join(code=party.code, name=name, description=f"{name}'s gift")
                tokens[guest.pk] = (token, guest.gift_number)
            services.party_seat(party_id=party.pk)
            table = Table.objects.get(party=party)
            active = Game.from_dict(table.state).active
            gid = table.roster[active]["guest"]
            return party.code, gid, tokens[gid], table.pk

        code, gid, (token, gift_number), table_id = db(make)
        base = f"http://127.0.0.1:{proxy.port}"
        phone = new_page(browser, 390, 844, errors, "phone")
        blob = json.dumps({"token": token, "guest": gid, "gift_number": gift_number})
        phone.context.add_init_script(f"localStorage.setItem({json.dumps('heist.seat.' + code)}, {json.dumps(blob)})")
        phone.goto(f"{base}/p/{code}/")
        expect(phone.locator("html")).to_have_attribute("data-conn", "online")
        expect(phone.locator("#prompt")).to_have_attribute("data-prompt", "turn")
        phone.get_by_label("Regroup or pass").check()
        version = db(lambda: Table.objects.get(pk=table_id).version)

        # The line goes quiet: nothing is closed, nothing arrives.
        proxy.stall()
        stalled = time.monotonic()
        phone.wait_for_function("() => document.documentElement.dataset.conn === 'down'", timeout=8000)
        shown = time.monotonic() - stalled
        assert shown < 5.0, f"a stalled connection showed after {shown:.1f} s"
        expect(phone.locator("#conn")).to_contain_text("Connection lost")

        # A tap now: pending at once (measured inside the page), unconfirmed after a few seconds.
        took = phone.evaluate(
            """() => { const t0 = performance.now(); document.querySelector('#confirm').click();
                       const item = document.querySelector('#pending .pending-item');
                       return item ? performance.now() - t0 : null; }"""
        )
        assert took is not None and took < 100, took
        expect(phone.locator("#pending .pending-item")).to_contain_text("Sending your move")
        expect(phone.locator("#pending .pending-item[data-state='slow']")).to_contain_text(
            "not confirmed yet", timeout=5000
        )
        phone.screenshot(path=str(SHOTS / "phone-stalled.png"), full_page=True)
        assert db(lambda: Table.objects.get(pk=table_id).version) == version  # nothing reached the server

        # The line comes back: the phone reconnects on its own and the tap lands once.
        proxy.resume()
        expect(phone.locator("html")).to_have_attribute("data-conn", "online", timeout=10000)
        expect(phone.locator("#pending .pending-item")).to_have_count(0, timeout=10000)
        expect(phone.locator("#prompt")).not_to_have_attribute("data-prompt", "turn")
        assert db(lambda: Table.objects.get(pk=table_id).version) == version + 1
        assert not errors, errors
        print(f"\nstalled line shown after {shown:.2f} s; tap pending after {took:.1f} ms")
    finally:
        proxy.close()
        db.close()


def test_resyncs_asked_while_one_is_on_its_way_send_no_more(asgi_server, browser):
    """live.js keeps one resync in flight: the gaps and pongs seen meanwhile are answered
    by its snapshot (and what the server replays after it), not by more reads."""
    db = DbThread()
    errors: list[str] = []
    try:

        def make():
            party, _ = shorthand.party_create(name="Resync test")
            guest, token, _ = shorthand.guest_join(code=party.code, name="Ann", description="Ann's gift")
            return party.code, guest.pk, token, guest.gift_number

        code, gid, token, gift_number = db(make)
        phone = new_page(browser, 390, 844, errors, "phone")
        sent: list[dict] = []
        phone.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(payload))))
        blob = json.dumps({"token": token, "guest": gid, "gift_number": gift_number})
        phone.context.add_init_script(f"localStorage.setItem({json.dumps('heist.seat.' + code)}, {json.dumps(blob)})")
        phone.goto(f"{asgi_server}/p/{code}/")
        expect(phone.locator("html")).to_have_attribute("data-conn", "online")

        def resyncs() -> int:
            return sum(1 for f in sent if f.get("type") == "resync")

        # Three asked at once: one frame, and all three answered by its snapshot.
        same = phone.evaluate(
            """async () => { const l = window.heistLive;
                             const ps = [l.resync(), l.resync(), l.resync()];
                             await Promise.all(ps); return ps[0] === ps[1] && ps[1] === ps[2]; }"""
        )
        assert same is True
        assert resyncs() == 1, sent
        # Once answered, the next one goes.
        phone.evaluate("() => window.heistLive.resync()")
        phone.wait_for_function("() => !window.heistLive.resyncing")
        assert resyncs() == 2, sent
        assert not errors, errors
    finally:
        db.close()


def test_the_host_sees_a_stalled_phone_offline_within_ten_seconds(asgi_server, browser):
    """The phone's line stalls (a TCP proxy stops forwarding; the socket stays open, as
    Chromium's offline emulation would not do): the host's dashboard, on its own line,
    shows the guest offline within 10 s (events/live/stalls.py), and online again once the
    line is back and the phone reconnects."""
    from events.party import services

    db = DbThread()
    proxy = StallingProxy(int(asgi_server.rsplit(":", 1)[1]))
    errors: list[str] = []
    try:

        def make():
            party, host_token = shorthand.party_create(name="Stall host")
            seats = {}
            for name in ["Ann", "Ben", "Cy"]:
                guest, token, _ = shorthand.guest_join(code=party.code, name=name, description=f"{name}'s gift")
                seats[name] = (guest.pk, token, guest.gift_number)
            services.party_seat(party_id=party.pk)
            return party.code, host_token, seats

        code, host_token, seats = db(make)
        host = new_page(browser, 1366, 768, errors, "host")
        host.context.add_init_script(f"localStorage.setItem('heist.host.{code}', {json.dumps(host_token)})")
        host.goto(f"{asgi_server}/host/{code}/")
        phones = {}
        pings: list[str] = []
        for name in ["Ann", "Ben", "Cy"]:  # Ann through the proxy, the others direct
            gid, token, gift_number = seats[name]
            page = phones[name] = new_page(browser, 390, 844, errors, name)
            blob = json.dumps({"token": token, "guest": gid, "gift_number": gift_number})
            page.context.add_init_script(
                f"localStorage.setItem({json.dumps('heist.seat.' + code)}, {json.dumps(blob)})"
            )
            base = f"http://127.0.0.1:{proxy.port}" if name == "Ann" else asgi_server
            if name == "Ann":  # her pings, counted: a phone at a party has pinged for a while
                page.on(
                    "websocket", lambda ws: ws.on("framesent", lambda p: pings.append(p) if '"ping"' in p else None)
                )
            page.goto(f"{base}/p/{code}/")
            expect(page.locator("html")).to_have_attribute("data-conn", "online")
        row = {name: host.locator(f"li.guest[data-guest='{seats[name][0]}']") for name in seats}
        for name in seats:
            expect(row[name]).to_contain_text("online")

        # The server knows a socket's heartbeat from its second ping (events/live/stalls.py).
        deadline = time.monotonic() + 10
        while len(pings) < 3:  # Playwright delivers the page's events while it waits
            assert time.monotonic() < deadline, f"Ann's phone sent {len(pings)} pings in 10 s"
            phones["Ann"].wait_for_timeout(200)
        proxy.stall()
        stalled = time.monotonic()
        expect(row["Ann"]).to_contain_text("offline", timeout=12000)
        shown = time.monotonic() - stalled
        assert shown < 10.0, f"the host saw the stalled phone after {shown:.1f} s"
        expect(row["Ben"]).not_to_contain_text("offline")
        host.screenshot(path=str(SHOTS / "host-stalled-phone.png"))

        proxy.resume()
        expect(phones["Ann"].locator("html")).to_have_attribute("data-conn", "online", timeout=10000)
        expect(row["Ann"]).not_to_contain_text("offline", timeout=10000)
        assert not errors, errors
        print(f"\nthe host saw the stalled phone offline after {shown:.2f} s")
    finally:
        proxy.close()
        db.close()
