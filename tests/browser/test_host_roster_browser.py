"""The host's guest list at 1366x768: every guest in reach, in the lobby and while one table
plays (when the list shares the screen with the table). The list used CSS columns in a
box of fixed height, which overflow sideways: the guests past the box's height went off
the right edge of the screen, where no scrolling reached them."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import DbThread, new_page

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
