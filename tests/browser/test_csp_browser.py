"""The screens run under the strict Content-Security-Policy with no violation, and the
policy is enforced: an injected inline script does not run (and is reported, so the
violation listener every browser test uses does catch one)."""

from __future__ import annotations

import pytest

from tests import shorthand

from .helpers import in_thread, new_page

pytestmark = [pytest.mark.browser, pytest.mark.stack, pytest.mark.django_db(transaction=True)]


def test_every_screen_runs_under_the_policy_and_inline_script_is_blocked(asgi_server, browser):
    def make():
        party, host_token = shorthand.party_create(name="CSP party")
        _, seat_token, _ = shorthand.guest_join(code=party.code, name="Ann", description="a mug")
        shorthand.guest_join(code=party.code, name="Ben", description="a hat")
        return party.code, host_token, seat_token

    code, host_token, seat_token = in_thread(make)
    errors: list[str] = []
    page = new_page(browser, 800, 900, errors, "csp")
    page.goto(f"{asgi_server}/")
    page.evaluate(
        "([c, h, s]) => { localStorage.setItem(`heist.host.${c}`, h);"
        " localStorage.setItem(`heist.seat.${c}`, JSON.stringify({token: s})); }",
        [code, host_token, seat_token],
    )
    for path, ready in (
        (f"/host/{code}/", "#host:not([hidden])"),
        (f"/j/{code}/", "main"),
        (f"/p/{code}/", "#phone *"),
        (f"/screen/{code}/", "main"),
        ("/", "main"),
    ):
        response = page.goto(f"{asgi_server}{path}")
        assert "script-src 'self'" in response.headers["content-security-policy"], path
        page.wait_for_selector(ready, state="attached")
        page.wait_for_timeout(300)  # let the socket open and the first snapshot draw
    assert not errors, errors
    # The policy is enforced: an inline script added to the page does not run.
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.injected = 1';"
        " document.body.appendChild(s); }"
    )
    page.wait_for_timeout(200)
    assert page.evaluate("() => window.injected") is None
    assert errors and "CSP violation" in errors[-1], errors
