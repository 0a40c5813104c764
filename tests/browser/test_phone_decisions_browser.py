"""Every Yankee decision on a phone fits (issue 40.3): at 390x844 each step of a swipe, a
vault exchange and a card's play shows its choices and its confirm on one screen; at
320x568 every choice can be brought on screen and tapped there, never under the confirm.

A full table (ten guests, three vault gifts with long descriptions) with the active
guest's hand at its largest (the limit and the card just drawn), written into the stored
game before their phone loads; then the phone walks each decision to its confirm.
Screenshots: artifacts/screenshots/decision-<size>-<step>.png."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from tests import shorthand
from tests.browser.helpers import SHOTS, DbThread, new_page

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

NAMES = ["Maximiliana F.", "Tomás", "Bea", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"]
SIZES = [(390, 844), (320, 568)]

# The prompt's choices a finger may need now, and its confirm.
CHOICES = (
    "#prompt label.mode, #prompt #hand button.card:not([disabled]), #prompt .targets button,"
    " #prompt .hand.mini button.card, #prompt .chosen-targets button, #prompt .directions label.mode"
)


def _table() -> dict:
    """Ten guests at one table with a full vault; the active seat holds six cards."""
    from events.models import Guest, Party
    from events.party import services
    from games.yankee import HAND_LIMIT, Game
    from tables.models import Table

    party, _ = shorthand.party_create(name="Decisions", vault_size=3)
    Party.objects.filter(pk=party.pk).update(seed=11)
    seats = {}
    for name in NAMES:
        guest, token, _ = shorthand.guest_join(code=party.code, name=name, description=f"{name}'s scented candle set")
        seats[guest.pk] = token
    for v in range(3):
        services.vault_gift_add(party_id=party.pk, contributor="Hal", description=f"a large vault treat number {v + 1}")
    services.party_seat(party_id=party.pk)
    table = Table.objects.get(party=party)
    g = Game.from_dict(table.state)
    active = g.active
    hand = list(g.hands[active])
    while len(hand) < HAND_LIMIT + 1:
        hand.append(g.draw_pile.pop())
    g.hands[active] = tuple(hand)
    Table.objects.filter(pk=table.pk).update(state=g.to_dict())
    guest = Guest.objects.get(party=party, table=table, seat=active)
    return {"code": party.code, "guest": guest.pk, "gift_number": guest.gift_number, "token": seats[guest.pk]}


def _phone(browser, base: str, t: dict, width: int, height: int, errors: list[str]) -> Page:
    seat = json.dumps({"token": t["token"], "guest": t["guest"], "gift_number": t["gift_number"]})
    page = new_page(browser, width, height, errors, f"phone {width}x{height}")
    page.context.add_init_script(f"localStorage.setItem('heist.seat.{t['code']}', {json.dumps(seat)});")
    page.goto(f"{base}/p/{t['code']}/")
    expect(page.locator("#prompt.prompt-turn")).to_be_visible()
    expect(page.locator("#conn")).to_be_hidden(timeout=6000)  # "Connected" goes after 2.5 s
    page.wait_for_function(
        "() => new Promise((ok) => { const y = scrollY; requestAnimationFrame(() => requestAnimationFrame(() => ok(scrollY === y))); })"
    )
    return page


def _step_fits(page: Page, label: str) -> list[str]:
    """At this step: with the prompt's top at the screen's top, its heading, every choice
    and the confirm on the screen at once (the 390x844 promise). Returns what is off."""
    page.evaluate("() => document.getElementById('prompt').scrollIntoView({ block: 'start' })")
    off = page.evaluate(
        """(sel) => [...document.querySelectorAll(sel), document.querySelector('#prompt h2'), document.getElementById('confirm')]
            .filter(Boolean).filter((el) => { const r = el.getBoundingClientRect(); return r.top < -1 || r.bottom > innerHeight + 1; })
            .map((el) => (el.id || el.textContent).trim().slice(0, 40))""",
        CHOICES,
    )
    return [f"{label}: {o}" for o in off]


def _covered(page: Page, label: str) -> list[str]:
    """At this step: each choice, scrolled just onto the screen from above or below (as a
    thumb brings it), is the thing a tap there hits; never the pinned confirm."""
    out = []
    for block in ("end", "start"):
        out += page.evaluate(
            """([sel, block]) => [...document.querySelectorAll(sel)].flatMap((el) => {
                el.scrollIntoView({ block });
                const r = el.getBoundingClientRect();
                const x = r.left + r.width / 2, y = r.top + Math.min(r.height / 2, 20);
                const hit = document.elementFromPoint(x, Math.min(y, innerHeight - 2));
                return el.contains(hit) ? [] : [`${el.textContent.trim().slice(0, 30)} under ${hit && (hit.id || hit.className)}`];
            })""",
            [CHOICES, block],
        )
    return [f"{label}: {o}" for o in out]


def _pick_cards(page: Page, n: int) -> None:
    for _ in range(n):
        page.locator("#prompt #hand button.card[aria-pressed='false']:not([disabled])").first.click()


def _walk(page: Page, size: tuple[int, int], problems: list[str]) -> None:
    w, h = size
    fits = w >= 390

    def check(step: str) -> None:
        label = f"{w}x{h} {step}"
        page.evaluate("() => document.getElementById('prompt').scrollIntoView({ block: 'start' })")
        page.screenshot(path=str(SHOTS / f"decision-{w}x{h}-{step}.png"))
        if fits or page.locator("#confirm:not([disabled])").count():
            # at 320x568 too, once the last choice is made: it and the confirm together
            problems.extend(_step_fits(page, label))
        problems.extend(_covered(page, label))

    check("turn")
    # a swipe: two cards, then whom, then the confirm
    page.locator("label.mode", has_text="Swipe").click()
    check("swipe-cards")
    _pick_cards(page, 2)
    check("swipe-target")
    page.locator("#prompt .targets button").last.click()
    expect(page.locator("#confirm")).to_be_enabled()
    check("swipe-confirm")
    # a vault exchange: two cards, then which vault gift
    page.evaluate("() => scrollTo(0, 0)")
    if page.locator("label.mode", has_text="Vault exchange").count() == 0:
        page.locator("#prompt .chosen-targets button").first.click()  # back to the modes
    page.locator("label.mode", has_text="Vault exchange").click()
    check("vault-cards")
    _pick_cards(page, 2)
    check("vault-gift")
    page.locator("#prompt .targets button").last.click()
    expect(page.locator("#confirm")).to_be_enabled()
    check("vault-confirm")
    # a card's play, each card that asks for more than whom: whom, then what it needs
    page.locator("#prompt .chosen-targets button").first.click()
    page.locator("label.mode", has_text="Play a card").click()
    for name in ("YANKEE HEIST", "THREE-GIFT GRIFT"):
        card = page.locator(
            f"#prompt #hand button.card[data-card-name='{name.replace('-', '_').replace(' ', '_')}']:not([disabled])"
        )
        if not card.count():
            problems.append(f"{w}x{h}: {name} is not playable in this deal")
            continue
        card.first.click()
        step = name.split()[-1].lower()
        check(f"{step}-whom")
        for i in range(4):
            if page.locator("#confirm").is_enabled():
                break
            page.locator(
                "#prompt .targets button[aria-pressed='false'], #prompt .hand.mini button.card, #prompt .directions label.mode"
            ).first.click()
            check(f"{step}-{i}")
        expect(page.locator("#confirm")).to_be_enabled()
        page.locator("#prompt #hand button.card[aria-pressed='true']").click()  # back to the hand


def test_every_decision_fits_a_phone_and_its_confirm_covers_no_choice(asgi_server, browser):
    errors: list[str] = []
    db = DbThread()
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    try:
        t = db(_table)
        for size in SIZES:
            page = _phone(browser, asgi_server, t, *size, errors)
            _walk(page, size, problems)
            page.close()
        assert not problems, "\n".join(problems)
        assert not errors, errors
    finally:
        db.close()
