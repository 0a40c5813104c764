"""Issue 13, in a real browser: after a recorded two-table party, a guest's phone
shows the way to the party's story on its end screen, the big screen links to it,
and the story page shows what the replayed action log says. The host downloads a
printable from the dashboard's Printables panel. Screenshots: artifacts/screenshots/.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import SHOTS, DbThread, new_page, overflows

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_story_after_a_recorded_party(asgi_server, browser):
    from events.models import Guest
    from games.yankee.party.story.inputs import story_replay
    from tests.story.record import party_record_with_tokens

    base = asgi_server
    errors: list[str] = []
    SHOTS.mkdir(parents=True, exist_ok=True)
    db = DbThread()
    try:
        party, host_token, tokens = db(party_record_with_tokens, 12, vault_size=1, seed=5, name="Story <night>")
        story = db(story_replay, party)
        guest = db(lambda: Guest.objects.get(pk=next(iter(tokens))))
    finally:
        db.close()
    code = party.code

    # --- a guest's phone: the end screen leads to the story ---------------------------------
    phone = new_page(browser, 390, 844, errors, "guest")
    seat = json.dumps({"token": tokens[guest.pk], "guest": guest.pk, "gift_number": guest.gift_number})
    phone.add_init_script(f"localStorage.setItem('heist.seat.{code}', {json.dumps(seat)})")
    phone.goto(f"{base}/p/{code}/")
    link = phone.locator("a.story-link")
    expect(link).to_be_visible()
    link.click()
    phone.wait_for_url(f"{base}/story/{code}/")
    expect(phone.locator("h1")).to_have_text("The story of Story <night>")

    # Who brought and who took home each gift: the page says what the replay says.
    rows = phone.locator("#story-gifts tbody tr")
    expect(rows).to_have_count(len(story["gifts"]))
    assert len(story["gifts"]) == 12 + 2
    for g in story["gifts"]:
        row = phone.locator(f'#story-gifts tr[data-gift="{g["gift"]}"]')
        expect(row.locator("td.home-with")).to_contain_text(g["home_with"])
        expect(row.locator("td.moves")).to_have_text(str(g["moves"]))
    for g in story["most_stolen"]:
        expect(phone.locator("#most-stolen")).to_contain_text(f"moved {g['moves']} time")
    expect(phone.locator("#closest-escapes li")).to_have_count(len(story["closest_escapes"]))

    # The picture: one arrow per gift that moved within a table, two relay arrows.
    svg = phone.locator("#story-picture svg")
    expect(svg).to_be_visible()
    expect(svg.locator("path.relay-flow")).to_have_count(2)
    moved_in_table = sum(1 for f in story["flows"] for g in f["gifts"] if g["first"] != g["last"])
    expect(svg.locator("path.gift-flow")).to_have_count(moved_in_table)
    expect(svg.locator("text.seat")).to_have_count(12)

    # A gift's journey opens with every step.
    busiest = max(story["gifts"], key=lambda g: len(g["journey"]))
    phone.locator("details.fold", has_text="Every gift's journey").locator("summary").first.click()  # folded on a phone
    journey = phone.locator(f'details.journey[data-gift="{busiest["gift"]}"]')
    journey.locator("summary").click()
    expect(journey.locator("li.step")).to_have_count(len(busiest["journey"]) + 1)
    assert not overflows(phone), "the story scrolls sideways on a phone"
    phone.screenshot(path=str(SHOTS / "story-phone.png"), full_page=True)

    # --- the big screen links to the story in its big-screen form ----------------------------
    screen = new_page(browser, 1920, 1080, errors, "screen")
    screen.goto(f"{base}/screen/{code}/")
    big = screen.locator("a.story-link")
    expect(big).to_be_visible()
    big.click()
    screen.wait_for_url(f"{base}/story/{code}/?screen=1")
    expect(screen.locator("body.story-screen")).to_have_count(1)
    # A slideshow (tests/browser/test_screens_browser.py measures each slide); the tables'
    # rounds are on it, the relay's line included.
    assert int(screen.locator("#story").get_attribute("data-slides")) >= 5
    expect(screen.locator(".story-slide li.entry-relay").first).to_be_attached()
    screen.screenshot(path=str(SHOTS / "story-screen.png"))

    # --- the host's Printables panel downloads a PDF with the host secret ------------------------
    host = new_page(browser, 1280, 900, errors, "host", accept_downloads=True)
    host.add_init_script(f"localStorage.setItem('heist.host.{code}', {json.dumps(host_token)})")
    host.goto(f"{base}/host/{code}/")
    expect(host.locator("#printables")).to_be_visible()
    host.locator("#printables > summary").click()  # a drop-down in the dashboard's header line
    with host.expect_download() as dl:
        host.locator('#printables button[data-kind="scorecard"]').click()
    path = dl.value.path()
    with open(path, "rb") as f:
        assert f.read(5) == b"%PDF-"
    assert dl.value.suggested_filename == f"yankee-heist-{code}-scorecard.pdf"
    expect(host.locator("#printables-status")).to_contain_text("Downloaded")

    assert errors == []
