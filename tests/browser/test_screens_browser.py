"""Every phase of a two-table party on the screens it is shown on: the big screen at
1280x720 and 1920x1080 (text at least 24 px, scaled, nothing that matters cut short, no
scroll) and two guests' phones at 320x568 and 390x844 (the decision in front of them and
its confirm button on one screen, without scrolling). Screenshots of every phase go to a
temporary directory (SCREENS_SHOTS=dir keeps them).

The party is driven in process (the engine's bot through the table service, the
broadcasts sent as the sockets' would be); the phones act through their screens the
first time they are asked, and are measured there."""

from __future__ import annotations

import json
import os
import random
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests import shorthand
from tests.browser.helpers import DbThread, bot_step, host_command, new_page, send_outcome, table_state
from tests.browser.screens import (
    in_view,
    page_height,
    projector_checked,
    slides_checked,
    words_broken,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Jo A.", "Maximiliana Featherstonehaugh", "Tomás", "Bea", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"]
PHONES = {"Jo A.": (320, 568), "Tomás": (390, 844)}


def tap(page: Page, target, label: str) -> None:
    """A finger's tap where the element shows: it must be on the screen and on top there
    (not under the sticky confirm button); the page does not scroll for it."""
    box = target.bounding_box()
    assert box is not None, f"{label}: nothing to tap"
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    size = page.viewport_size
    assert 0 <= y <= size["height"] and 0 <= x <= size["width"], (
        f"{label}: {target} is off the screen ({x:.0f}, {y:.0f})"
    )
    hit = target.evaluate("(el, [x, y]) => el.contains(document.elementFromPoint(x, y))", [x, y])
    assert hit, f"{label}: {target} is covered at ({x:.0f}, {y:.0f})"
    page.mouse.click(x, y)


@pytest.fixture
def shots_dir():
    keep = os.environ.get("SCREENS_SHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        yield Path(keep)
        return
    with tempfile.TemporaryDirectory(prefix="heist-screens-") as d:
        yield Path(d)


def test_every_phase_fits_the_projector_and_the_phones(asgi_server, browser, shots_dir):
    from events.models import Guest, Party
    from events.party import services
    from games.yankee import Phase
    from tables.models import Table

    base = asgi_server
    errors: list[str] = []
    db = DbThread()
    heights: dict[str, list[int]] = {}
    try:

        def create():
            party, _ = shorthand.party_create(name="Screens night at the Featherstonehaughs", vault_size=1)
            Party.objects.filter(pk=party.pk).update(seed=7)
            seats = {}
            for name in NAMES:
                guest, token, _ = shorthand.guest_join(code=party.code, name=name, description=f"{name}'s gift")
                seats[name] = {"token": token, "guest": guest.pk, "gift_number": guest.gift_number}
            for v in range(2):
                services.vault_gift_add(party_id=party.pk, contributor="Hal", description=f"vault treat {v + 1}")
            return party.pk, party.code, seats

        party_id, code, seats = db(create)
        screen = new_page(browser, 1280, 720, errors, "screen")
        screen.goto(f"{base}/screen/{code}/")
        expect(screen.locator("#names .name")).to_have_count(len(NAMES))
        projector_checked(screen, shots_dir, "screen-1-lobby")

        phones: dict[str, Page] = {}
        for name, (w, hgt) in PHONES.items():
            p = phones[name] = new_page(browser, w, hgt, errors, name)
            p.context.add_init_script(
                f"localStorage.setItem('heist.seat.{code}', {json.dumps(json.dumps(seats[name]))})"
            )
            p.goto(f"{base}/p/{code}/")
            expect(p.locator(".write-number")).to_be_visible()
            p.screenshot(path=str(shots_dir / f"phone-{w}x{hgt}-1-lobby.png"))

        db(host_command, party_id, "seat")
        expect(screen.locator("article.screen-tile")).to_have_count(2)
        tables = db(
            lambda: list(Table.objects.filter(party_id=party_id).order_by("letter").values_list("pk", flat=True))
        )
        where = db(lambda: {g.name: (g.table_id, g.seat) for g in Guest.objects.filter(party_id=party_id)})
        for p in phones.values():
            expect(p.locator(".seat-head h1")).to_be_visible()
        projector_checked(screen, shots_dir, "screen-2-playing")

        rands = {t: random.Random(i) for i, t in enumerate(tables)}  # the same games every run
        asked_ui: set[tuple[str, str]] = set()  # (phone, prompt kind) measured through the screen
        seen_phase: set[str] = set()

        def phone_turn(name: str, kind: str) -> None:
            """The phone's decision and its confirm on one screen, then answered on it."""
            p = phones[name]
            w, hgt = PHONES[name]
            prompt = p.locator(f"#prompt.prompt-{kind}")
            expect(prompt).to_be_visible()
            # The prompt scrolls itself into view: await it.
            p.wait_for_function(
                """() => { const r = document.querySelector('#prompt h2').getBoundingClientRect();
                           return r.top >= -1 && r.bottom <= innerHeight + 1; }""",
                timeout=5000,
            )
            p.wait_for_function(
                "() => new Promise((ok) => { const y = scrollY; requestAnimationFrame(() => requestAnimationFrame(() => ok(scrollY === y))); })"
            )  # and has come to rest
            heights.setdefault(name, []).append(page_height(p))
            label = f"{name} at {w}x{hgt}, {kind}"
            p.screenshot(path=str(shots_dir / f"phone-{w}x{hgt}-{kind}-asked.png"))
            assert in_view(p, "#prompt h2"), f"{label}: the prompt's heading is off screen"
            if kind == "react":
                assert in_view(p, "#let-it-happen"), f"{label}: 'Let it happen' is off screen"
                p.screenshot(path=str(shots_dir / f"phone-{w}x{hgt}-react.png"))
                p.locator("#let-it-happen").click()
                return
            card = p.locator("#prompt #hand button.card:not([disabled])").first
            if kind == "turn" and card.count():
                assert in_view(p, "#prompt #hand button.card:not([disabled])"), f"{label}: no playable card in view"
                tap(p, card, label)
                expect(p.locator("#prompt #hand button.card[aria-pressed='true']")).to_have_count(1)
                # What the card needs next (whom, a card to pay with, a direction), one
                # choice at a time, each tapped where it is: on the screen, uncovered.
                choices = "#prompt .targets button[aria-pressed='false'], #prompt .hand.mini button.card[aria-pressed='false'], #prompt .directions label.mode"
                for _ in range(4):
                    if not p.locator("#confirm").is_disabled() or not p.locator(choices).count():
                        break
                    p.screenshot(path=str(shots_dir / f"phone-{w}x{hgt}-turn-deciding.png"))
                    tap(p, p.locator(choices).first, label)
                    p.wait_for_timeout(50)
                # Nothing to scroll for: the prompt's heading, the card and its confirm are
                # all on the screen (the browser may shift the page as the prompt shrinks).
                assert in_view(p, "#prompt h2"), f"{label}: the prompt's heading went off screen"
                assert in_view(p, "#prompt #hand button.card[aria-pressed='true']"), (
                    f"{label}: the chosen card is off screen"
                )
            assert in_view(p, "#confirm"), f"{label}: the confirm button is off screen"
            p.screenshot(path=str(shots_dir / f"phone-{w}x{hgt}-{kind}.png"))
            if p.locator("#confirm").is_disabled():  # a card this walk could not finish: pass instead
                p.locator("#prompt #hand button.card[aria-pressed='true']").click()
                p.locator("label.mode", has_text="Regroup or pass").click()
            p.locator("#confirm").click()

        def phone_due(tid: int) -> tuple[str, str] | None:
            g = db(table_state, tid)
            for name in phones:
                t, seat = where[name]
                if t != tid:
                    continue
                if g.phase is Phase.ACTION and g.active == seat and (name, "turn") not in asked_ui:
                    return name, "turn"
                if g.phase is Phase.REACTION and seat in g.pending.window.waiting() and (name, "react") not in asked_ui:
                    return name, "react"
            return None

        def drive(stop, shots_at=()) -> None:
            for _ in range(3000):
                states = {t: db(table_state, t) for t in tables}
                if all(stop(g) for g in states.values()):
                    return
                for phase in shots_at:
                    if phase not in seen_phase and any(g.phase.value == phase for g in states.values()):
                        seen_phase.add(phase)
                        expect(screen.locator(f"article.screen-tile.phase-{phase}").first).to_be_visible()
                        projector_checked(screen, shots_dir, f"screen-3-{phase}")
                for t, g in states.items():
                    if stop(g):
                        continue
                    due = phone_due(t)
                    if due:
                        asked_ui.add(due)
                        before = db(table_state, t).version
                        phone_turn(*due)
                        for _ in range(100):  # the phone's answer lands
                            if db(table_state, t).version > before:
                                break
                            screen.wait_for_timeout(50)
                        continue
                    db(bot_step, t, rands[t])
            raise AssertionError("the party did not get there")

        drive(lambda g: g.phase is Phase.GATE, shots_at=("reaction", "reveal", "trim"))
        expect(screen.locator("article.screen-tile.phase-gate")).to_have_count(2)
        projector_checked(screen, shots_dir, "screen-4-gate")
        for name, p in phones.items():
            w, hgt = PHONES[name]
            p.screenshot(path=str(shots_dir / f"phone-{w}x{hgt}-gate.png"))

        db(host_command, party_id, "open_relay")
        expect(screen.locator("#party-bar h2")).to_contain_text("The relay")
        for t in tables:
            db(bot_step, t, rands[t])
        expect(screen.locator(".tile-relay.drawn")).to_have_count(2)
        projector_checked(screen, shots_dir, "screen-5-relay-drawn")
        db(host_command, party_id, "run_relay")
        expect(screen.locator(".relay-moves .move")).to_have_count(2)
        projector_checked(screen, shots_dir, "screen-6-relay-walk")
        db(
            host_command, party_id, "confirm_all_deliveries"
        )  # the walk (tests/browser/relay_walk.py has it step by step)
        expect(screen.locator(".tile-head .round-name").first).to_have_text("THE DOUBLE-CROSS")
        projector_checked(screen, shots_dir, "screen-6-relay-run")

        drive(lambda g: g.phase is Phase.OVER)
        expect(screen.locator("#end .end-list li").first).to_be_visible()
        # A leftover vault gift's row names whom it goes back to (issue 40.8): table A's
        # comes right after A's seats, on the first page.
        from events.party.selectors import vault_returns_public

        back = next(r for r in db(lambda: vault_returns_public(Party.objects.get(pk=party_id))) if r["table"] == "A")
        expect(screen.locator("#end .end-list li.vault-return").first).to_contain_text(
            f"{back['returns_to']} (back from the vault, table A)"
        )
        projector_checked(screen, shots_dir, "screen-7-over")
        for name, p in phones.items():
            w, hgt = PHONES[name]
            p.screenshot(path=str(shots_dir / f"phone-{w}x{hgt}-over.png"))
        assert asked_ui >= {(n, "turn") for n in phones}, asked_ui
        # "Jo A." ends the sentences about her with one full stop, never two.
        for page in (screen, *phones.values()):
            assert "A.." not in page.inner_text("body"), page
        print("phone page heights at their decisions:", heights)
        assert not errors, errors
    finally:
        db.close()


def test_the_story_as_slides_on_the_big_screen_and_yours_first_on_a_phone(asgi_server, browser, shots_dir):
    from events.models import Guest
    from tests.story.record import party_record_with_tokens

    base = asgi_server
    errors: list[str] = []
    db = DbThread()
    try:
        party, _, tokens = db(party_record_with_tokens, 12, vault_size=1, seed=5, name="Story night")
        guest = db(lambda: Guest.objects.get(pk=next(iter(tokens))))
    finally:
        db.close()
    code = party.code

    screen = new_page(browser, 1280, 720, errors, "story screen")
    screen.goto(f"{base}/story/{code}/?screen=1")
    count = slides_checked(screen, shots_dir, "story-1280x720")
    assert count >= 5, count  # highlights, gifts, a picture per table, the tables' rounds
    screen.set_viewport_size({"width": 1920, "height": 1080})
    screen.reload()
    slides_checked(screen, shots_dir, "story-1920x1080")

    seat = json.dumps({"token": tokens[guest.pk], "guest": guest.pk, "gift_number": guest.gift_number})
    for w, hgt in ((320, 568), (390, 844)):
        phone = new_page(browser, w, hgt, errors, f"story phone {w}")
        phone.add_init_script(f"localStorage.setItem('heist.seat.{code}', {json.dumps(seat)})")
        phone.goto(f"{base}/story/{code}/")
        mine = phone.locator("#my-journey")
        expect(mine).to_contain_text(f"Your gift: Gift {guest.gift_number}")
        # Your gift's journey first, on the first screen; the downloads last.
        assert in_view(phone, "#my-journey h2"), f"{w}x{hgt}: your gift's journey is not on the first screen"
        order = phone.evaluate("() => [...document.getElementById('story').children].map((e) => e.id || e.className)")
        assert order.index("my-journey") < order.index("story-highlights") < order.index("story-downloads"), order
        height = page_height(phone)
        phone.screenshot(path=str(shots_dir / f"story-phone-{w}x{hgt}.png"), full_page=True)
        assert height < 6 * hgt, f"{w}x{hgt}: the story is {height} px long"
        broken = words_broken(phone, "#story h1, #story h2, #story h3, #story summary, #story th")
        assert not broken, f"{w}x{hgt}: words broken across lines: {broken[:8]}"
        print(f"story on a phone at {w}x{hgt}: {height} px")
    assert not errors, errors


# A phone where the page may not hold the screen on (plain HTTP on the LAN is not a secure
# context) and cannot vibrate (an iPhone); every tone it plays is counted.
PLAIN_HTTP_IPHONE = """
Object.defineProperty(window, 'isSecureContext', { value: false });
delete Navigator.prototype.wakeLock;
Object.defineProperty(Navigator.prototype, 'vibrate', { value: undefined });
window.__tones = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...a) { window.__tones += 1; return start.apply(this, a); };
"""


def test_phones_stay_awake_or_say_how_and_call_their_guest(asgi_server, browser, shots_dir):
    from events.models import Guest
    from games.yankee import Phase
    from tables.models import Table

    base = asgi_server
    errors: list[str] = []
    db = DbThread()
    try:
        party, _, tokens = db(shorthand.party_seated, name="Awake", guests=3)
        table = db(lambda: Table.objects.get(party=party).pk)
        guests = db(lambda: {g.seat: g for g in Guest.objects.filter(party=party)})
        code = party.code

        def open_phone(seat: int, w: int, hgt: int, script: str = "") -> Page:
            g = guests[seat]
            p = new_page(browser, w, hgt, errors, f"seat {seat}")
            seat_json = json.dumps({"token": tokens[g.pk], "guest": g.pk, "gift_number": g.gift_number})
            p.context.add_init_script(f"localStorage.setItem('heist.seat.{code}', {json.dumps(seat_json)});{script}")
            p.goto(f"{base}/p/{code}/")
            expect(p.locator(".seat-head h1")).to_be_visible()
            return p

        # Where the browser offers the lock (127.0.0.1 is a secure context), it is taken:
        # no note. Headless Chromium may refuse it (no permission prompt): then the note.
        secure = open_phone(0, 390, 844)
        secure.wait_for_function("() => ['locked', 'refused'].includes(document.body.dataset.wakeLock)")
        held = secure.evaluate("document.body.dataset.wakeLock")
        print("wake lock on http://127.0.0.1 in headless Chromium:", held)
        if held == "locked":
            expect(secure.locator("#awake-note")).to_have_count(0)
        else:
            expect(secure.locator("#awake-note")).to_be_visible()

        # Plain HTTP on an iPhone: no lock to take, so the note says how; OK puts it away for good.
        phone = open_phone(1, 320, 568, PLAIN_HTTP_IPHONE)
        expect(phone.locator("body")).to_have_attribute("data-wake-lock", "unsupported")
        note = phone.locator("#awake-note")
        expect(note).to_contain_text("Keep your screen on")
        phone.screenshot(path=str(shots_dir / "phone-320x568-awake-note.png"))
        note.get_by_role("button", name="OK").click()
        expect(note).to_have_count(0)
        phone.reload()
        expect(phone.locator(".seat-head h1")).to_be_visible()
        expect(phone.locator("#awake-note")).to_have_count(0)

        # Its guest's first tap unlocks the sound; their turn then chimes (no vibration here).
        phone.locator(".seat-head").click()
        assert phone.evaluate("window.__tones") <= 1  # at most the silent unlocking tone
        rand = random.Random(3)
        # The turn must come to seat 1 after the tap: when the party's seed dealt seat 1
        # the first turn, its cue sounded on loading, before any tap could unlock sound.
        away = False
        for _ in range(300):
            g = db(table_state, table)
            mine = g.phase is Phase.ACTION and g.active == 1
            if mine and away:
                break
            away = away or not mine
            db(bot_step, table, rand)
        else:
            raise AssertionError("seat 1 never got a turn")
        expect(phone.locator("#prompt.prompt-turn")).to_be_visible()
        expect(phone.locator("body")).to_have_attribute("data-cue-by", "sound")
        assert phone.evaluate("window.__tones") >= 3, "the turn's two notes after the unlocking tone"
        assert not errors, errors
    finally:
        db.close()


def test_a_seat_offer_stays_on_the_tablet_and_the_dashboard_until_handled(asgi_server, browser):
    from events.models import Guest
    from events.party import services
    from events.party.tablets import tablet_pair_start
    from tables.models import Table

    base = asgi_server
    errors: list[str] = []
    db = DbThread()
    try:
        party, host_token, _ = db(shorthand.party_seated, name="Offers", guests=4)
        table = db(lambda: Table.objects.get(party=party).pk)
        leaver = db(lambda: Guest.objects.get(party=party, seat=2))
        pairing = db(lambda: tablet_pair_start(party_id=party.pk, table_id=table).data["pairing"])
        code = party.code
        host = new_page(browser, 1280, 800, errors, "host")
        host.context.add_init_script(f"localStorage.setItem('heist.host.{code}', {json.dumps(host_token)})")
        host.goto(f"{base}/host/{code}/")
        expect(host.locator("#tables article").first).to_be_visible()
        tablet = new_page(browser, 820, 1180, errors, "tablet")
        tablet.goto(f"{base}/t/{code}/#{pairing}")
        expect(tablet.locator(".tablet-head h1")).to_have_text("Table A")

        db(lambda: send_outcome(services.seat_offer(party_id=party.pk, guest_id=leaver.pk)))
        offer = f"{leaver.name} (seat 3) offers their seat to a substitute."
        for page in (host, tablet):
            expect(page.locator("#offers .offer")).to_contain_text(offer)
        host.wait_for_timeout(4500)  # longer than a toast lives
        for page in (host, tablet):
            expect(page.locator("#offers .offer")).to_be_visible()

        # The tablet dismisses it; the host hands the seat over from it: the code shows by
        # the guest, and the hand-over ends the offer.
        tablet.locator("#offers").get_by_role("button", name="Dismiss").click()
        expect(tablet.locator("#offers .offer")).to_have_count(0)
        host.locator("#offers").get_by_role("button", name="Hand over seat").click()
        # (one table: in the guest list; several: in the table's details)
        expect(host.locator(f"li.guest[data-guest='{leaver.pk}'] .claim")).to_contain_text("Hand-over code")
        expect(host.locator("#offers .offer")).to_have_count(0)
        assert not errors, errors
    finally:
        db.close()


def test_the_lobby_says_why_it_cannot_deal_and_fits_a_768px_laptop(asgi_server, browser, shots_dir):
    from tests.browser.screens import truncated

    base = asgi_server
    errors: list[str] = []
    db = DbThread()
    try:

        def create():
            party, token = shorthand.party_create(name="Vault check", vault_size=1)
            for name in ("Ann", "Ben", "Cy"):
                shorthand.guest_join(code=party.code, name=name, description=f"{name}'s gift")
            return party, token

        party, host_token = db(create)
    finally:
        db.close()
    code = party.code
    host = new_page(browser, 768, 1024, errors, "host")
    host.context.add_init_script(f"localStorage.setItem('heist.host.{code}', {json.dumps(host_token)})")
    host.goto(f"{base}/host/{code}/")
    deal = host.locator("#deal")
    expect(deal).to_be_disabled()
    expect(host.locator("#deal-why")).to_have_text("Add 1 more vault gift first: 0 of 1 needed.")
    # The vault form's button shows whole, inside its panel, on a 768 px wide tablet and
    # a 1366x768 laptop (where the dashboard is one screen and the panel scrolls inside).
    add = host.get_by_role("button", name="Add vault gift")
    for w, hgt in ((768, 1024), (1366, 768), (1280, 800)):
        host.set_viewport_size({"width": w, "height": hgt})
        expect(add).to_be_visible()
        inside = host.evaluate(
            """() => { const b = [...document.querySelectorAll('#vault-form button')].find((x) => x.textContent.includes('Add vault gift'));
                       const p = document.getElementById('vault-panel').getBoundingClientRect(); const r = b.getBoundingClientRect();
                       return r.left >= p.left && r.right <= p.right + 0.5 && r.top >= p.top && r.bottom <= p.bottom + 0.5
                           && r.right <= innerWidth && r.bottom <= innerHeight; }"""
        )
        host.screenshot(path=str(shots_dir / f"host-{w}x{hgt}-lobby.png"))
        assert inside, f"the vault button is cut off at {w}x{hgt}"
        assert not truncated(host, "#vault-form button, #deal, #deal-why"), f"cut short at {w}x{hgt}"
    host.get_by_label("Contributed by").fill("Hal")
    host.get_by_label("Secret description").fill("a candle")
    add.click()
    expect(deal).to_be_enabled()
    expect(host.locator("#deal-why")).to_have_count(0)
    assert not errors, errors


def test_the_projector_shows_ten_tables_whole(asgi_server, browser, shots_dir):
    """A hundred guests at ten tables on the big screen: five tiles a row at 1280x720,
    still 24 px text, round names and names whole, every phase; the end list paged."""
    from events.models import Party
    from events.party import services
    from games.yankee import Phase
    from tables.models import Table

    base = asgi_server
    errors: list[str] = []
    db = DbThread()
    try:

        def create():
            party, _ = shorthand.party_create(name="Hundred heist", vault_size=1)
            Party.objects.filter(pk=party.pk).update(seed=11)
            for i in range(100):
                name = "Maximiliana Featherstonehaugh" if i == 7 else "Jo A." if i == 8 else f"Guest {i + 1}"
                shorthand.guest_join(code=party.code, name=name, description=f"gift of guest {i + 1}")
            for v in range(10):
                services.vault_gift_add(party_id=party.pk, contributor="Hal", description=f"vault treat {v + 1}")
            return party.pk, party.code

        party_id, code = db(create)
        screen = new_page(browser, 1280, 720, errors, "screen")
        screen.goto(f"{base}/screen/{code}/")
        expect(screen.locator("#joined-count")).to_have_text("100")
        projector_checked(screen, shots_dir, "ten-1-lobby")
        db(host_command, party_id, "seat")
        expect(screen.locator("article.screen-tile")).to_have_count(10)
        tables = db(
            lambda: list(Table.objects.filter(party_id=party_id).order_by("letter").values_list("pk", flat=True))
        )
        rands = {t: random.Random(i) for i, t in enumerate(tables)}  # the same games every run

        def drive(stop, steps: int) -> None:
            """Up to `steps` bot actions at every table not yet at `stop`."""
            for _ in range(steps):
                moved = False
                for t in tables:
                    if not stop(db(table_state, t)):
                        db(bot_step, t, rands[t])
                        moved = True
                if not moved:
                    return

        drive(lambda g: g.phase is Phase.GATE, 6)
        expect(screen.locator(".tile-last:not([hidden])").first).to_be_visible()
        projector_checked(screen, shots_dir, "ten-2-playing")
        drive(lambda g: g.phase is Phase.GATE, 2000)
        expect(screen.locator("article.screen-tile.phase-gate")).to_have_count(10)
        projector_checked(screen, shots_dir, "ten-3-gate")
        db(host_command, party_id, "open_relay")
        for t in tables:
            db(bot_step, t, rands[t])
        expect(screen.locator(".tile-relay.drawn")).to_have_count(10)
        projector_checked(screen, shots_dir, "ten-4-relay-drawn")
        db(host_command, party_id, "run_relay")
        expect(screen.locator(".relay-moves .move")).to_have_count(10)
        projector_checked(screen, shots_dir, "ten-5-relay-walk")
        db(host_command, party_id, "confirm_all_deliveries")
        projector_checked(screen, shots_dir, "ten-5-relay-run")
        drive(lambda g: g.phase is Phase.OVER, 3000)
        expect(screen.locator("#end .page-no")).to_contain_text("Page 1 of")
        projector_checked(screen, shots_dir, "ten-6-over")
        assert not errors, errors
    finally:
        db.close()


def blocks_out_of_order(lines: list[str]) -> list[str]:
    """Each "⊘ Bea blocked it with ..." line whose move is not the one read just before
    it: the nearest move above it (a card played on someone, a SWIPE at someone) must name
    the blocker, whose gift it threatened."""
    bad = []
    for i, line in enumerate(lines):
        if " blocked it with " not in line:
            continue
        blocker = line.removeprefix("⊘ ").split(" blocked it with ", 1)[0]
        move = next((x for x in reversed(lines[:i]) if " played " in x or " to SWIPE at " in x), None)
        if move is None or blocker not in move:
            bad.append(f"{line!r} read after {move!r}, in {lines}")
    return bad


def test_a_tables_log_reads_in_the_order_things_happened(asgi_server, browser, shots_dir):
    """Issue 40: a table's log showed the newest line first, so "⊘ Mia blocked it with NOT
    SO FAST!" sat under the next move ("Oma Inge played SNATCH on Alexandra.") and read as
    its block, while Mia had blocked the move before (a GRIFT naming her). The big screen's
    tile and the host's table card now read in the order things happened, the newest
    last, each block right under the move it blocked. A real table of five, played by the
    engine's bot until three moves were blocked."""
    from events.models import Party
    from tables.models import Table

    errors: list[str] = []
    db = DbThread()
    try:

        def create():
            party, token = shorthand.party_create(name="Blocks", vault_size=0)
            Party.objects.filter(pk=party.pk).update(seed=7)
            for name in ("Oma Inge", "Tío Paco", "Alexandra", "Maximilian", "Mia"):
                shorthand.guest_join(code=party.code, name=name, description=f"{name}'s gift")
            return party.pk, party.code, token

        party_id, code, token = db(create)
        db(host_command, party_id, "seat")
        table = db(lambda: Table.objects.get(party_id=party_id).pk)
        screen = new_page(browser, 1280, 720, errors, "screen")
        screen.goto(f"{asgi_server}/screen/{code}/")
        host = new_page(browser, 1366, 768, errors, "host")
        host.context.add_init_script(f"localStorage.setItem('heist.host.{code}', {json.dumps(token)})")
        host.goto(f"{asgi_server}/host/{code}/")
        expect(screen.locator("article.screen-tile")).to_have_count(1)
        expect(host.locator("article.table")).to_have_count(1)
        r = random.Random(3)
        blocks = 0
        read = {
            screen: "() => [...document.querySelectorAll('.screen-tile .tile-log li, .screen-tile .tile-last')]"
            ".map((e) => e.textContent)",
            host: "() => [...document.querySelectorAll('article.table .log li')].map((e) => e.textContent)",
        }
        for _ in range(600):
            version = db(lambda: Table.objects.get(pk=table).version)
            db(bot_step, table, r)
            for page in (screen, host):
                page.wait_for_function(
                    "(v) => [...document.querySelectorAll('[data-version]')].some((e) => Number(e.dataset.version) > v)",
                    arg=version,
                )
            lines = {page: page.evaluate(js) for page, js in read.items()}
            if not any(" blocked it with " in x for x in lines[screen][-2:]):
                continue
            # A move was just blocked: its line and the block's are both on the tile.
            blocks += 1
            screen.screenshot(path=str(shots_dir / f"log-order-screen-{blocks}.png"))
            host.screenshot(path=str(shots_dir / f"log-order-host-{blocks}.png"))
            assert not blocks_out_of_order(lines[screen]), f"big screen: {blocks_out_of_order(lines[screen])}"
            assert not blocks_out_of_order(lines[host]), f"dashboard: {blocks_out_of_order(lines[host])}"
            if blocks == 3 or db(table_state, table).phase.value == "over":
                break
        assert blocks, "no move was blocked"
        assert not errors, errors
    finally:
        db.close()
