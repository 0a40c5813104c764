"""Issue 40, item 7, in a real browser: the story's table of contents leads to every
section, each table's rounds and each guest's gifts, opening what is folded; the big
screen's slideshow is a recap of a few minutes (`?minutes=N`, `?minutes=all` for every
slide), the highlights first. Screenshots: artifacts/screenshots/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import SHOTS, DbThread, new_page
from tests.browser.screens import in_view

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLIDE_SECONDS = 12


def _recorded(guests: int):
    from games.yankee.party.story.inputs import story_replay
    from tests.story.record import party_record_with_tokens

    db = DbThread()
    try:
        party, _, _ = db(party_record_with_tokens, guests, vault_size=1, seed=5, name="Story night")
        return party, db(story_replay, party)
    finally:
        db.close()


def test_the_contents_lead_to_every_table_round_and_guest(asgi_server, browser):
    base = asgi_server
    errors: list[str] = []
    SHOTS.mkdir(parents=True, exist_ok=True)
    party, story = _recorded(24)
    page = new_page(browser, 1366, 768, errors, "laptop")
    page.goto(f"{base}/story/{party.code}/")
    toc = page.locator("#story-toc")
    expect(toc).to_be_visible()
    tables = [t["table"] for t in story["tables"]]
    assert len(tables) == 3
    for letter in tables:
        expect(toc.locator(f'a[href="#table-{letter}"]')).to_have_count(1)
    page.screenshot(path=str(SHOTS / "story-contents-1366x768.png"))

    # The last table's last round: folded on the page; the link opens it and shows it.
    last = tables[-1]
    rounds = toc.locator(f'a.toc-round[href^="#table-{last}-round-"]')
    assert rounds.count() >= 2
    link = rounds.last
    target = link.get_attribute("href")[1:]
    expect(page.locator(f"details#table-{last}")).not_to_have_attribute("open", "")
    link.click()
    expect(page.locator(f"details#table-{last}")).to_have_attribute("open", "")
    page.wait_for_function(
        "(id) => { const r = document.getElementById(id).getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= innerHeight; }",
        arg=target,
    )
    assert in_view(page, f"#{target}")

    # Back to the contents, then a guest's gift taken home: its journey opens in view.
    page.locator(f"details#table-{last}").locator("xpath=ancestor::section").locator("p.to-toc a").click()
    page.wait_for_function(
        "() => document.getElementById('toc-h').getBoundingClientRect().top >= 0"
        " && document.getElementById('toc-h').getBoundingClientRect().bottom <= innerHeight"
    )
    home = next(g for g in story["gifts"] if not g["returned"] and g["moves"])
    toc.locator("details.toc-guests summary").click()
    guest = toc.locator("details.toc-guests li", has=page.locator("span.toc-name", has_text=home["home_with"])).first
    guest.locator(f'a[href="#gift-{home["gift"]}"]', has_text="took home").click()
    journey = page.locator(f"details#gift-{home['gift']}")
    expect(journey).to_have_attribute("open", "")
    page.wait_for_function(
        "(id) => { const r = document.getElementById(id).getBoundingClientRect();"
        " return r.top >= 0 && r.top < innerHeight; }",
        arg=f"gift-{home['gift']}",
    )
    page.screenshot(path=str(SHOTS / "story-contents-journey.png"))
    assert errors == []


def _slides(page, url: str) -> int:
    page.goto(url)
    page.wait_for_function("() => document.getElementById('story').dataset.slides")
    return int(page.locator("#story").get_attribute("data-slides"))


def test_the_big_screen_shows_a_recap_of_a_few_minutes(asgi_server, browser):
    base = asgi_server
    errors: list[str] = []
    party, _ = _recorded(100)
    screen = new_page(browser, 1280, 720, errors, "screen")
    url = f"{base}/story/{party.code}/?screen=1"
    every = _slides(screen, f"{url}&minutes=all")
    recap = _slides(screen, url)
    short = _slides(screen, f"{url}&minutes=1")
    print(f"story slides, 100 guests at 1280x720: all {every}, recap {recap}, one minute {short}")
    assert every * SLIDE_SECONDS > 4 * 60, every  # the whole story is longer than the recap
    assert recap < every and 3 * 60 <= recap * SLIDE_SECONDS <= 4 * 60, recap
    assert short * SLIDE_SECONDS <= 60
    # The one-minute recap begins with the highlights, and the first slide shows it.
    expect(screen.locator(".story-slide:visible h2")).to_have_text("Highlights")
    assert screen.locator(".story-slide li.entry").count() == 0  # no round-by-round line
    screen.screenshot(path=str(SHOTS / "story-recap-1280x720.png"))
    assert errors == []
