"""Issue 40: the join page of a party that is over shows its result to whoever comes late
(each game's late_result.html); its tables scroll sideways on a small phone, and a region
that scrolls is one a keyboard reaches: axe-core finds nothing serious there."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import SHOTS, DbThread, new_page, serious_a11y

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _yankee():
    from tests.story.record import party_record

    return party_record(12, vault_size=1, seed=5)


def _royal():
    from tests.party.test_royal_result import _royal_party

    return _royal_party(6, games=1)[0]


@pytest.mark.parametrize("make", [_yankee, _royal], ids=["yankee", "royal"])
def test_the_join_page_after_the_end_has_no_serious_axe_finding(asgi_server, browser, make):
    errors: list[str] = []
    SHOTS.mkdir(parents=True, exist_ok=True)
    db = DbThread()
    try:
        party = db(make)
    finally:
        db.close()
    found: list[str] = []
    for w, h in ((320, 568), (390, 844)):
        page = new_page(browser, w, h, errors, f"late {w}")
        page.goto(f"{asgi_server}/j/{party.code}/")
        expect(page.locator(".late-result")).to_be_visible()
        scrolls = page.evaluate(
            "() => [...document.querySelectorAll('.late-result .table-scroll')]"
            ".some((s) => s.scrollWidth > s.clientWidth + 1)"
        )
        if w == 320:
            assert scrolls, "the result no longer scrolls sideways at 320 px: the test proves nothing"
        found += serious_a11y(page, f"{party.game} /j/ at {w}x{h}")
        page.screenshot(path=str(SHOTS / f"late-result-{party.game}-{w}x{h}.png"), full_page=True)
        page.close()
    assert not found, found
    assert not errors, errors
