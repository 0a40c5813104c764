"""A captain's own phone does the captain's duty a tablet does (issue 40.1): once a quiet
guest's step clock ran out, it plays the rules' do-nothing choice for them (Yankee: pass
the turn; Royal: get them out), so a table without a tablet does not wait on the host.
The phone says its table and seat (40.5). In real browsers on the real server; the quiet
guests have no phone at all, and the clock runs out by writing its deadline into the past
before the captain's phone loads (the row the server and the screens read).

The table's tablet shows who of its guests is not connected (40.8): the quiet guests, and
the captain once both their pages are closed, within the host's presence timeout; the
mark clears when the captain opens the page again. Each game's tablet marks the seat, the
shell's line above it names it.

Screenshots: artifacts/screenshots/captain-phone-*.png (390x844 and 320x568),
tablet-offline-*.png (1024x768)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from events.live.stalls import STALL_SECONDS
from tests import shorthand
from tests.browser.helpers import SHOTS, DbThread, new_page
from tests.browser.test_step_clock_browser import actors_after, ran_out, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

# The host sees a silent phone offline after STALL_SECONDS (a closed page sooner): the
# tablet is held to the same.
WITHIN_MS = int(STALL_SECONDS * 1000) + 1000


def _seated(game: str) -> dict:
    """A party of three seated at one table with the 60 s clock that a person plays,
    each guest's seat secret, and the table's row."""
    from events.models import Guest
    from events.party import services
    from tables.models import Table

    party, _ = shorthand.party_create(name="Captain's phone", game=game, step_clock=60, step_clock_server=False)
    tokens = {}
    for i, name in enumerate(["Ann", "Bo", "Cy"]):
        guest, token, _ = shorthand.guest_join(code=party.code, name=name, description=f"gift {i}")
        tokens[guest.pk] = token
    services.party_seat(party_id=party.pk)
    table = Table.objects.get(party=party)
    guests = {g.seat: g for g in Guest.objects.filter(party=party)}
    return {"code": party.code, "party": party.pk, "table": table.pk, "tokens": tokens, "guests": guests, "game": game}


def _make_captain(party_id: int, guest_id: int) -> None:
    from events.party import services

    services.party_set_captain(party_id=party_id, guest_id=guest_id)


def _phone(browser, base: str, code: str, guest, token: str, width: int, height: int, errors: list[str]) -> Page:
    seat = json.dumps({"token": token, "guest": guest.pk, "gift_number": guest.gift_number})
    page = new_page(browser, width, height, errors, f"captain {width}")
    page.context.add_init_script(f"localStorage.setItem('heist.seat.{code}', {json.dumps(seat)});")
    page.goto(f"{base}/p/{code}/")
    return page


def _pair(party_id: int, table_id: int, code: str) -> dict:
    from events.party import tablets

    start = tablets.tablet_pair_start(party_id=party_id, table_id=table_id).data
    return tablets.tablet_pair(code=code, pairing=start["pairing"]).data


def _tablet(browser, base: str, code: str, paired: dict, errors: list[str]) -> Page:
    stored = json.dumps({"token": paired["token"], "tablet": paired["tablet"], "letter": paired["letter"]})
    page = new_page(browser, 1024, 768, errors, "tablet")
    page.context.add_init_script(f"localStorage.setItem('heist.tablet.{code}', {json.dumps(stored)});")
    page.goto(f"{base}/t/{code}/")
    return page


def _tablet_sees_the_captain_leave(browser, base: str, db, s: dict, captain: int, pages: list[Page], errors) -> None:
    """The captain's pages close: the table's tablet marks their seat offline (the
    quiet guests, who have no phone, are marked all along); one opens again: cleared.
    `captain` is the one seat with a phone open (Word and Blinks: any guest's)."""
    game = s["game"]
    tablet = _tablet(browser, base, s["code"], db(_pair, s["party"], s["table"], s["code"]), errors)
    row = tablet.locator(SEAT_ROWS[game])
    line = tablet.locator("#tablet-offline .offline-line")
    quiet = [seat for seat in range(3) if seat != captain]
    names = lambda seats: ", ".join(f"{s['guests'][n].name} (seat {n + 1})" for n in seats)  # noqa: E731
    expect(line).to_have_text(f"○ offline Not connected: {names(quiet)}")
    expect(row.locator(".mark.offline")).to_have_count(2)
    expect(tablet.locator(f"{SEAT_ROWS[game]}[data-seat='{captain}'] .mark.offline")).to_have_count(0)
    for page in pages:
        page.close()  # the captain's phone goes away (both of its pages)
    mark = tablet.locator(f"{SEAT_ROWS[game]}[data-seat='{captain}'] .mark.offline")
    expect(mark).to_have_text("○ offline", timeout=WITHIN_MS)
    expect(line).to_have_text(f"○ offline Not connected: {names(range(3))}")
    tablet.screenshot(path=str(SHOTS / f"tablet-offline-{game}-1024.png"))
    tablet.reload()  # the snapshot says the same (a resync is right)
    expect(mark).to_have_count(1)
    expect(row.locator(".mark.offline")).to_have_count(3)
    back = pages[-1].context.new_page()  # the same browser, the seat's secret in it
    back.goto(f"{base}/p/{s['code']}/")
    expect(mark).to_have_count(0, timeout=WITHIN_MS)
    expect(line).to_have_text(f"○ offline Not connected: {names(quiet)}")


# Each game's tablet draws its own seats: the rows that carry the mark.
SEAT_ROWS = {
    "yankee": ".tablet-table li.seat",
    "royal": ".r-seats tbody tr",
    "word": ".w-seats li",
    "blinks": ".bk-seats li",
}


def _says_table_and_seat(page: Page, seat: int) -> None:
    head = page.locator(".seat-head h1")
    expect(head).to_have_attribute("aria-label", f"Table A, seat {seat + 1}")
    expect(head.locator(".table-letter")).to_have_text("A")
    box = head.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"], box


def _captain_passes(browser, base: str, game: str, button_name: str, wire: str) -> None:
    from games.registry import game_named
    from tables.models import Table

    errors: list[str] = []
    db = DbThread()
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        s = db(_seated, game)
        table = db(lambda: Table.objects.get(pk=s["table"]))
        state = game_named(game).from_dict(table.state)
        waiting = list(game_named(game).waiting_for(state))
        # the captain is a seat the table does not wait on alone: one of the others is quiet
        captain = next(seat for seat in range(3) if seat != waiting[0])
        quiet = next(seat for seat in waiting if seat != captain)
        db(_make_captain, s["party"], s["guests"][captain].pk)
        db(ran_out, s["table"])
        version = table.version
        name = s["guests"][quiet].name
        cap = s["guests"][captain]
        small = _phone(browser, base, s["code"], cap, s["tokens"][cap.pk], 320, 568, errors)
        phone = _phone(browser, base, s["code"], cap, s["tokens"][cap.pk], 390, 844, errors)
        for page in (small, phone):
            _says_table_and_seat(page, captain)
            button = page.get_by_role("button", name=f"{button_name} {name}")
            expect(button).to_be_enabled()
            # never a pass for the captain's own seat: that is their own choice to make
            expect(page.get_by_role("button", name=f"{button_name} {cap.name}")).to_have_count(0)
        small.locator(".captain-panel").scroll_into_view_if_needed()
        small.screenshot(path=str(SHOTS / f"captain-phone-{game}-320.png"))
        phone.locator(".captain-panel").scroll_into_view_if_needed()
        phone.screenshot(path=str(SHOTS / f"captain-phone-{game}-390.png"))
        phone.get_by_role("button", name=f"{button_name} {name}").click()
        rows = wait_until(db, lambda: actors_after(s["table"], version), "the captain's pass")
        assert rows[0][:2] == (version + 1, f"captain:{cap.pk}"), rows
        assert rows[0][2]["type"] == wire and rows[0][2]["seat"] == quiet, rows
        _tablet_sees_the_captain_leave(browser, base, db, s, captain, [small, phone], errors)
        assert not errors, errors
    finally:
        db.close()


def test_a_yankee_captains_phone_passes_a_quiet_guests_turn(asgi_server, browser):
    _captain_passes(browser, asgi_server, "yankee", "Pass the turn for", "timeout_pass")


def test_a_royal_captains_phone_gets_a_quiet_guest_out(asgi_server, browser):
    _captain_passes(browser, asgi_server, "royal", "Get out for", "timeout_decide")


@pytest.mark.parametrize("game", ["word", "blinks"])
def test_a_word_or_blinks_tablet_marks_a_closed_phones_seat(asgi_server, browser, game):
    """Word and Blinks tablets mark a seat whose phone is not connected, as Yankee's and
    Royal's do: one guest's phone is open, the two others have none; it closes, its seat
    shows offline within the presence grace, and clears when the phone opens again."""
    errors: list[str] = []
    db = DbThread()
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        s = db(_seated, game)
        guest = s["guests"][1]
        phone = _phone(browser, asgi_server, s["code"], guest, s["tokens"][guest.pk], 390, 844, errors)
        expect(phone.locator("#app")).not_to_be_empty()
        _tablet_sees_the_captain_leave(browser, asgi_server, db, s, 1, [phone], errors)
        assert not errors, errors
    finally:
        db.close()
