"""A guest who never answers does not stop the table (docs/RULES.md, "When a guest does
not answer"), in real browsers on the real server (daphne, which sweeps the clocks):

- the host chooses a 60-second clock that the server plays, on the home page; the
  quiet guest's turn runs out and the table goes on by itself within the clock;
- with the clock but not the server's play, the captain's tablet and the host's
  dashboard are called when the pass becomes possible (a chime, the title, the focus
  on the button), and the tablet plays it.

The quiet guest has no phone at all. For the server's play, time is moved by writing
the step's deadline into the past (the row the server's clock reads); for the call, the
clock is a test-only 20 s and the test waits it out, so the pages' own timers call.

`quiet_guest_step(...)` is also the 100-guest browser test's quiet guest
(tests/browser/test_big_party_browser.py).
"""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect

from tests import shorthand
from tests.browser.helpers import SHOTS, DbThread, new_page

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

GUESTS = ["Ann", "Bo", "Cy"]
SHORT_CLOCK = 20  # s


def ran_out(table_id: int, seconds: float = 1) -> None:
    """The step waiting now ran out `seconds` ago (the server's clock reads this)."""
    from django.utils import timezone

    from tables.models import Table

    Table.objects.filter(pk=table_id).update(step_due_at=timezone.now() - timedelta(seconds=seconds))


def table_state(table_id: int) -> tuple[int, str, int | None]:
    """(version, phase, active seat) of the stored game."""
    from games.yankee import Game
    from tables.models import Table

    g = Game.from_dict(Table.objects.get(pk=table_id).state)
    return g.version, g.phase.value, g.active


def actors_after(table_id: int, version: int) -> list[tuple[int, str, dict]]:
    from tables.models import TableAction

    return list(
        TableAction.objects.filter(table_id=table_id, version__gt=version)
        .order_by("version")
        .values_list("version", "actor", "action")
    )


def _clock_of(table_id: int) -> tuple[int, bool]:
    from tables.models import Table

    return Table.objects.values_list("step_clock", "step_clock_server").get(pk=table_id)


def wait_until(db: DbThread, probe, what: str, timeout: float = 10.0):
    end = time.monotonic() + timeout
    while True:
        got = db(probe)
        if got:
            return got
        assert time.monotonic() < end, f"timed out: {what}"
        time.sleep(0.1)


def quiet_guest_step(db: DbThread, table_id: int, *, within: float = 10.0) -> tuple[int, str]:
    """A table whose guest never answers goes on by itself within its clock: the step
    waiting now runs out, and the server plays the do-nothing choice for that guest
    within `within` seconds (its sweep runs every second). Returns (the version the
    server made, the action's type)."""
    version = db(lambda: table_state(table_id))[0]
    db(ran_out, table_id)
    rows = wait_until(db, lambda: actors_after(table_id, version), "the server's pass", within)
    v, actor, action = rows[0]
    assert (v, actor) == (version + 1, "clock"), rows
    return v, action["type"]


def _create(host: Page, base: str, *, clock: str, server: bool) -> str:
    host.goto(base + "/")
    host.get_by_label("Party name").fill("Quiet guest")
    host.get_by_label("Step clock").select_option(clock)
    if server:
        host.get_by_label("When it runs out, the server plays for the quiet guest").check()
    host.get_by_role("button", name="Host a party").click()
    host.wait_for_url(re.compile(r"/host/[A-Z0-9]{6}/$"))
    return host.url.rstrip("/").rsplit("/", 1)[1]


def _join_and_deal(db: DbThread, host: Page, code: str) -> int:
    from events.party.lobbycast import lobby_announce

    def join():
        for name in GUESTS:
            _, _, outcome = shorthand.guest_join(code=code, name=name, description=f"{name}'s mug")
            lobby_announce(outcome.data["party"])

    db(join)
    expect(host.locator("#roster li.guest")).to_have_count(len(GUESTS))
    host.locator("#deal").click()
    return db(lambda: wait_until_table(code))


def wait_until_table(code: str) -> int:
    from tables.models import Table

    for _ in range(100):
        t = Table.objects.filter(party__code=code).values_list("pk", flat=True).first()
        if t:
            return t
        time.sleep(0.1)
    raise AssertionError("no table dealt")


def test_a_guest_who_never_answers_the_table_goes_on_within_the_hosts_clock(asgi_server, browser):
    errors: list[str] = []
    db = DbThread()
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        host = new_page(browser, 1280, 900, errors, "host")
        code = _create(host, asgi_server, clock="60", server=True)
        # the dashboard shows the host's choice, and can change it
        expect(host.locator("#clock-summary")).to_have_text("Step clock: 60 s · the server plays")
        expect(host.locator("#step-clock")).to_have_value("60")
        expect(host.locator("#step-clock-server")).to_be_checked()
        table_id = _join_and_deal(db, host, code)
        _version, phase, active = db(lambda: table_state(table_id))
        assert phase == "action"
        # Nobody answers: nobody even has a phone. The turn's clock runs out...
        _v, kind = quiet_guest_step(db, table_id)
        assert kind == "timeout_pass"
        v2, phase2, active2 = db(lambda: table_state(table_id))
        assert phase2 == "action" and active2 == (active + 1) % len(GUESTS)
        # ...and every screen shows it (the host's table card, its story of the table).
        expect(host.locator(".events, .log").first).to_contain_text("turn ran out: passed for them")
        # The next quiet step too: the table never waits for good.
        v3, _ = quiet_guest_step(db, table_id)
        assert v3 == v2 + 1
        host.screenshot(path=str(SHOTS / "step-clock-server-played.png"), full_page=True)
        # The host changes the clock during play, on the dashboard: every table has it.
        host.locator("#clock-summary").click()
        host.locator("#step-clock").select_option("120")
        expect(host.locator("#clock-summary")).to_have_text("Step clock: 2 min · the server plays")
        assert wait_until(db, lambda: _clock_of(table_id) == (120, True), "the table's new clock")
        host.screenshot(path=str(SHOTS / "step-clock-host-menu.png"))
        assert not errors, errors
    finally:
        db.close()


def test_the_captains_tablet_and_the_host_are_called_and_the_tablet_plays_it(asgi_server, browser):
    from events.models import Party
    from events.party import tablets
    from tables.models import Table

    errors: list[str] = []
    db = DbThread()
    try:
        host = new_page(browser, 1280, 900, errors, "host")
        code = _create(host, asgi_server, clock="60", server=False)
        expect(host.locator("#clock-summary")).to_have_text("Step clock: 60 s")
        expect(host.locator("#step-clock")).to_have_value("60")
        expect(host.locator("#step-clock-server")).not_to_be_checked()
        # A test-only short clock, written past the service's choices (off, 60 s, 2 min):
        # the call is seen happening in real time, the page's own timers and all.
        db(lambda: Party.objects.filter(code=code).update(step_clock=SHORT_CLOCK))
        table_id = _join_and_deal(db, host, code)
        dealt = time.monotonic()
        party_id = db(lambda: Party.objects.get(code=code).pk)
        pairing = db(lambda: tablets.tablet_pair_start(party_id=party_id, table_id=table_id).data["pairing"])
        tablet = new_page(browser, 820, 1180, errors, "tablet")
        tablet.goto(f"{asgi_server}/t/{code}/#{pairing}")
        expect(tablet.locator(".tablet-head h1")).to_have_text("Table A")
        tablet.locator("body").click()  # a captain's first tap readies the sound (browsers' rule)
        host.locator("body").click()
        version, _, active = db(lambda: table_state(table_id))
        quiet = db(lambda: Table.objects.get(pk=table_id).roster)[active]["name"]
        # Before the clock runs out: a countdown, the button there but not usable.
        button = tablet.get_by_role("button", name=f"Pass the turn for {quiet}")
        expect(button).to_be_disabled()
        assert tablet.evaluate("window.heistChimes || 0") == 0
        assert host.evaluate("window.heistChimes || 0") == 0
        assert time.monotonic() - dealt < SHORT_CLOCK - 1, "too slow to see the call happen"
        # The clock runs out (real time): both are called.
        expect(tablet.locator("#duty-h")).to_have_text(f"{quiet}'s turn ran out", timeout=(SHORT_CLOCK + 10) * 1000)
        expect(button).to_be_enabled()
        expect(button).to_be_focused()
        expect(tablet).to_have_title(re.compile(rf"^● {quiet}'s turn ran out"))
        assert tablet.evaluate("window.heistChimes") == 1
        alert = host.locator("[data-kind=pass]")
        expect(alert).to_contain_text("Table A: a turn has waited")
        host_button = host.get_by_role("button", name=f"Pass the turn for {quiet}")
        expect(host_button).to_be_focused()
        expect(host).to_have_title(re.compile(r"^● \d+ needs? you"))  # with the offline guests
        assert host.evaluate("window.heistChimes") == 1
        SHOTS.mkdir(parents=True, exist_ok=True)
        tablet.screenshot(path=str(SHOTS / "step-clock-tablet-called.png"), full_page=True)
        # The captain plays it on the tablet: the turn is passed, logged as the tablet's.
        button.click()
        rows = wait_until(db, lambda: actors_after(table_id, version), "the tablet's pass")
        assert rows[0][0] == version + 1 and rows[0][1].startswith("tablet:"), rows
        assert rows[0][2] == {"type": "timeout_pass", "seat": active}
        expect(alert).to_have_count(0)  # the host's call is gone with the step
        expect(tablet.locator("#duty-h")).not_to_have_text(f"{quiet}'s turn ran out")
        assert not errors, errors
    finally:
        db.close()


def quiet_guest_in_big_party(db: DbThread, *, code: str, table_id: int) -> tuple[int, str]:
    """The 100-guest party's quiet guest (tests/browser/test_big_party_browser.py): the
    host turns on the 60-second clock played by the server, the guest whose step the
    table waits on never answers, and the table goes on within the clock; then the
    host's clock is put back as it was. Returns what quiet_guest_step does."""
    from asgiref.sync import async_to_sync

    from events.broadcast import groups
    from events.models import Party
    from events.party import services

    def set_clock(clock: int, server: bool) -> None:
        party_id = Party.objects.get(code=code).pk
        out = services.party_set_clock(party_id=party_id, step_clock=clock, step_clock_server=server)
        async_to_sync(groups.send_safely)(out.messages)  # every screen sees the new clock

    before = db(lambda: Party.objects.values_list("step_clock", "step_clock_server").get(code=code))
    db(set_clock, 60, True)
    try:
        return quiet_guest_step(db, table_id)
    finally:
        db(set_clock, *before)


ROYAL_CLOCK = 6  # s: a test-only decide clock (the service offers off, 60 s, 2 min)


def test_a_quiet_royal_guest_is_got_out_from_the_tablet_and_the_host_is_called(asgi_server, browser):
    """Royal Heist with the server's play off: every seat inside decides under one clock;
    when it runs out, the captain's tablet and the host's dashboard offer "Get out for"
    each seat still deciding (the clock's choice, docs/RULES.md), and the tablet plays it."""
    from events.models import Party
    from events.party import tablets
    from events.party.lobbycast import lobby_announce
    from tables.models import Table

    errors: list[str] = []
    db = DbThread()
    try:
        host = new_page(browser, 1366, 768, errors, "host")
        host.goto(asgi_server + "/")
        host.get_by_label("Party name").fill("Quiet royal")
        host.locator("#party-game").select_option("royal")
        host.locator("#party-games").select_option("1")
        host.get_by_label("Step clock").select_option("60")
        host.get_by_role("button", name="Host a party").click()
        host.wait_for_url(re.compile(r"/host/[A-Z0-9]{6}/$"))
        code = host.url.rstrip("/").rsplit("/", 1)[1]
        db(lambda: Party.objects.filter(code=code).update(step_clock=ROYAL_CLOCK))

        def join():
            for name in GUESTS:
                _, _, outcome = shorthand.guest_join(code=code, name=name, description="")
                lobby_announce(outcome.data["party"])

        db(join)
        expect(host.locator("#roster li.guest")).to_have_count(len(GUESTS))
        host.locator("#deal").click()
        table_id = db(lambda: wait_until_table(code))
        party_id = db(lambda: Party.objects.get(code=code).pk)
        pairing = db(lambda: tablets.tablet_pair_start(party_id=party_id, table_id=table_id).data["pairing"])
        tablet = new_page(browser, 820, 1180, errors, "tablet")
        tablet.goto(f"{asgi_server}/t/{code}/#{pairing}")
        tablet.locator("body").click()  # the first tap readies the sound
        version = db(lambda: Table.objects.get(pk=table_id).version)
        names = [entry["name"] for entry in db(lambda: Table.objects.get(pk=table_id).roster)]  # by seat
        # Nobody has a phone: all three are quiet. The clock runs out (real time).
        button = tablet.get_by_role("button", name=f"Get out for {names[0]}")
        expect(button).to_be_enabled(timeout=(ROYAL_CLOCK + 10) * 1000)
        expect(tablet.get_by_role("button", name=f"Get out for {names[2]}")).to_be_enabled()
        # the tablet is called (a chime, the focus on the first button, scrolled into view):
        # the tap comes after, as a person's would, not while the page scrolls
        tablet.wait_for_function("() => (window.heistChimes || 0) >= 1")
        expect(button).to_be_focused()
        alert = host.locator("[data-kind=pass]")
        expect(alert).to_contain_text("Table A: a decision has waited")
        expect(host.get_by_role("button", name=f"Get out for {names[1]}")).to_be_visible()
        tablet.screenshot(path=str(SHOTS / "royal-step-clock-tablet.png"), full_page=True)
        button.click()
        rows = wait_until(db, lambda: actors_after(table_id, version), "the tablet's stand-in")
        assert rows[0][0] == version + 1 and rows[0][1].startswith("tablet:"), rows
        assert rows[0][2] == {"type": "timeout_decide", "seat": 0}
        # the others are still waited for, under the same clock: the host gets them out
        host.get_by_role("button", name=f"Get out for {names[1]}").click()
        host.get_by_role("button", name=f"Get out for {names[2]}").click()
        rows = wait_until(
            db, lambda: len(actors_after(table_id, version)) >= 3 and actors_after(table_id, version), "all out"
        )
        assert sorted(r[2]["seat"] for r in rows[:3]) == [0, 1, 2]
        assert [r[1] for r in rows[1:3]] == ["host", "host"], rows
        # everybody got out: the heist ended, the next room has a fresh clock, no call
        expect(alert).to_have_count(0)
        assert not errors, errors
    finally:
        db.close()
