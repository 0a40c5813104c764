"""Royal Heist's screens (games/royal/static/royal/*.js) in Chromium, fed real views.

The engine (games.royal) plays a seeded four-seat party game with the gate on; its
seat and public views at several moments (the start, a decision, the reveal, a danger's
repeat, the gate, the end) are drawn by the modules, served as files over HTTP from
this worktree's static/ and the games' static/ folders by a tiny server on 127.0.0.1. Checked: the decide buttons are
there and enabled only when the seat may decide, and the choice shows locked; another
seat's phone is the same whatever a seat chose until the reveal; the reveal flips every
choice at once, and not under reduced motion; the gate's button calls its callback;
the leaderboard ranks ties together; no sideways scroll at 320 and 1280 px; axe-core
finds nothing serious. Screenshots go to artifacts/screenshots/royal-*.png.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from games.royal import (
    Decide,
    Game,
    OpenGate,
    apply,
    gate_after,
    new_game,
    public_view,
    rules_for_screens,
    seat_view,
)

from .helpers import SHOTS, new_page, serious_a11y

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
# Where the pages' static files come from, as Django's finders look: the host's static/,
# then each game package's own (/static/royal/... is games/royal/static/royal/...).
STATIC = [ROOT / "static", *sorted(ROOT.glob("games/*/static"))]
PLAYERS = 4
SEED = 3  # heist 1 ends on a danger's repeat when everybody presses on (asserted below)
NAMES = ["Ana", "Bo", "Cy", "Di"]
META = {"id": 7, "letter": "B", "roster": [{"guest": i + 1, "name": n} for i, n in enumerate(NAMES)], "step_clock": 20}


class _Static(SimpleHTTPRequestHandler):
    """static/ as files; a page set with set_content (about:blank) imports the modules
    cross-origin, so they carry CORS's allow header."""

    def translate_path(self, path: str) -> str:
        for root in STATIC[1:]:
            self.directory = str(root)
            found = super().translate_path(path)
            if Path(found).exists():
                return found
        self.directory = str(STATIC[0])
        return super().translate_path(path)

    def end_headers(self) -> None:
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: a failure shows the page's own errors


@pytest.fixture(scope="module")
def static_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Static, directory=str(STATIC[0])))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Royal Heist screens</title>
<link rel="stylesheet" href="{base}/heist/heist.css"><link rel="stylesheet" href="{base}/royal/royal.css">
<script id="heist-rules" type="application/json">{rules}</script>
</head><body><main id="root" style="padding: .75rem"></main>
<script type="module">
import * as ui from "{base}/heist/ui.js";
import {{ renderPhone }} from "{base}/royal/phone.js";
import {{ renderTable }} from "{base}/royal/table.js";
import {{ renderLeaderboard, ranked }} from "{base}/royal/leaderboard.js";
window.calls = [];
window.draw = (kind, view, meta, opts) => {{
  const root = document.getElementById("root");
  let el;
  if (kind === "phone") el = renderPhone(view, meta, {{ onDecide: (pressOn) => window.calls.push(["decide", pressOn]), ...(opts || {{}}) }});
  else if (kind === "tablet") el = renderTable(view, meta, {{ onOpenGate: () => window.calls.push(["open_gate"]) }});
  else if (kind === "tile") el = renderTable(view, meta, {{ tile: true }});
  else el = renderLeaderboard(view);
  ui.render(root, el);
  ui.tickClocks();
}};
window.ranked = ranked;
ui.startClocks(() => Date.now() / 1000);
window.ready = true;
</script></body></html>"""


def _page(browser, static_url: str, width: int, height: int, errors: list[str], rules: Any = None):
    page = new_page(browser, width, height, errors, f"royal {width}x{height}")
    page.set_content(PAGE.format(base=static_url, rules=json.dumps(rules or rules_for_screens())))
    page.wait_for_function("() => window.ready === true")
    return page


def draw(page, kind: str, view: Any, meta: dict[str, Any] | None = None, opts: dict[str, Any] | None = None) -> None:
    page.evaluate("([k, v, m, o]) => window.draw(k, v, m, o)", [kind, json.loads(json.dumps(view)), meta or META, opts])


def settle(page) -> None:
    """Wait for the reveal's flip to end (a screenshot, a contrast check at rest)."""
    page.evaluate("() => Promise.all(document.getAnimations().map(a => a.finished))")


def root_html(page) -> str:
    return page.inner_html("#root")


def root_text(page) -> str:
    return page.inner_text("#root")


def no_sideways_scroll(page) -> bool:
    return page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")


def play(g: Game, choices: dict[int, bool]) -> Game:
    for seat, press_on in sorted(choices.items()):
        g, _ = apply(g, Decide(seat=seat, press_on=press_on))
    return g


def everybody_out(g: Game) -> Game:
    return play(g, dict.fromkeys(g.inside, False))


class Moments:
    """The game at the moments the screens are drawn, all from one seed."""

    def __init__(self) -> None:
        self.start, _ = new_game(SEED, PLAYERS, gate=True)
        # Seat 0 decides; the same step with the other choice, for the secrecy check.
        self.on = play(self.start, {0: True})
        self.out = play(self.start, {0: False})
        # The reveal: seat 0 gets out, the rest press on.
        self.revealed = play(self.start, {0: False, 1: True, 2: True, 3: True})
        g = self.revealed
        while g.heist == 1:  # everybody inside presses on until the heist ends
            g = play(g, dict.fromkeys(g.inside, True))
        self.caught = g
        g = everybody_out(g)
        self.gate = g
        g, _ = apply(g, OpenGate())
        while g.phase.value != "over":
            g = everybody_out(g)
        self.over = g


class Match:
    """A party's table of two games in a row: the first room of game 2, and the end."""

    def __init__(self) -> None:
        g, _ = new_game(SEED, PLAYERS, games=2)
        # Game 1: seat 0 gets out after every first room, the others press on once and
        # then get out, so the banks differ.
        while g.game == 1:
            heist = g.heist
            g = play(g, {s: s != 0 for s in g.inside})
            if g.game == 1 and g.heist == heist:
                g = everybody_out(g)
        self.game_2 = g
        while g.phase.value != "over":
            g = everybody_out(g)
        self.over = g


@pytest.fixture(scope="module")
def moments() -> Moments:
    m = Moments()
    assert m.caught.last_heist and m.caught.last_heist["ended"] == "caught"
    assert m.gate.phase.value == "gate" and m.gate.heist == gate_after(m.gate.heists)
    assert m.revealed.phase.value == "decide" and m.revealed.revealed == {0: False, 1: True, 2: True, 3: True}
    return m


def decide_buttons(page) -> list[tuple[str, bool]]:
    got = page.eval_on_selector_all(
        "button.r-decide", "els => els.map(b => [b.querySelector('.r-verb').textContent, b.disabled])"
    )
    return [(text, disabled) for text, disabled in got]


def test_phone_buttons_enabled_only_when_the_seat_may_decide(browser, static_url, moments):
    errors: list[str] = []
    page = _page(browser, static_url, 360, 740, errors)
    due = {**META, "step_due_at": 10**10}
    draw(page, "phone", seat_view(moments.start, 0), due)
    assert decide_buttons(page) == [("Press on", False), ("Get out", False)]
    assert "Heist 1 of 5" in root_text(page)
    assert page.locator(".countdown").inner_text() == "Time to choose: 20 s"  # due far ahead: the whole clock
    sizes = page.eval_on_selector_all("button.r-decide", "els => els.map(b => b.getBoundingClientRect())")
    # thumb-sized, side by side: half the width each, one row (issue 40.3: Get out on a 320x568 screen)
    assert all(s["height"] >= 56 and s["width"] >= (360 - 2 * 12) / 2 - 8 for s in sizes), sizes
    assert len({round(s["y"]) for s in sizes}) == 1, sizes
    page.click("button.r-decide.press")
    assert page.evaluate("window.calls") == [["decide", True]]
    assert [d for _, d in decide_buttons(page)] == [True, True]  # no second tap while it travels

    # The server's answer: the seat decided; the choice shows locked, the buttons off.
    draw(page, "phone", seat_view(moments.on, 0), due)
    assert decide_buttons(page) == [("Press on", True), ("Get out", True)]
    assert "You chose to press on — hidden until everyone inside has chosen" in root_text(page)
    assert page.get_attribute("button.r-decide.press", "aria-pressed") == "true"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "royal-phone-locked.png"), full_page=True)

    draw(page, "phone", seat_view(moments.on, 0), {**META, "step_due_at": 1})  # long past
    assert page.locator(".countdown").inner_text().startswith("Time is up")
    # Out of this heist: no buttons, what was banked.
    view = seat_view(moments.revealed, 0)
    draw(page, "phone", view, META)
    assert decide_buttons(page) == []
    assert f"You got out with {view['seats'][0]['bank']} jewels banked" in root_text(page)
    # At the gate and at the end nobody decides.
    draw(page, "phone", seat_view(moments.gate, 1), META)
    assert decide_buttons(page) == []
    assert "waits at the gate" in root_text(page)
    draw(page, "phone", seat_view(moments.over, 1), META)
    assert decide_buttons(page) == []
    assert "You banked" in root_text(page)
    assert not errors, errors


def test_a_choice_stays_secret_on_every_other_screen_until_the_reveal(browser, static_url, moments):
    errors: list[str] = []
    page = _page(browser, static_url, 360, 740, errors)
    for other in (1, 2, 3):
        draw(page, "phone", seat_view(moments.on, other), META)
        pressed = root_html(page)
        text = root_text(page).lower()
        assert "decided" in page.inner_text("tr[data-seat='0']")
        assert "pressed on" not in text and "chose to press on" not in text
        draw(page, "phone", seat_view(moments.out, other), META)
        assert root_html(page) == pressed, f"seat {other}'s phone tells seat 0's choice apart"
    for kind in ("tablet", "tile"):
        draw(page, kind, public_view(moments.on))
        pressed = root_html(page)
        assert "pressed on" not in root_text(page).lower()
        draw(page, kind, public_view(moments.out))
        assert root_html(page) == pressed
    # A second step: the last reveal shows, the new choice does not.
    later_on = play(moments.revealed, {1: True})
    later_out = play(moments.revealed, {1: False})
    draw(page, "phone", seat_view(moments.revealed, 2), META)  # the reveal arrives (and flips)
    draw(page, "phone", seat_view(later_on, 2), META)
    pressed = root_html(page)
    draw(page, "phone", seat_view(later_out, 2), META)
    assert root_html(page) == pressed
    assert not errors, errors


def test_the_reveal_flips_every_choice_at_once(browser, static_url, moments):
    errors: list[str] = []
    page = _page(browser, static_url, 1280, 720, errors)
    view = public_view(moments.revealed)
    draw(page, "tile", public_view(moments.on))
    assert page.locator(".r-choice").count() == 0
    draw(page, "tile", view)
    choices = page.eval_on_selector_all(
        ".r-choice",
        "els => els.map(e => [e.closest('tr').dataset.seat, e.dataset.choice, e.classList.contains('flip'), getComputedStyle(e).animationName])",
    )
    assert sorted((s, c) for s, c, _, _ in choices) == [
        ("0", "get_out"),
        ("1", "press_on"),
        ("2", "press_on"),
        ("3", "press_on"),
    ]
    assert all(flip and name == "r-flip" for _, _, flip, name in choices), choices
    # The same reveal drawn again (a decision of the next step): no second flip.
    draw(page, "tile", public_view(play(moments.revealed, {1: True})))
    assert page.locator(".r-choice.flip").count() == 0
    settle(page)
    page.screenshot(path=str(SHOTS / "royal-tile-revealed.png"))
    assert not errors, errors


def test_reduced_motion_turns_the_flip_off(browser, static_url, moments):
    errors: list[str] = []
    page = _page(browser, static_url, 360, 740, errors)
    page.emulate_media(reduced_motion="reduce")
    draw(page, "phone", seat_view(moments.revealed, 1), META)
    styles = page.eval_on_selector_all(".r-choice.flip", "els => els.map(e => getComputedStyle(e).animationName)")
    assert len(styles) == PLAYERS and set(styles) == {"none"}, styles
    assert not errors, errors


def test_danger_gate_and_end(browser, static_url, moments):
    errors: list[str] = []
    page = _page(browser, static_url, 1280, 720, errors)
    draw(page, "phone", seat_view(moments.caught, 2), META)
    card = moments.caught.last_heist["card"]  # type: ignore[index]
    title = rules_for_screens()["cards"][card]["title"]
    assert f"Last heist: the {title} caught everyone still inside" in root_text(page)
    draw(page, "tablet", public_view(moments.gate))
    page.click("button.r-open-gate")
    assert page.evaluate("window.calls") == [["open_gate"]]
    draw(page, "tile", public_view(moments.gate))
    assert page.locator("button.r-open-gate").count() == 0  # a tile has no duty
    draw(page, "tile", public_view(moments.over))
    winners = [NAMES[s] for s in public_view(moments.over)["winners"]]
    assert f"Winner{'s' if len(winners) > 1 else ''}: {', '.join(winners)}" in root_text(page)
    assert not errors, errors


def test_a_finished_table_shows_its_result_not_the_heists_running_lines(browser, static_url, moments):
    """Issue 40: a table's tile and tablet at its end still said "Dangers this heist: none
    yet" and how many cards were left in the deck. At the end they show the table's
    result: who won, with how many jewels, and every seat's jewels, the winners marked;
    with several games in a row, the jewels of all of them."""
    errors: list[str] = []
    page = _page(browser, static_url, 1280, 720, errors)
    for g in (moments.over, Match().over):
        view = public_view(g)
        totals = g.running_totals()
        winners = view["winners"]
        best = totals[winners[0]]
        names = ", ".join(NAMES[s] for s in winners)
        for kind in ("tile", "tablet"):
            draw(page, kind, view)
            label = f"{kind}, {g.games} game(s)"
            for gone in (".r-dangers", ".r-meta", ".r-rooms-box", ".r-clock"):
                assert page.locator(gone).count() == 0, f"{label}: {gone} at the end: {root_text(page)}"
            head = page.inner_text(".r-head")
            assert "Game over" in head and "Heist" not in head, (label, head)
            status = page.inner_text(".r-status.over")
            jewels = "jewel" if best == 1 else "jewels"
            expected = (
                f"Winners: {names}, with {best} {jewels} each."
                if len(winners) > 1
                else f"Winner: {names}, with {best} {jewels}."
            )
            assert status == expected, (label, status)
            rows = page.locator(".r-seats tbody tr")
            assert rows.count() == PLAYERS
            for seat in range(PLAYERS):
                row = rows.nth(seat)
                cells = row.locator("td.num").all_inner_texts()
                assert cells[-1] == str(totals[seat]), (label, seat, cells)  # the jewels, the satchels gone
                assert len(cells) == (2 if g.games > 1 else 1), (label, seat, cells)
                marked = "winner" in row.inner_text()
                assert marked == (seat in winners), (label, seat, row.inner_text())
    assert not errors, errors


def test_the_phone_says_how_the_last_heist_ended_and_the_partys_result(browser, static_url, moments):
    """Issue 40.8: the last heist's choices and who was caught while the next heist
    begins; a danger that ended the heist says so; the jewels in the rooms; at the
    party's end, the champions and the guest's rank. (The table and seat are the phone
    shell's head, every game's: tests/browser/test_phone_head_browser.py.)"""
    errors: list[str] = []
    page = _page(browser, static_url, 390, 844, errors)
    view = seat_view(moments.caught, 2)
    last = moments.caught.last_heist
    assert last is not None and last["caught"]
    reveal = {"game": 1, "heist": 1, "revealed": {str(s): True for s in last["caught"]}}
    draw(page, "phone", view, META, {"me": {"name": "Cy", "captain": False}, "lastReveal": reveal})
    news = page.inner_text(".r-news.caught")
    caught = [("you" if s == 2 else NAMES[s]) for s in last["caught"]]
    assert "Caught: " in news and all(n in news for n in caught), news
    assert "Pressed on: " in news, news
    assert f"{view['jewels_in_rooms']} jewel" in page.inner_text(".r-in-rooms")
    # the game's final room: a danger that ended the heist no longer warns of a second one
    over = seat_view(moments.over, 2)
    rank = "Q"
    over["rooms"] = [
        *over["rooms"],
        {"card": "QS", "kind": "danger", "rank": rank, "bonus": None, "value": 0, "jewels": 0},
    ]
    over["dangers"] = [rank, rank]
    standing = {"rank": 2, "of": 40, "total": 9, "champion": False, "champions": ["Hana A.", "Ivo"]}
    draw(page, "phone", over, META, {"me": {"name": "Cy", "captain": False}, "standing": standing})
    text = root_text(page)
    assert "ended this heist" in text and "ends this heist" not in text, text
    assert "You placed 2 of 40 guests." in text
    assert "Champions of the party: Hana A. and Ivo" in text
    assert not errors, errors


TOPBAR = 62  # px: the party pages' top bar above the phone's screen (templates/base.html), absent here


def test_get_out_stays_on_a_small_phone_whatever_news_shows(browser, static_url, moments):
    """Issue 40.3: at 320x568, with the seat's heading, "Game 1 is over" and "Last heist"
    both showing, both choices are on the first screen, under the page's top bar."""
    errors: list[str] = []
    page = _page(browser, static_url, 320, 568, errors)
    for label, view in (("game 2", seat_view(Match().game_2, 1)), ("caught", seat_view(moments.caught, 1))):
        reveal = {
            "game": view["last_heist"]["game"],
            "heist": view["last_heist"]["heist"],
            "revealed": {"0": True, "1": False},
        }
        draw(page, "phone", view, META, {"me": {"name": "Bo", "captain": True}, "lastReveal": reveal, "onDuty": None})
        assert page.locator(".r-news").count() >= 1, label
        page.screenshot(path=str(SHOTS / f"royal-phone-320-{label.replace(' ', '-')}.png"))
        for choice in ("press_on", "get_out"):
            box = page.locator(f"button.r-decide[data-choice={choice}]").bounding_box()
            assert box is not None and box["y"] + box["height"] <= 568 - TOPBAR, (label, choice, box)
    assert not errors, errors


def test_a_short_name_stays_whole_in_the_seats_on_a_small_phone(browser, static_url, moments):
    """A German phone at 390 px showed "Bet/o" in the seats' table: the name column gave way
    to the wider headers and the "last step" marks. A four-letter name keeps one line at
    320 px, and the page still does not scroll sideways."""
    errors: list[str] = []
    names = ["Dora", "Beto", "Hana", "Wilm"]
    meta = {**META, "roster": [{"guest": i + 1, "name": n} for i, n in enumerate(names)]}
    page = _page(browser, static_url, 320, 568, errors)
    draw(page, "phone", seat_view(moments.revealed, 1), meta)
    lines = page.eval_on_selector_all(
        ".r-seats .r-name",
        """els => els.map(e => { const r = document.createRange(); r.selectNodeContents(e);
                                 return [e.textContent, new Set([...r.getClientRects()].map(q => Math.round(q.top))).size]; })""",
    )
    assert len(lines) == PLAYERS and all(n == 1 for _, n in lines), lines
    assert no_sideways_scroll(page)
    assert not errors, errors


def test_a_table_of_several_games_shows_the_game_and_the_running_totals(browser, static_url):
    m = Match()
    banks = m.game_2.last_heist["game_banks"]  # type: ignore[index]
    assert m.game_2.totals == banks and max(banks) > 0 and m.game_2.banks == [0] * PLAYERS
    best = max(banks)
    errors: list[str] = []
    page = _page(browser, static_url, 360, 740, errors)
    draw(page, "phone", seat_view(m.game_2, 0), META)
    text = root_text(page)
    # the title's parts (each a line's item, the dot between them royal.css's)
    assert page.eval_on_selector_all(".r-head .r-part", "els => els.map(e => e.textContent)") == [
        "Game 2 of 2",
        "Heist 1 of 5",
    ]
    assert len(set(banks)) > 1
    winners = " and ".join(NAMES[s] if s else "you" for s, b in enumerate(banks) if b == best)
    assert f"Game 1 is over: {winners} banked the most ({best} jewel" in text
    assert page.inner_text(".r-totalv") == f"{banks[0]} jewel{'' if banks[0] == 1 else 's'}"
    totals = page.eval_on_selector_all(".r-seats tbody td.r-total", "els => els.map(e => Number(e.textContent))")
    assert totals == banks
    assert no_sideways_scroll(page)
    draw(page, "tablet", public_view(m.game_2), META)
    assert "Game 2 of 2" in root_text(page) and "Game 1 is over" in root_text(page)
    draw(page, "phone", seat_view(m.over, 1), META)
    total = m.over.totals[1] + m.over.banks[1]
    assert f"You banked {total} jewel{'' if total == 1 else 's'} over 2 games." in root_text(page)
    # one game, as printed: no game count, no total column
    draw(page, "tile", public_view(new_game(SEED, PLAYERS)[0]), META)
    assert "Game " not in root_text(page) and page.locator("td.r-total").count() == 0
    assert not errors, errors


def test_when_the_clock_runs_out_the_phone_says_who_gets_the_undecided_out(browser, static_url, moments):
    """The server plays the clock's choice only when the host chose so; otherwise the
    captain or the host may (docs/RULES.md): the phone must not promise the server."""
    errors: list[str] = []
    page = _page(browser, static_url, 360, 740, errors)
    ran_out = {**META, "step_due_at": 1000}  # long past
    draw(page, "phone", seat_view(moments.start, 0), {**ran_out, "step_clock_server": True})
    assert "Time is up: the clock gets the undecided out." in page.inner_text(".r-clock")
    draw(page, "phone", seat_view(moments.start, 0), {**ran_out, "step_clock_server": False})
    assert "Time is up: the captain or the host may now get the undecided out." in page.inner_text(".r-clock")
    assert not errors, errors


def test_card_and_rank_names_come_from_the_engines_rules(browser, static_url, moments):
    """The titles are the engine's (rules_for_screens, embedded in the page): other
    rules in the page, other words on the screen."""
    view = seat_view(moments.on, 1)
    room = view["rooms"][-1]["card"]
    assert room == "AS"  # the seed's first room: a danger, named by card and by rank
    errors: list[str] = []
    page = _page(browser, static_url, 360, 740, errors)
    draw(page, "phone", view, META)
    assert f"{rules_for_screens()['cards'][room]['title']} turned up" in root_text(page)
    assert "A second Ace ends this heist" in root_text(page)
    assert "Ace" in page.inner_text(".r-dangers")
    changed = rules_for_screens()
    changed["cards"][room]["title"] = "the Changed Card"
    changed["danger_ranks"]["A"] = "Changed Rank"
    page = _page(browser, static_url, 360, 740, errors, rules=changed)
    draw(page, "phone", view, META)
    assert "the Changed Card turned up" in root_text(page)
    assert "A second Changed Rank ends this heist" in root_text(page)
    assert "Changed Rank" in page.inner_text(".r-dangers")
    assert not errors, errors


def test_leaderboard_ranks_ties_together(browser, static_url):
    errors: list[str] = []
    page = _page(browser, static_url, 1280, 720, errors)
    rows = [
        {"name": "Di", "table": "A", "bank": 12},
        {"name": "Ana", "table": "B", "bank": 30},
        {"name": "Cy", "table": "A", "bank": 30},
        {"name": "Bo", "table": "B", "bank": 5},
    ]
    draw(page, "leaderboard", rows)
    got = page.eval_on_selector_all(
        ".r-board tbody tr",
        "els => els.map(r => [r.querySelector('.r-rank').textContent, r.querySelector('.r-name').textContent])",
    )
    assert got == [["1", "Ana"], ["1", "Cy"], ["3", "Di"], ["4", "Bo"]]
    assert not errors, errors


@pytest.mark.parametrize(("width", "height"), [(320, 640), (1280, 720)])
def test_no_sideways_scroll_and_nothing_serious_for_axe(browser, static_url, moments, width, height):
    errors: list[str] = []
    page = _page(browser, static_url, width, height, errors)
    found: list[str] = []
    due = {**META, "step_due_at": 10**10}
    cases: list[tuple[str, Any]] = [
        ("phone", seat_view(moments.start, 0)),
        ("phone", seat_view(moments.on, 0)),
        ("phone", seat_view(moments.revealed, 0)),
        ("phone", seat_view(moments.revealed, 1)),
        ("phone", seat_view(moments.caught, 1)),
        ("phone", seat_view(moments.over, 1)),
        ("tablet", public_view(moments.gate)),
        ("tile", public_view(moments.revealed)),
        ("tile", public_view(moments.over)),
        ("leaderboard", [{"name": "Anastasia Featherstonehaugh-Smythe", "table": "A", "bank": 120}]),
        ("phone", seat_view(Match().game_2, 3)),
        ("tablet", public_view(Match().game_2)),
    ]
    for i, (kind, view) in enumerate(cases):
        draw(page, kind, view, due)
        assert no_sideways_scroll(page), f"{kind} #{i} scrolls sideways at {width}x{height}"
        settle(page)
        found += serious_a11y(page, f"{kind} #{i}")
    assert not found, found
    assert not errors, errors


def test_screenshots(browser, static_url, moments):
    """The phone at 360x740 and the tile at 1280x720, for a person to look at."""
    errors: list[str] = []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = _page(browser, static_url, 360, 740, errors)
    draw(page, "phone", seat_view(moments.revealed, 1), {**META, "step_due_at": 10**10})
    settle(page)
    page.screenshot(path=str(SHOTS / "royal-phone.png"), full_page=True)
    page = _page(browser, static_url, 1280, 720, errors)
    g = play(moments.revealed, {1: True})
    draw(page, "tile", public_view(g), {**META, "step_due_at": 10**10})
    settle(page)
    page.screenshot(path=str(SHOTS / "royal-tile.png"))
    assert (SHOTS / "royal-tile.png").stat().st_size > 0
    assert not errors, errors


def test_a_winner_named_by_an_initial_ends_the_sentence_with_one_full_stop(browser, static_url, moments):
    """Issue 40: "Winner: Hana A.." on the tile, the tablet and the phones."""
    errors: list[str] = []
    initials = {**META, "roster": [{"guest": i + 1, "name": f"{n} A."} for i, n in enumerate(NAMES)]}
    page = _page(browser, static_url, 1280, 720, errors)
    winners = public_view(moments.over)["winners"]
    other = (winners[0] + 1) % PLAYERS  # names the first winner (a winner's own phone says "you")
    for kind, view in (
        ("tile", public_view(moments.over)),
        ("tablet", public_view(moments.over)),
        ("phone", seat_view(moments.over, other)),
    ):
        draw(page, kind, view, initials)
        text = root_text(page)
        assert f"{NAMES[winners[0]]} A." in text, (kind, text)
        assert "A.." not in text, (kind, text)
    assert not errors, errors


# Page widths whose tile is narrower than its title: the tile's title must break.
TILE_WIDTHS = (200, 240, 320)
# Each rendered line of an element's text, by the tops of its characters' boxes.
LINES = """(el) => {
  const lines = new Map();
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    for (let i = 0; i < n.length; i++) {
      const r = document.createRange();
      r.setStart(n, i);
      r.setEnd(n, i + 1);
      const box = [...r.getClientRects()][0];
      if (!box || !box.width) continue;
      const top = [...lines.keys()].find((k) => Math.abs(k - box.top) < 4) ?? box.top;
      lines.set(top, (lines.get(top) || "") + n.data[i]);
    }
  }
  return [...lines.values()].map((s) => s.replace(/\\u00a0/g, " ").trim());
}"""


def test_a_tiles_title_breaks_between_its_parts_never_inside_one(browser, static_url):
    """Issue 38: on the big screen a tile of a table playing several games in a row showed
    its title as "Heist 5 of / 5". Each part (the table, the game, the heist) stays on
    one line, at a tile's width on a 1280x720 screen and at the host's narrow tiles; the
    title breaks only at its dots."""
    g, _ = new_game(SEED, PLAYERS, games=2)
    while g.heist < 5:
        g = everybody_out(g)
    assert g.game == 1 and g.heist == 5
    errors: list[str] = []
    for width in TILE_WIDTHS:
        page = _page(browser, static_url, width, 720, errors)
        draw(page, "tile", public_view(g), META)
        lines = page.eval_on_selector(".r-head h2", LINES)
        assert len(lines) > 1, (width, lines)  # narrow enough to break somewhere
        for part in ("Table B", "Game 1 of 2", "Heist 5 of 5"):
            assert any(part in line for line in lines), (width, part, lines)
        page.context.close()
    assert not errors, errors
