"""Issue 28.4 in a browser: after the deal a latecomer's join page says what happens and
registers them as a late arrival; the host's late-arrivals panel seats them in place of
a guest who leaves; the latecomer's phone then shows the seat, and the leaver's phone
says who plays it for them."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests import shorthand
from tests.browser.helpers import SHOTS, DbThread, new_page, serious_a11y

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_latecomer_registers_and_the_host_seats_them_for_a_leaver(asgi_server, browser):
    from events.models import Guest

    db = DbThread()
    errors: list[str] = []
    try:

        def make():
            party, host_token, tokens = shorthand.party_seated(name="Late night", guests=4, prefix="Guest ")
            leaver = Guest.objects.get(party=party, seat=1)
            return party.code, host_token, leaver.pk, leaver.name, tokens[leaver.pk], leaver.gift_number

        code, host_token, leaver_id, leaver_name, leaver_token, leaver_gift = db(make)
        host = new_page(browser, 1366, 768, errors, "host")
        host.context.add_init_script(f"localStorage.setItem('heist.host.{code}', {json.dumps(host_token)})")
        host.goto(f"{asgi_server}/host/{code}/")
        panel = host.locator("#late-panel")
        expect(host.locator("body")).to_have_attribute("data-stage", "playing")
        expect(panel).to_be_hidden()  # nobody arrived late yet

        leaver = new_page(browser, 390, 844, errors, "leaver")
        blob = json.dumps({"token": leaver_token, "guest": leaver_id, "gift_number": leaver_gift})
        leaver.context.add_init_script(f"localStorage.setItem({json.dumps('heist.seat.' + code)}, {json.dumps(blob)})")
        leaver.goto(f"{asgi_server}/p/{code}/")
        expect(leaver.locator("#prompt")).to_be_visible()

        # The latecomer's join page says what happens, and takes them in.
        late = new_page(browser, 390, 844, errors, "latecomer")
        late.goto(f"{asgi_server}/j/{code}/")
        expect(late.locator(".late-notice")).to_contain_text("already playing")
        expect(late.locator(".late-notice")).to_contain_text("late arrival")
        expect(late.get_by_text("Registration for this party is closed")).to_have_count(0)
        errors.extend(serious_a11y(late, "late join page"))
        late.screenshot(path=str(SHOTS / "join-late-390.png"), full_page=True)
        late.get_by_label("Your name", exact=True).fill("Lena")
        late.get_by_label("Secretly describe the gift you brought").fill("a teapot")
        late.get_by_role("button", name="Register as a late arrival").click()
        late.wait_for_url(f"**/p/{code}/")
        expect(late.locator(".seat-head h1")).to_contain_text("late arrival")
        expect(late.locator(".late-arrival .gift-number")).to_have_text("5")
        expect(late.locator(".late-arrival")).to_contain_text("late-gifts shelf")

        # The host's panel lists her; the host seats her for the leaver.
        expect(panel).to_be_visible()
        # It folds to one line (issue 40: it kept the tables out of sight): the host unfolds it.
        expect(panel.locator(".late-names")).to_have_text("Lena")
        panel.locator("summary").click()
        row = panel.locator(".late-guest", has_text="Lena")
        expect(row).to_contain_text("waits for a seat")
        host.get_by_label("Seat Lena in place of").select_option(label=f"{leaver_name} (table A, seat 2)")
        panel.screenshot(path=str(SHOTS / "host-late-panel.png"))
        row.get_by_role("button", name="Seat Lena").click()
        expect(row).to_contain_text(f"plays table A, seat 2 for {leaver_name}")
        expect(host.locator(f"li.guest[data-guest='{leaver_id}']")).to_contain_text(
            "left: Lena plays the seat for them"
        )
        expect(host.locator(f"li.guest[data-guest='{leaver_id}'] button")).to_have_count(0)
        host.screenshot(path=str(SHOTS / "host-late-seated.png"), full_page=True)

        # Her phone shows the seat; the leaver's phone says who plays it for them.
        expect(late.locator("#prompt")).to_be_visible(timeout=10000)
        expect(leaver.locator(".seat-head h1")).to_contain_text("Lena plays your seat", timeout=10000)
        expect(leaver.locator(".late-arrival")).to_contain_text("the gift in front of it is yours")
        expect(leaver.get_by_role("link", name="Join again")).to_have_count(0)
        leaver.screenshot(path=str(SHOTS / "leaver-played-by-390.png"), full_page=True)
        roster = db(lambda: Guest.objects.get(pk=leaver_id).table_id)
        assert roster is None

        # Issue 28.9: a guest whose seat went to a substitute by code is not offered
        # "Join again" into a game already dealt, but told what is true.
        third = new_page(browser, 390, 844, errors, "third")
        third_id, third_token, third_gift = db(lambda: _third(code))
        blob = json.dumps({"token": third_token, "guest": third_id, "gift_number": third_gift})
        third.context.add_init_script(f"localStorage.setItem({json.dumps('heist.seat.' + code)}, {json.dumps(blob)})")
        third.goto(f"{asgi_server}/p/{code}/")
        expect(third.locator("#prompt")).to_be_visible()
        db(lambda: _claim(code, third_id))
        expect(third.get_by_role("heading", name="You're not at this table any more")).to_be_visible(timeout=10000)
        expect(third.get_by_role("link", name="Join again")).to_have_count(0)
        expect(third.locator("[role=alert]")).to_contain_text("the gift in front of it at the end is yours")
        # The game is played out: Lena's phone says whose the seat's gift is, and hers.
        db(lambda: _play_out(code))
        expect(late.locator("#prompt")).to_have_attribute("data-prompt", "end", timeout=15000)
        expect(late.locator("#prompt .takes-home")).to_contain_text(f"goes home with {leaver_name}", timeout=10000)
        expect(late.locator("#prompt .takes-home")).to_contain_text("Keep gift 5: your own gift")
        expect(late.locator(".keeps")).to_contain_text(f"{leaver_name} (played by Lena) keeps")
        late.screenshot(path=str(SHOTS / "late-substitute-end-390.png"), full_page=True)
        expect(leaver.locator(".late-arrival")).to_contain_text("the gift in front of your old seat is yours")
        # Issue 40.8: the third guest's phone heard no more of the party, yet does not
        # dead-end: its link opens the result once the party is over.
        third.get_by_role("link", name="See who took what home").click()
        expect(third).to_have_url(f"{asgi_server}/story/{code}/")
        expect(third.locator("main")).to_contain_text("Sub Sue")

        assert not errors, errors
    finally:
        db.close()


def _third(code: str) -> tuple[int, str, int]:
    """Seat 3's guest, with a fresh secret for the test's phone (the stored one is a digest)."""
    from events.models import Guest
    from events.party.secrets import new_token, token_hash

    g = Guest.objects.get(party__code=code, seat=2, table__isnull=False)
    token = new_token()
    Guest.objects.filter(pk=g.pk).update(token_hash=token_hash(token))
    return g.pk, token, g.gift_number


def _claim(code: str, guest_id: int) -> None:
    from events.broadcast.groups import send_on_commit
    from events.models import Guest
    from events.party import services

    party_id = Guest.objects.get(pk=guest_id).party_id
    claim = services.seat_hand_over(party_id=party_id, guest_id=guest_id, requested_by="host").data["claim"]
    out = services.seat_claim(code=code, claim=claim, name="Sub Sue")
    send_on_commit(out.messages)  # the broadcasts, as the HTTP view sends them


def _play_out(code: str) -> None:
    """Bots play the party to its end (the screens follow by their heartbeat)."""
    from events.models import Party
    from events.party import services
    from tests.story.record import party_play

    party = Party.objects.get(code=code)
    party_play(party, seed=2)
    services.party_end(party_id=party.pk)
