"""Issue 40: the big screen's lobby wall, too small for a hundred names, dropped the
oldest without a word; now the names it cannot show give way to "+N more", every name
it shows and that line wholly inside the wall."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests import shorthand
from tests.browser.helpers import SHOTS, DbThread, new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_lobby_wall_says_how_many_names_it_leaves_out(asgi_server, browser):
    errors: list[str] = []
    SHOTS.mkdir(parents=True, exist_ok=True)

    def create():
        party, _ = shorthand.party_create(name="Hundred heist")
        for i in range(100):
            shorthand.guest_join(code=party.code, name=f"Guest {i + 1}", description=f"gift {i + 1}")
        return party.code

    db = DbThread()
    try:
        code = db(create)
    finally:
        db.close()
    screen = new_page(browser, 1280, 720, errors, "screen")
    screen.goto(f"{asgi_server}/screen/{code}/")
    expect(screen.locator("#joined-count")).to_have_text("100")
    more = screen.locator("#names li.more")
    expect(more).to_be_visible()
    left_out = int(re.fullmatch(r"\+(\d+) more", more.inner_text()).group(1))
    shown = screen.locator("#names li.name:not(.more):visible")
    assert left_out > 0 and shown.count() + left_out == 100, (shown.count(), left_out)
    expect(shown.first).to_have_text("Guest 100")  # the newest first
    outside = screen.evaluate(
        """() => { const wall = document.getElementById('names').getBoundingClientRect();
                   return [...document.querySelectorAll('#names li')].filter((li) => !li.hidden)
                     .map((li) => li.getBoundingClientRect())
                     .filter((r) => r.bottom > wall.bottom + 1 || r.right > wall.right + 1).length; }"""
    )
    assert outside == 0, f"{outside} names cut off at the wall's edge"
    screen.screenshot(path=str(SHOTS / "screen-lobby-100-1280x720.png"))
    assert not errors, errors
