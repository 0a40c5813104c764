"""Every game's phone says whose it is and where it sits, the same way (issue 40): in the
lobby the party's name and "You're in, Ana!", once seated the table's letter and the
seat, large, with the guest's name, on the first screen at 390x844 and at 320x568, one
heading on the page (the shell's, static/heist/seathead.js: no game draws a second), and
the decision the table waits for still on the first screen at 390x844 under it.

In Chromium on the real server, one party of each of the four games. Screenshots:
artifacts/screenshots/phone-head-<game>-<lobby|seated|turn>-<width>.png."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from games.registry import GAMES
from tests import shorthand
from tests.browser.helpers import SHOTS, DbThread, new_page, send_outcome

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SIZES = [(390, 844), (320, 568)]
OTHERS = ["Bo", "Cy", "Dee"]

# What the guest the table waits for taps first, on each game's phone: it must show on
# the first screen at 390x844 under the head (Yankee's phone scrolls its prompt there).
DECISION = {
    "yankee": "#prompt h2, #prompt label.mode",
    "royal": ".r-decide",
    "word": "#w-word, [data-key='w-word']",
    "blinks": "#bk-hit, #bk-miss, #bk-touched",
}


def _party(game: str) -> dict:
    """Ana and three others in the lobby of a party of `game`; their seat secrets."""
    gifts = GAMES[game].features.gifts
    party, _ = shorthand.party_create(name=f"Ana's {GAMES[game].title} night", game=game)
    tokens = {}
    for name in ["Ana", *OTHERS]:
        guest, token, _ = shorthand.guest_join(code=party.code, name=name, description=f"{name}'s mug" if gifts else "")
        tokens[name] = {"token": token, "guest": guest.pk, "gift_number": guest.gift_number}
    return {"code": party.code, "party": party.pk, "name": party.name, "tokens": tokens}


def _seat(party_id: int) -> dict:
    """Seat the party, as the host's button does (its broadcasts sent); each guest's
    table and seat, and the guest the table waits on first."""
    from events.models import Guest
    from events.party import services
    from games.registry import game_named
    from tables.models import Table

    send_outcome(services.party_seat(party_id=party_id))
    guests = list(Guest.objects.filter(party_id=party_id).select_related("table"))
    where = {g.name: (g.table.letter, g.seat) for g in guests}
    captains = {g.name for g in guests if g.is_captain}
    table = Table.objects.get(party_id=party_id)
    definition = game_named(table.party.game)
    state = definition.from_dict(table.state)
    first = next(iter(definition.waiting_for(state)))
    waiting = next(name for name, (_, seat) in where.items() if seat == first)
    return {"where": where, "waiting": waiting, "captains": captains}


def _phone(browser, base: str, code: str, seat: dict, size: tuple[int, int], errors: list[str], label: str) -> Page:
    page = new_page(browser, size[0], size[1], errors, label)
    blob = json.dumps(seat)
    page.context.add_init_script(f"localStorage.setItem({json.dumps('heist.seat.' + code)}, {json.dumps(blob)});")
    page.goto(f"{base}/p/{code}/")
    return page


def _on_first_screen(page: Page, selector: str) -> list[str]:
    """Each element matching `selector` that is not wholly on the screen, unscrolled
    (Yankee's phone scrolls its prompt into view: where the page is now)."""
    return page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].flatMap((el) => {
            const r = el.getBoundingClientRect();
            return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth
              ? [] : [`${(el.id || el.textContent).trim().slice(0, 40)}: ${Math.round(r.top)}..${Math.round(r.bottom)}`];
        })""",
        selector,
    )


def _guest_line(name: str, seated: dict) -> str:
    return f"{name} · table captain" if name in seated["captains"] else name


def _one_heading(page: Page) -> None:
    """One h1 on the phone, the head's: no game draws a second."""
    expect(page.locator("#app h1:visible")).to_have_count(1)


@pytest.mark.parametrize("game", sorted(DECISION))
def test_every_games_phone_names_the_guest_the_party_the_table_and_the_seat(asgi_server, browser, game):
    errors: list[str] = []
    db = DbThread()
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        p = db(_party, game)
        phones = {
            size: _phone(browser, asgi_server, p["code"], p["tokens"]["Ana"], size, errors, f"Ana {size[0]}")
            for size in SIZES
        }

        # --- the lobby: the party's name and the guest's own, on the first screen ----------
        for size, page in phones.items():
            greeting = page.get_by_role("heading", level=1, name="You're in, Ana!")
            party = page.get_by_text(p["name"], exact=True).filter(visible=True)
            for line in (greeting, party):
                expect(line).to_be_visible()
                box = line.bounding_box()
                assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size[1], box
            _one_heading(page)
            page.screenshot(path=str(SHOTS / f"phone-head-{game}-lobby-{size[0]}.png"))

        # --- seated: the table's letter and the seat, large, with the guest's name ----------
        seated = db(_seat, p["party"])
        letter, seat = seated["where"]["Ana"]
        for size, page in phones.items():
            h1 = page.locator(".seat-head h1")
            # A game's first table may read its data first (a dictionary: seconds on a busy machine).
            expect(h1).to_have_attribute("aria-label", f"Table {letter}, seat {seat + 1}", timeout=60_000)
            expect(h1).to_have_text(f"Table {letter} · seat {seat + 1}")
            expect(h1.locator(".table-letter")).to_have_text(letter)
            expect(h1.locator(".seat-number")).to_have_text(str(seat + 1))
            expect(page.locator(".seat-head")).to_contain_text(_guest_line("Ana", seated))
            expect(page.locator("#phone [data-version]").first).to_be_visible()
            _one_heading(page)
            expect(page.locator("#conn")).to_be_hidden(timeout=6000)  # "Connected" shows 2.5 s after connecting
            page.evaluate("() => scrollTo(0, 0)")
            box = page.locator(".seat-head").bounding_box()
            # On the first screen, and a small part of it: the game's screen starts under it.
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size[1], box
            assert box["height"] <= size[1] * 0.15, box
            letter_box = h1.locator(".table-letter").bounding_box()
            assert letter_box is not None and letter_box["height"] >= 28, letter_box  # the letter is the largest text
            page.screenshot(path=str(SHOTS / f"phone-head-{game}-seated-{size[0]}.png"))

        # --- the guest the table waits for: the decision on the first screen, under the head -
        name = seated["waiting"]
        turn = (
            phones[SIZES[0]]
            if name == "Ana"
            else _phone(browser, asgi_server, p["code"], p["tokens"][name], SIZES[0], errors, f"{name} 390")
        )
        expect(turn.locator(DECISION[game]).first).to_be_visible(timeout=60_000)
        expect(turn.locator("#conn")).to_be_hidden(timeout=6000)  # "Connected" shows 2.5 s after connecting
        expect(turn.locator(".seat-head")).to_contain_text(_guest_line(name, seated))
        if game != "yankee":  # the others do not scroll: the decision is on the screen as it loads
            turn.evaluate("() => scrollTo(0, 0)")
        assert not _on_first_screen(turn, DECISION[game]), _on_first_screen(turn, DECISION[game])
        turn.screenshot(path=str(SHOTS / f"phone-head-{game}-turn-390.png"))
        assert not errors, errors
    finally:
        db.close()
