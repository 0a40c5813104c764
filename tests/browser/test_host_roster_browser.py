"""The host's guest list at 1366x768: every guest in reach, in the lobby and while one table
plays (when the list shares the screen with the table). The list used CSS columns in a
box of fixed height, which overflow sideways: the guests past the box's height went off
the right edge of the screen, where no scrolling reached them."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import SHOTS, DbThread, new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _every_guest_in_reach(host, count: int) -> None:
    rows = host.locator("#roster > li.guest")
    expect(rows).to_have_count(count)
    roster = host.locator("#roster")
    # Nothing overflows sideways: a list that scrolls sideways inside a box that scrolls
    # down hides its guests where nobody looks (the page's own scroll is off).
    wide, shown = roster.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert wide <= shown + 1, f"the guest list overflows sideways: {wide} px in {shown} px"
    box = roster.bounding_box()
    assert box is not None
    for i in range(count):
        r = rows.nth(i).bounding_box()
        assert r is not None
        assert box["x"] - 1 <= r["x"] and r["x"] + r["width"] <= min(box["x"] + box["width"], 1366) + 1, (
            f"guest {i + 1} is beside the guest list, off its box: {r} in {box}"
        )


@pytest.mark.parametrize("guests", [8, 24])
def test_every_guest_is_in_reach_in_the_lobby_and_at_one_table(asgi_server, browser, guests):
    from tests import shorthand

    errors: list[str] = []
    db = DbThread()
    try:

        def create():
            party, host_token = shorthand.party_create(name="Roster", game="yankee")
            for n in range(guests):
                shorthand.guest_join(code=party.code, name=f"Guest {n + 1}", description=f"gift {n + 1}")
            return party.code, host_token

        code, host_token = db(create)
        host = new_page(browser, 1366, 768, errors, "host")
        host.context.add_init_script(f"localStorage.setItem('heist.host.{code}', {json.dumps(host_token)})")
        host.goto(f"{asgi_server}/host/{code}/")
        _every_guest_in_reach(host, guests)
        if guests <= 10:  # one table: the list shares the screen with it while it plays
            host.locator("#deal").click()
            expect(host.locator("#tables [data-version]")).to_have_count(1)
            _every_guest_in_reach(host, guests)
    finally:
        db.close()
    assert not errors, errors


# Long names as guests type them: one of 40 letters without a space (the longest a name may
# be), hyphenated ones, a captain's mark; German's labels are the longest of the three.
LONG_NAMES = [
    "Maximiliana Featherstonehaugh",
    "Wolfeschlegelsteinhausenbergerdorffvoral",
    "Jean-Christophe-Alexandre",
    "Tío Paco",
    "Oma Inge",
    "Anastasia Papadopoulou-Smythe",
    "Felix",
    "Mia",
]


def _controls_cut(host) -> list[str]:
    """Each guest row scrolled into the Guests box in turn: its buttons, name and hand-over
    code not wholly inside the box (and the screen), or the row wider than its place."""
    return host.evaluate(
        """() => {
            const roster = document.getElementById('roster');
            const out = [];
            if (roster.scrollWidth > roster.clientWidth + 1) out.push(`the list scrolls sideways (${roster.scrollWidth} in ${roster.clientWidth})`);
            for (const li of roster.querySelectorAll('li.guest')) {
                li.scrollIntoView({ block: 'nearest' });
                const box = roster.getBoundingClientRect();
                const name = li.querySelector('.guest-name').textContent;
                for (const el of li.querySelectorAll('button, .guest-name, .presence, .hint, .mark, .claim')) {
                    const r = el.getBoundingClientRect();
                    if (!r.width) continue;
                    if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1
                        || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) {
                        out.push(`${name}: "${el.textContent.trim().slice(0, 30)}" at ${Math.round(r.left)}-${Math.round(r.right)} x ${Math.round(r.top)}-${Math.round(r.bottom)}, the box ${Math.round(box.left)}-${Math.round(box.right)} x ${Math.round(box.top)}-${Math.round(box.bottom)}`);
                    }
                }
                if (li.scrollWidth > li.clientWidth + 1) out.push(`${name}: the row is wider than its place`);
            }
            roster.scrollTop = 0;
            return out;
        }"""
    )


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_every_control_of_a_seated_guests_row_shows_whole(asgi_server, browser, lang):
    """Issue 40: the Guests box of a table that plays, at 1366x768 and 1280x800, in each
    language: every seated guest's row (name, online, table and seat, captain, "Make
    captain", "Hand over seat", a hand-over code once asked) shows whole inside the box
    when scrolled to, however long a name; a name of 40 letters without a space ran out of
    its row and was cut at the box's right edge."""
    from events.party import services
    from tests import shorthand
    from tests.browser.helpers import send_outcome

    errors: list[str] = []
    db = DbThread()
    try:

        def create():
            party, host_token = shorthand.party_create(name="Roster", game="yankee", vault_size=0)
            for name in LONG_NAMES:
                shorthand.guest_join(code=party.code, name=name, description="a gift")
            send_outcome(services.party_seat(party_id=party.pk))
            return party.code, host_token

        code, host_token = db(create)
        host = new_page(browser, 1366, 768, errors, "host")
        host.context.add_init_script(f"localStorage.setItem('heist.host.{code}', {json.dumps(host_token)})")
        host.goto(f"{asgi_server}/host/{code}/")
        if lang != "en":
            host.locator(f".langs button[value='{lang}']").click()
            expect(host.locator("html")).to_have_attribute("lang", lang)
        expect(host.locator("#roster > li.guest")).to_have_count(len(LONG_NAMES))
        expect(host.locator("#roster button[data-key^='handover']")).to_have_count(len(LONG_NAMES))
        # A hand-over code asked for the longest name: its sentence joins the row.
        host.locator("#roster li.guest", has_text=LONG_NAMES[1]).locator("button[data-key^='handover']").click()
        expect(host.locator("#roster .claim")).to_have_count(1)
        for w, hgt in ((1366, 768), (1280, 800)):
            host.set_viewport_size({"width": w, "height": hgt})
            host.wait_for_timeout(100)
            host.screenshot(path=str(SHOTS / f"host-guests-{lang}-{w}x{hgt}.png"))
            cut = _controls_cut(host)
            assert not cut, f"{lang} at {w}x{hgt}: {cut[:6]}"
    finally:
        db.close()
    assert not errors, errors
