"""Issue 28's guests in the 100-guest browser test (tests/browser/test_big_party_browser.py):
a latecomer registers while rounds 3-4 play, the host's panel lists them, and at the
end the result, the CSV and their phone say they take their own gift home (28.4); a
substitute takes a leaver's seat with the tablet's code, and at the end the CSV and the
story still say who brought the gift and name both players (28.6)."""

from __future__ import annotations

import csv
import io
import json
import urllib.request

from playwright.sync_api import Page, expect

from tests.browser.helpers import new_page

LATE_NAME = "Late Lou"


def late_arrival_registers(browser, base: str, code: str, errors: list[str]) -> Page:
    """A latecomer opens the join link after the deal and registers with their gift."""
    page = new_page(browser, 390, 844, errors, "late arrival")
    page.goto(f"{base}/j/{code}/")
    expect(page.locator(".late-notice")).to_contain_text("already playing")
    page.get_by_label("Your name", exact=True).fill(LATE_NAME)
    page.get_by_label("Secretly describe the gift you brought").fill("a late lamp")
    page.get_by_role("button", name="Register as a late arrival").click()
    page.wait_for_url(f"**/p/{code}/")
    expect(page.locator(".late-arrival .gift-number")).to_have_text("101")
    return page


def late_arrival_at_the_end(host: Page, late: Page, base: str, code: str, host_token: str) -> None:
    """The party is over: the late arrival keeps their own gift, everywhere it is said."""
    expect(host.locator("#late-panel")).to_contain_text(f"{LATE_NAME} takes their own gift home")
    expect(host.locator("#result .late-table tbody tr")).to_have_count(1)
    expect(host.locator("#result .late-table")).to_contain_text("a late lamp")
    expect(late.locator(".late-arrival")).to_contain_text("take your own gift home")
    request = urllib.request.Request(
        f"{base}/api/parties/{code}/result.csv", headers={"Authorization": f"Bearer {host_token}"}
    )
    with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(request, timeout=10) as res:
        rows = list(csv.DictReader(io.StringIO(res.read().decode("utf-8-sig"))))
    keeps = [r for r in rows if r["kind"] == "keeps"]
    late = [r for r in rows if r["kind"] == "late arrival keeps own gift"]
    assert len(keeps) == 100 and len({r["name"] for r in keeps}) == 100
    assert [(r["name"], r["gift"], r["description"]) for r in late] == [(LATE_NAME, "101", "a late lamp")]


SUBSTITUTE = "Sub Sid"


def _fetch(url: str, *, data: dict | None = None, token: str | None = None) -> bytes:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    body = json.dumps(data).encode() if data is not None else None
    request = urllib.request.Request(url, data=body, headers=headers)
    with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(request, timeout=10) as res:
        return bytes(res.read())


def substitute_takes_the_seat(base: str, code: str, claim: str, leaver, bots: dict, make_bot) -> None:
    """Issue 28.6: the substitute types the tablet's one-time code on the join page (its
    POST), and plays the leaver's seat from then on with the secret it got back."""
    seat = json.loads(_fetch(f"{base}/api/parties/{code}/claim", data={"name": SUBSTITUTE, "claim": claim}))
    assert seat["guest"] == leaver.pk and seat["name"] == SUBSTITUTE, seat
    bots[leaver.pk].close()  # the leaver's phone: its secret opens nothing any more
    bots[leaver.pk] = make_bot(leaver.pk)
    bots[leaver.pk].hello(seat["token"])


def hand_over_kept_at_the_end(base: str, code: str, host_token: str, leaver) -> None:
    """The CSV and the story keep who brought the leaver's gift and name both players."""
    rows = list(
        csv.DictReader(
            io.StringIO(_fetch(f"{base}/api/parties/{code}/result.csv", token=host_token).decode("utf-8-sig"))
        )
    )
    seat = [r for r in rows if r["kind"] == "keeps" and (r["table"], r["seat"]) == ("B", "4")]
    assert [(r["name"], r["played by"]) for r in seat] == [(leaver.name, f"{leaver.name}, then {SUBSTITUTE}")]
    gift = f"{leaver.gift_number}"
    assert [r["source"] for r in rows if r["gift"] == gift] == [f"brought by {leaver.name}"]
    assert SUBSTITUTE not in {r["name"] for r in rows if r["kind"] == "keeps"}
    story = json.loads(_fetch(f"{base}/story/{code}/story.json"))
    assert [(s["table"], s["leaver"], s["substitute"]) for s in story["substitutes"]] == [
        ("B", leaver.name, SUBSTITUTE)
    ]
    told = {g["gift"]: g for g in story["gifts"]}
    assert told[gift]["brought_by"] == leaver.name
