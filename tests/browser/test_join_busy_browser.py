"""The join page when the party host is busy (config/admission.py answered 503 with
Retry-After): it says so, waits, and sends the join again until it is seated."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests import shorthand
from tests.browser.helpers import DbThread, new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_join_page_waits_and_retries_when_the_host_is_busy(asgi_server, browser):
    from events.models import Guest

    db = DbThread()  # the ORM off the thread that runs Playwright's loop
    party, _ = db(shorthand.party_create, name="Rush hour")
    errors: list[str] = []
    page = new_page(browser, 360, 740, errors, "phone")
    posts = []

    def busy_twice(route):
        posts.append(route.request.url)
        if len(posts) <= 2:
            route.fulfill(
                status=503,
                headers={"Retry-After": "1", "Content-Type": "application/json"},
                body='{"error": "busy", "message": "The party host is busy; try again in a moment"}',
            )
        else:
            route.continue_()

    page.route(re.compile(r".*/api/parties/[A-Z0-9]+/guests$"), busy_twice)
    page.goto(f"{asgi_server}/j/{party.code}/")
    page.get_by_label("Your name", exact=True).fill("Rita")
    page.get_by_label("Secretly describe the gift you brought").fill("a kite")
    page.get_by_role("button", name="Join the party").click()
    expect(page.locator("#guest-error")).to_contain_text("one moment")
    page.wait_for_url(f"**/p/{party.code}/", timeout=15_000)
    assert len(posts) == 3
    try:
        assert db(lambda: list(Guest.objects.filter(party=party).values_list("name", flat=True))) == ["Rita"]
    finally:
        db.close()
    assert not errors, errors


def test_a_spanish_phone_told_the_host_stays_busy_reads_it_in_spanish(asgi_server, browser):
    """The front door's "busy" is written before any language is known (English JSON);
    the page says it in its own language, by its code."""
    db = DbThread()
    try:
        party, _ = db(shorthand.party_create, name="Hora punta")
    finally:
        db.close()
    errors: list[str] = []
    page = new_page(browser, 360, 740, errors, "phone", locale="es-ES")
    page.route(
        re.compile(r".*/api/parties/[A-Z0-9]+/guests$"),
        lambda route: route.fulfill(
            status=503,
            headers={"Retry-After": "0", "Content-Type": "application/json"},
            body='{"error": "busy", "message": "The party host is busy; try again in a moment"}',
        ),
    )
    page.goto(f"{asgi_server}/j/{party.code}/")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    page.locator("#guest-name").fill("Rita")
    page.locator("#guest-gift").fill("una cometa")
    page.locator("form:has(#guest-name) button[type=submit]").click()
    expect(page.locator("#guest-error")).to_contain_text("El servidor de la fiesta está ocupado", timeout=20_000)
    assert "busy" not in page.locator("#guest-error").inner_text()
    assert not errors, errors
