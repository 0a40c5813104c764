"""Issue 40: the host's offline alert opens a table's Details; for a game whose dashboard
draws no details of its own (Royal Heist) the dialog was empty with no Close (Escape
only). It now lists the table's seats, who is offline among them, and closes."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests import shorthand
from tests.browser.helpers import SHOTS, DbThread, new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_offline_alerts_details_name_the_seats_and_close(asgi_server, browser):
    from events.party import services

    errors: list[str] = []
    SHOTS.mkdir(parents=True, exist_ok=True)

    def create():
        party, token = shorthand.party_create(name="Royal night", game="royal", games=1)
        for i in range(12):
            shorthand.guest_join(code=party.code, name=f"G{i}", description="")
        services.party_seat(party_id=party.pk)
        return party.code, token

    db = DbThread()
    try:
        code, token = db(create)
    finally:
        db.close()
    host = new_page(browser, 1366, 768, errors, "host")
    host.add_init_script(f"localStorage.setItem('heist.host.{code}', {json.dumps(token)})")
    host.goto(f"{asgi_server}/host/{code}/")
    alert = host.locator('li.alert[data-kind="offline"][data-letter="B"]')  # no phone is connected
    expect(alert).to_be_visible(timeout=15_000)
    alert.locator("button", has_text="Details").click()
    dialog = host.locator("dialog#details")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text("Table B")
    expect(dialog.locator("li.guest.offline")).to_have_count(6)
    expect(dialog.locator("li.guest").first).to_contain_text("offline")
    host.screenshot(path=str(SHOTS / "host-details-offline-1366x768.png"))
    dialog.locator("button", has_text="Close").click()
    expect(dialog).to_be_hidden()
    assert not errors, errors
