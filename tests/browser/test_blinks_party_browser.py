"""Issue 41: a 40-guest Blinks Heist party in Chromium. The host creates it from the
home form (the game, a vault of 3 Blinks a table), 37 guests are bots on real sockets
(party_driver.WsBot) and three join on phones; the host puts the three in teams by hand
in the lobby (the rest are drawn; each lobby phone says its team as the host sets it and
again at each change, nothing when none is set) and seats everyone (five tables of 8;
each phone says its team), a captain's tablet pairs with table A and the big screen watches. Every throw is
recorded by its thrower (the phones tap Hit and the Blink, or Touched on the way back
and Miss; a bot sends its record) and settled by the captain (table A's tablet taps
Confirm, a captain's phone taps Confirm, a bot captain sends it) until every vault is
empty.

The tablet also takes one confirmed throw back (a mis-tap), and the thrower records
it again. Checked: only the thrower's phone offers the record; a record waits for the captain
and changes nothing before; the big screen shows every table's vault and the four teams'
running totals as the tables hold them; at the end the big screen names the winning
team and the host's result lists the teams' totals; each phone names the winning team,
the guest's team and its total, and their table's result.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.big_party import PartyOnScreens
from tests.browser.helpers import SHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

N = 40
PHONES = ("Pia", "Quinn", "Rosa")
HAND_SET = {"Pia": 3, "Quinn": 3, "Rosa": 1}  # the teams the host sets by hand in the lobby
# How the host gets there: Rosa first in Red, then moved to Blue; Quinn set to Green, back
# to the seating's draw (None), then Yellow. Each phone says its team at every step.
LOBBY_PICKS = [("Rosa", 0), ("Rosa", 1), ("Quinn", 2), ("Quinn", None), ("Quinn", 3), ("Pia", 3)]
TEAM_NAMES = ("Red", "Blue", "Green", "Yellow")
SHOTS41 = Path("/tmp/shots41")  # the look at the lobby phone and the end screen


def test_a_forty_guest_blinks_party_records_on_phones_and_confirms_on_the_tablet(asgi_server, browser):
    from events.models import Guest
    from games.blinks.definition import BLINKS
    from tables.models import Table

    base = asgi_server
    with PartyOnScreens(browser, base, "blinks") as run:
        errors, db, bots = run.errors, run.db, run.bots
        host = run.page("host", 1366, 768)
        host.goto(base + "/")
        host.get_by_label("Party name").fill("Blinks forty")
        host.locator("#party-game").select_option("blinks")
        expect(host.locator("#option-blinks-vault")).to_be_visible()
        host.locator("#option-blinks-vault").fill("3")
        host.get_by_role("button", name="Host a party").click()
        host.wait_for_url(re.compile(r"/host/[A-Z0-9]{6}/$"))
        code = host.url.rstrip("/").rsplit("/", 1)[1]
        assert "Blinks Heist" in host.title()

        tokens = run.join_bots(code, N - len(PHONES))
        phones: dict[str, Page] = {}
        for name in PHONES:
            p = phones[name] = run.page(name, 390, 844)
            p.goto(f"{base}/j/{code}/")
            p.get_by_label("Your name", exact=True).fill(name)
            p.get_by_role("button", name="Join the party").click()
            p.wait_for_url(f"**/p/{code}/")
        phone_ids = run.seat_ids(phones, code)
        screen = run.screen_page(code)
        expect(host.locator("#roster li.guest")).to_have_count(N)
        # The host puts the phones' guests in teams by hand in the lobby; the rest are drawn.
        # A phone says nothing of a team before the host sets one, then says it at once in
        # the team's colour and name, and follows every change.
        id_of = {name: gid for gid, name in phone_ids.items()}
        for p in phones.values():
            expect(p.locator(".bk-wait")).to_be_visible()
            expect(p.locator("#bk-team")).to_have_count(0)
        SHOTS41.mkdir(parents=True, exist_ok=True)
        for name, team in LOBBY_PICKS:
            pick = host.locator(f'#roster li.guest[data-guest="{id_of[name]}"] select.bk-pick-team')
            pick.select_option("" if team is None else str(team))
            # the roster redrawn from the server's answer
            expect(pick).to_have_attribute("data-team", "drawn" if team is None else str(team))
            said = phones[name].locator("#bk-team")
            if team is None:
                expect(said).to_have_count(0)
                continue
            expect(said).to_have_text(f"Your team: {TEAM_NAMES[team]}")
            expect(said.locator(".bk-chip")).to_have_attribute("data-team", str(team))
            if (name, team) == ("Rosa", 1):
                phones[name].screenshot(path=str(SHOTS41 / "lobby-phone-team.png"), full_page=True)
        for name, team in HAND_SET.items():
            expect(phones[name].locator("#bk-team")).to_have_attribute("data-team", str(team))
        host.locator("#deal").click()
        expect(host.locator("#tables .bk-tile")).to_have_count(5)
        expect(screen.locator("#tables .bk-board-table")).to_have_count(5)
        expect(screen.locator("#bk-teams li")).to_have_count(4)

        def seating() -> tuple[dict[tuple[str, int], int], dict[str, int]]:
            seats, captains = {}, {}
            for g in Guest.objects.filter(party__code=code, table__isnull=False).select_related("table"):
                seats[(g.table.letter, g.seat)] = g.pk
                if g.is_captain:
                    captains[g.table.letter] = g.pk
            return seats, captains

        seats, captains = db(seating)
        assert len(seats) == N
        for name, team in HAND_SET.items():  # each phone says the team the host set
            expect(phones[name].locator(f'.bk-you .bk-chip[data-team="{team}"]')).to_be_visible()
        letters = sorted({letter for letter, _ in seats})
        assert letters == list("ABCDE")

        # The host pairs table A's tablet from the dashboard: the tile's Details hold it.
        host.locator("#tables").get_by_role("button", name="Details of table A").click()
        details = host.locator("#details")
        details.get_by_role("button", name="Pair a tablet with table A").click()
        pairing = details.locator(".pairing-code").inner_text().strip()
        tablet = run.page("tablet-A", 820, 1180)
        tablet.goto(f"{base}/t/{code}/#{pairing}")
        expect(tablet.locator("#tablet .bk-tablet .bk-hex")).to_have_count(3)
        # The code is spent: its QR code goes, the paired tablet shows.
        expect(details.locator(".tablet-list li")).to_have_count(1)
        expect(details.locator(".pairing")).to_have_count(0)
        details.get_by_role("button", name="Close").click()

        run.connect_bots(code, tokens)

        def state(letter: str):
            return db(lambda: BLINKS.from_dict(Table.objects.get(party__code=code, letter=letter).state))

        def moved(letter: str, version: int) -> object:
            end = time.monotonic() + 10
            while True:
                g = state(letter)
                if g.version > version:
                    return g
                assert time.monotonic() < end, f"table {letter} did not move from version {version}"
                time.sleep(0.03)

        def phone_page(gid: int) -> Page | None:
            return phones[phone_ids[gid]] if gid in phone_ids else None

        taps = {"phone_records": 0, "phone_touched": 0, "tablet_confirms": 0, "phone_confirms": 0}
        # Each table in turn, throw by throw: the thrower records, the captain settles.
        for letter in letters:
            g = state(letter)
            while g.phase.value != "over":
                thrower = seats[(letter, g.turn)]
                hit = g.in_vault()[0]
                page = phone_page(thrower)
                if page is not None:
                    mine = page.locator(f'.bk-phone[data-version="{g.version}"]')
                    expect(mine).to_be_visible()
                    # the big screen shows whose turn in the team the host set them in
                    team = HAND_SET[phone_ids[thrower]]
                    turn = screen.locator(f'#tables .bk-board-table[data-table="{letter}"] .bk-turn')
                    expect(turn).to_have_attribute("data-team", str(team))
                    expect(page.locator("#bk-hit")).to_be_visible()
                    if not taps["phone_records"]:
                        SHOTS.mkdir(parents=True, exist_ok=True)
                        page.screenshot(path=str(SHOTS / "blinks-phone-turn.png"), full_page=True)
                        screen.screenshot(path=str(SHOTS / "blinks-screen-play.png"))
                        tablet.screenshot(path=str(SHOTS / "blinks-tablet.png"))
                    if taps["phone_records"] == 1:  # once: a touched retrieval and a miss
                        page.locator("#bk-touched").click()
                        expect(page.locator("#bk-touched")).to_have_attribute("aria-pressed", "true")
                        page.locator("#bk-miss").click()
                        taps["phone_touched"] += 1
                    else:
                        page.locator("#bk-hit").click()
                        page.locator(f'#bk-pick button.bk-hex[data-blink="{hit}"]').click()
                    taps["phone_records"] += 1
                else:
                    reply = bots[thrower].act(
                        {"type": "throw", "seat": g.turn, "throw": g.throws + 1, "hit": hit, "touched": False},
                        version=g.version,
                    )
                    assert reply["type"] == "ok", reply
                for (at, _seat), other in seats.items():  # no other phone at the table offers a record
                    if at == letter and other != thrower and other in phone_ids:
                        expect(phone_page(other).locator("#bk-hit")).to_have_count(0)
                recorded = moved(letter, g.version)
                assert recorded.pending is not None and recorded.health == g.health  # nothing yet
                captain = captains[letter]
                if letter == "A":
                    confirm = tablet.locator(f'.bk-tablet[data-version="{recorded.version}"] #bk-confirm')
                    confirm.click()
                    taps["tablet_confirms"] += 1
                elif phone_page(captain) is not None:
                    cap = phone_page(captain)
                    cap.locator(f'.bk-phone[data-version="{recorded.version}"] #bk-confirm').click()
                    taps["phone_confirms"] += 1
                else:
                    reply = bots[captain].act(
                        {"type": "confirm", "throw": recorded.pending.throw}, version=recorded.version
                    )
                    assert reply["type"] == "ok", reply
                before = g
                g = moved(letter, recorded.version)
                assert g.pending is None
                if letter == "A" and "undone" not in taps:  # a mis-tap seen at once: the tablet takes it back
                    tablet.locator(f'.bk-tablet[data-version="{g.version}"] #bk-undo').click()
                    g = moved(letter, g.version)
                    assert (g.health, g.turn, g.pending) == (before.health, before.turn, None)
                    taps["undone"] = 1
            expect(screen.locator(f'#tables .bk-board-table[data-table="{letter}"] .bk-hex.claimed')).to_have_count(3)
            if letter != letters[-1]:  # its phones' table is done, the party is not: no winner named yet
                for (at, _seat), gid in seats.items():
                    if at == letter and gid in phone_ids:
                        expect(phone_page(gid).locator("#bk-end-wait")).to_be_visible()
                        expect(phone_page(gid).locator("#bk-end")).to_have_count(0)

        assert taps["phone_records"] >= 1 and taps["tablet_confirms"] >= 13 and taps["undone"] == 1, taps
        totals = [0, 0, 0, 0]
        for letter in letters:
            g = state(letter)
            for team, n in enumerate(g.team_claims()):
                totals[team] += n
        assert sum(totals) == 15
        for team, n in enumerate(totals):
            expect(screen.locator(f'#bk-teams li[data-team="{team}"]')).to_have_attribute("data-total", str(n))
        best = max(totals)
        winners = [name for name, n in zip(("Red", "Blue", "Green", "Yellow"), totals, strict=True) if n == best]
        expect(screen.locator("#end .bk-end")).to_contain_text(", ".join(winners))
        for team, n in enumerate(totals):
            expect(host.locator(f'#result .bk-result li[data-team="{team}"]')).to_have_attribute("data-total", str(n))
        expect(host.locator("#result #download-csv")).to_be_visible()
        for page in phones.values():  # the vault is empty: no "yet" on a phone that claimed none
            expect(page.locator("#bk-mine")).to_have_text(re.compile(r"^(Your Blinks?: #.+|You claimed no Blinks\.)$"))
        screen.screenshot(path=str(SHOTS / "blinks-screen-end.png"))
        host.screenshot(path=str(SHOTS / "blinks-host-end.png"), full_page=True)
        expect(tablet.locator(".bk-turn.over")).to_be_visible()
        for p in phones.values():
            expect(p.locator(".bk-turn.over")).to_be_visible()
        # Each phone's end: the party's winning team (or the tie), the guest's team and its
        # total over every table, and their own table's result.
        won = [team for team, n in enumerate(totals) if n == best]
        for name, p in phones.items():
            end = p.locator("#bk-end")
            expect(end).to_have_attribute("data-winners", ",".join(map(str, won)))
            if len(won) == 1:
                expect(end.locator(".bk-winner")).to_have_text(f"{winners[0]} wins the party with {best} gold Blinks.")
            else:
                expect(end.locator(".bk-winner")).to_have_text(
                    f"A tie: {', '.join(winners)} share the win with {best} gold Blinks each."
                )
            team = HAND_SET[name]
            mine = p.locator("#bk-your-team")
            expect(mine).to_have_attribute("data-total", str(totals[team]))
            blinks = "Blink" if totals[team] == 1 else "Blinks"
            expect(mine).to_have_text(
                f"Your team, {TEAM_NAMES[team]}, claimed {totals[team]} gold {blinks} across the tables."
            )
            letter = next(letter for (letter, _), gid in seats.items() if phone_ids.get(gid) == name)
            claims = state(letter).team_claims()
            top = [t for t, n in enumerate(claims) if n == max(claims)]
            at_table = p.locator("#bk-table-end")
            expect(at_table).to_have_attribute("data-winners", ",".join(map(str, top)))
            expect(at_table).to_contain_text(f"Table {letter}")
            for t, n in enumerate(claims):
                expect(at_table.locator(f'li[data-team="{t}"]')).to_have_attribute("data-total", str(n))
        phones["Rosa"].screenshot(path=str(SHOTS41 / "end-phone.png"), full_page=True)
        phones["Rosa"].screenshot(path=str(SHOTS41 / "end-phone-viewport.png"))
        assert not errors, errors
