"""A 100-guest party (ten tables of ten) on the screens the issue names: the host's
laptop (1366x768), the big screen (1920x1080), two captains' tablets paired with
tables A and B (820x1180) and three guests' phones (390x844, one at 320 px). The
other 97 guests are bots on real sockets to the same daphne.

At every phase the dashboard's overview and the big screen fit their viewport with no
scroll; the alerts appear when due (a reaction waiting 60 s, with its one-tap pass; a
guest offline; a table idle for minutes: the clocks are moved back in the database
rather than waited for); the tablets do the captain's duties and never receive a hand
(every frame they get is checked); axe-core finds no serious or critical violation on
any page in its main states. Screenshots of every phase go to artifacts/screenshots/.
"""

from __future__ import annotations

import json
import re
import time
from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect

from tests import shorthand
from tests.browser.big_party import PartyOnScreens
from tests.browser.big_party_guests import (
    hand_over_kept_at_the_end,
    late_arrival_at_the_end,
    late_arrival_registers,
    substitute_takes_the_seat,
)
from tests.browser.helpers import fits, overflows, serious_a11y, wait_version
from tests.browser.party_driver import WsBot, policy, table_rand
from tests.browser.phone_checks import clock_off, clock_ran_out, decision_fits, names_its_table, stand_in_rows
from tests.browser.relay_walk import walk_the_relay
from tests.browser.test_many_tables_browser import screen_checked, tiles_out_of_view
from tests.browser.test_step_clock_browser import quiet_guest_in_big_party

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

N = 100
PHONES = [("Pia", 390, 844), ("Quinn", 320, 700), ("Rosa", 390, 844)]
GUEST_TABLE = "#phone section[data-version]"
TABLET_TABLE = "#tablet section[data-version]"
NO_VAULT = 0  # the phones never cash in at the vault here (tests/browser/test_party_browser.py does)
# A turn's controls on a phone (issue 40.3): the modes, the cards, whom, the confirm.
TURN_CONTROLS = "#prompt label.mode, #prompt #hand button.card:not([disabled]), #prompt .targets button, #prompt .chosen-targets button, #confirm"


def test_a_hundred_guest_party_on_every_screen(asgi_server, browser):
    from django.utils import timezone

    from events.models import Guest, Party
    from events.party import services
    from games.yankee import Game, Phase, action_to_dict
    from tables.models import Table
    from tables.seating import seating_plan

    base = asgi_server
    with PartyOnScreens(browser, base, "big") as run:
        started, errors, a11y, db, bots, pages = run.started, run.errors, run.a11y, run.db, run.bots, run.pages
        laps, lap, shot = run.laps, run.lap, run.shot

        def fit_check(phase: str):
            """The dashboard (at 1366x768 and 1280x800) and the big screen never scroll."""
            assert fits(host), f"{phase}: the host dashboard scrolls at 1366x768"
            # ...and every table's tile is in view: the overview does not scroll inside either.
            assert host.evaluate(
                "() => { const t = document.getElementById('tables'); return t.scrollHeight <= t.clientHeight + 1; }"
            ), f"{phase}: the overview of tables scrolls at 1366x768"
            assert fits(screen), f"{phase}: the big screen scrolls at 1920x1080"
            # Issue 40: no table's tile cut off or scrolled out of sight, alerts and all.
            out = tiles_out_of_view(host)
            assert not out, f"{phase}: tables out of sight on the dashboard at 1366x768: {out}"
            shot(host, f"host-{phase}")
            shot(screen, f"screen-{phase}")

        def projector_720(phase: str):
            screen.set_viewport_size({"width": 1280, "height": 720})
            try:
                assert fits(screen), f"{phase}: the big screen scrolls at 1280x720"
                # Issue 40: text at 24 px or more, every tile whole, on every page of tables.
                bad = screen_checked(screen, phase, "big-720", [])
                assert not bad, "\n".join(bad)
                shot(screen, f"screen-{phase}-720")
            finally:
                screen.set_viewport_size({"width": 1920, "height": 1080})

        def laptop_1280(phase: str):
            host.set_viewport_size({"width": 1280, "height": 800})
            try:
                assert fits(host), f"{phase}: the host dashboard scrolls at 1280x800"
            finally:
                host.set_viewport_size({"width": 1366, "height": 768})

        # --- the party, 97 bot guests (two of them both called Sam) and 9 of 10 vault gifts ---
        def create():
            party, token = shorthand.party_create(name="Hundred heist", vault_size=1)
            tokens = {}
            for i in range(N - len(PHONES)):
                name = "Sam" if i in (5, 6) else f"Guest {i + 1}"
                guest, t, _ = shorthand.guest_join(code=party.code, name=name, description=f"gift of guest {i + 1}")
                tokens[guest.pk] = t
            for v in range(9):
                services.vault_gift_add(party_id=party.pk, contributor="Hal", description=f"vault treat {v + 1}")
            return party.code, token, tokens

        code, host_token, tokens = db(create)
        host = run.host_page(code, host_token)
        screen = run.screen_page(code)

        phones: dict[str, Page] = {}
        for name, w, hgt in PHONES:
            p = phones[name] = run.page(name, w, hgt)
            if name == "Pia":
                p.goto(f"{base}/")
                a11y.extend(serious_a11y(p, "home page"))
            p.goto(f"{base}/j/{code}/")
            if name == "Pia":
                a11y.extend(serious_a11y(p, "join page"))
            p.get_by_label("Your name", exact=True).fill(name)
            p.get_by_label("Secretly describe the gift you brought").fill(f"{name}'s scarf")
            p.get_by_role("button", name="Join the party").click()
            p.wait_for_url(f"**/p/{code}/")
            expect(p.locator(".write-number")).to_be_visible()
        phone_ids = {
            name: json.loads(p.evaluate(f"localStorage.getItem('heist.seat.{code}')"))["guest"]
            for name, p in phones.items()
        }

        # --- the lobby: joined count, the same name twice, the vault gifts 100 guests need ---
        stats = host.locator("#lobby-stats")
        expect(stats.locator("[data-stat='joined']")).to_have_text("100 joined · 10 tables")
        expect(stats.locator("[data-stat='duplicates']")).to_contain_text("Same name twice: Sam")
        expect(host.locator("#roster .mark.dup")).to_have_count(2)
        expect(stats.locator("[data-stat='vault']")).to_contain_text(
            "Vault gifts: 9 of 10 needed (1 per table × 10 tables) — add 1 more"
        )
        host.get_by_label("Contributed by").fill("Hal")
        host.get_by_label("Secret description").fill("vault treat 10")
        host.get_by_role("button", name="Add vault gift").click()
        expect(stats.locator("[data-stat='vault']")).to_contain_text("Vault gifts: 10 of 10 needed")
        expect(screen.locator("#joined-count")).to_have_text("100")
        expect(screen.locator("#names li:not(.more)")).to_have_count(100)
        expect(screen.locator("#names li.newest")).to_have_text("Rosa")
        fit_check("lobby")
        laptop_1280("lobby")
        projector_720("lobby")
        a11y.extend(serious_a11y(host, "host lobby"))
        a11y.extend(serious_a11y(screen, "big screen lobby"))
        a11y.extend(serious_a11y(phones["Pia"], "phone lobby"))
        lap("lobby")

        # A seed under which the phones sit at three different tables, none of them
        # captain and none at the tablets' tables A and B (their duties are the tablets').
        def choose_seed():
            party = Party.objects.get(code=code)
            guests = list(party.guests.filter(removed_at__isnull=True).values_list("pk", flat=True))
            vault = list(party.vault_gifts.values_list("pk", flat=True))
            for seed in range(1, 500):
                plan = seating_plan(seed=seed, guest_ids=guests, vault_ids=vault, vault_size=1)
                where = {gid: e["letter"] for e in plan for gid in e["guests"]}
                letters = [where[g] for g in phone_ids.values()]
                if (
                    len(set(letters)) == 3
                    and not {"A", "B"} & set(letters)
                    and not set(phone_ids.values()) & {e["captain"] for e in plan}
                ):
                    Party.objects.filter(pk=party.pk).update(seed=seed)
                    return seed
            raise AssertionError("no seed")

        seed = db(choose_seed)
        # The host deals by keyboard.
        deal = host.locator("#deal")
        expect(deal).to_have_text("Deal the cards (100 players)")
        deal.focus()
        host.keyboard.press("Enter")
        expect(host.locator("article.tile")).to_have_count(10)
        expect(screen.locator("article.screen-tile")).to_have_count(10)

        def seating():
            tables = {t.letter: t.pk for t in Table.objects.filter(party__code=code)}
            at = {(g.table.letter, g.seat): g for g in Guest.objects.filter(party__code=code).select_related("table")}
            return tables, at

        tables, at = db(seating)
        by_id = {g.pk: key for key, g in at.items()}
        captain_of = {
            letter: next(g for (lt, _), g in at.items() if lt == letter and g.is_captain) for letter in tables
        }
        phone_at = {}  # letter -> (page, seat)
        for name, gid in phone_ids.items():
            letter, seat = by_id[gid]
            phone_at[letter] = (phones[name], seat)
            expect(phones[name].locator(".seat-head h1")).to_have_text(f"Table {letter} · seat {seat + 1}")
            expect(phones[name].locator(".captain-name")).to_contain_text(f"Captain: {captain_of[letter].name}")
            names_its_table(phones[name], letter, seat)

        # --- two tablets, paired from the dashboard (details opened by keyboard) ------------------
        tablets: dict[str, Page] = {}
        tablet_frames: list[str] = []
        for letter in ("A", "B"):
            details_button = host.locator(f"article.tile[data-letter='{letter}'] .details-btn")
            details_button.focus()
            host.keyboard.press("Enter")
            dialog = host.locator("dialog#details")
            expect(dialog).to_be_visible()
            dialog.get_by_role("button", name=f"Pair a tablet with table {letter}").click()
            pairing = dialog.locator(".pairing-code").inner_text()
            expect(dialog.locator(".pairing img.qr")).to_be_visible()
            if letter == "A":
                shot(host, "host-details-pairing")
                a11y.extend(serious_a11y(host, "host table details"))
            host.keyboard.press("Escape")
            expect(dialog).to_be_hidden()
            # Focus goes back to the table's Details button (the dialog's close event is async).
            host.wait_for_function(
                "k => document.activeElement && document.activeElement.dataset.key === k",
                arg=f"details-{tables[letter]}",
            )
            tab = tablets[letter] = run.page(f"tablet-{letter}", 820, 1180)
            tab.on("websocket", lambda ws: ws.on("framereceived", lambda payload: tablet_frames.append(payload)))
            tab.goto(f"{base}/t/{code}/#{pairing}")
            expect(tab.locator(".tablet-head h1")).to_have_text(f"Table {letter}")
            assert "#" not in tab.url  # the spent code is gone from the address bar
            expect(host.locator(f"article.tile[data-letter='{letter}'] .captain-line")).to_contain_text("tablet ✓")
        # A reload keeps the pairing.
        tablets["A"].reload()
        expect(tablets["A"].locator(".tablet-head h1")).to_have_text("Table A")
        lap("seated")

        # --- the bots connect ----------------------------------------------------------------------
        run.connect_bots(code, tokens)
        phone_bots = {}
        for letter, (page, _) in phone_at.items():
            token = json.loads(page.evaluate(f"localStorage.getItem('heist.seat.{code}')"))["token"]
            phone_bots[letter] = bots[-ord(letter)] = WsBot(base, code, f"phone-{letter}")
            phone_bots[letter].hello(token)
        fit_check("round1")
        laptop_1280("round1")
        a11y.extend(serious_a11y(host, "host overview"))
        a11y.extend(serious_a11y(screen, "big screen play"))
        a11y.extend(serious_a11y(tablets["A"], "tablet"))

        # Tables with neither a phone nor a tablet, for the alerts.
        plain = [x for x in sorted(tables) if x not in phone_at and x not in tablets]
        pass_letter, idle_letter, off_letter = plain[0], plain[1], plain[2]
        # A guest's phone drops: the alert names them and their table.
        dropper = next(g for (lt, _), g in sorted(at.items()) if lt == off_letter and g.pk in bots and not g.is_captain)
        bots.pop(dropper.pk).close()
        alert = host.locator(f"#alerts li[data-kind='offline'][data-letter='{off_letter}']")
        expect(alert).to_contain_text(f"Table {off_letter}: {dropper.name} is offline")
        expect(host.locator(f"article.tile[data-letter='{off_letter}'] .presence-line")).to_have_text(
            f"○ Offline: {dropper.name}"
        )
        shot(host, "host-alert-offline")
        assert fits(host)
        bots[dropper.pk] = WsBot(base, code, f"g{dropper.pk}")
        bots[dropper.pk].hello(tokens[dropper.pk])
        expect(alert).to_have_count(0)

        rands = {letter: table_rand(letter) for letter in tables}
        counts = run.said["counts"] = {"bot": 0, "phone": 0, "duty": 0, "tablet": 0}
        done_checks = {
            "pass_host": False,
            "pass_tablet": False,
            "idle": False,
            "reveal_tablet": set(),
            "phone_react": False,
            "captain_phone": False,
        }
        measured: set[Page] = set()  # the phones whose turn was measured (issue 40.3)
        phone_unfit: list[str] = []
        cap_letter = plain[3]  # a table without a tablet: its captain passes from their own phone

        def game_of(letter) -> Game:
            return db(lambda: Game.from_dict(Table.objects.get(pk=tables[letter]).state))

        def wait_db_version(letter, version, timeout=15):
            end = time.monotonic() + timeout
            while db(lambda: Table.objects.get(pk=tables[letter]).version) < version:
                assert time.monotonic() < end, f"table {letter} did not reach version {version}"
                time.sleep(0.03)

        def backdate(letter, seconds, field):
            past = timezone.now() - timedelta(seconds=seconds)
            db(lambda: Table.objects.filter(pk=tables[letter]).update(**{field: past}))

        def phone_acts(letter, action, g: Game):
            page, _seat = phone_at[letter]
            wait_version(page, GUEST_TABLE, g.version)
            prompt = page.locator("#prompt")
            kind = type(action).__name__
            if kind == "Regroup":
                expect(prompt).to_have_attribute("data-prompt", "turn")
                expect(page).to_have_title(re.compile(r"^● Your turn!"))
                if page not in measured:  # the turn, then a swipe's whom, each on one screen
                    measured.add(page)
                    phone_unfit.extend(decision_fits(page, TURN_CONTROLS, f"{letter} turn", top="#prompt"))
                    page.get_by_label("Swipe: spend 2 cards").check()
                    for _ in range(2):
                        prompt.locator("#hand button.card[aria-pressed='false']").first.click()
                    phone_unfit.extend(decision_fits(page, TURN_CONTROLS, f"{letter} swipe whom", top="#prompt"))
                    shot(page, f"phone-swipe-{page.viewport_size['width']}")
                    prompt.locator(".chosen-targets button").click()  # back to the modes
                page.get_by_label("Regroup or pass").check()
                assert not overflows(page), f"the turn prompt scrolls sideways at {page.viewport_size['width']} px"
                page.locator("#confirm").click()
            elif kind == "React":
                expect(prompt).to_have_attribute("data-prompt", "react")
                expect(prompt.locator(".react-clock")).to_contain_text(re.compile(r"Time left: \d+ s|at any moment"))
                if not done_checks["phone_react"]:
                    done_checks["phone_react"] = True
                    shot(page, f"phone-react-{page.viewport_size['width']}", full=True)
                    assert not overflows(page)
                    a11y.extend(serious_a11y(page, "phone asked to react"))
                page.get_by_role("button", name="Let it happen").click()
            elif kind == "Trim":
                expect(prompt).to_have_attribute("data-prompt", "trim")
                for card in action.cards:
                    prompt.locator(f"#hand button.card[data-card-id='{card}']").click()
                page.locator("#confirm").click()
            else:
                raise AssertionError(action)
            wait_db_version(letter, g.version + 1)

        def special(letter, g: Game) -> bool:
            """The alerts and tablet duties, each once, when the table gets there. True if
            it acted (the caller re-reads the table)."""
            captain = captain_of[letter]
            if (
                g.phase is Phase.ACTION
                and letter == cap_letter
                and g.round == 2
                and g.active != captain.seat
                and not done_checks["captain_phone"]
            ):
                # Issue 40.1: the turn's clock ran out at a table without a tablet; its
                # captain opens their own phone and passes the quiet guest's turn.
                done_checks["captain_phone"] = True
                db(clock_ran_out, tables[letter])
                seat = json.dumps(
                    {"token": tokens[captain.pk], "guest": captain.pk, "gift_number": captain.gift_number}
                )
                cap = run.page("captain's phone", 390, 844)
                cap.context.add_init_script(f"localStorage.setItem('heist.seat.{code}', {json.dumps(seat)})")
                cap.goto(f"{base}/p/{code}/")
                names_its_table(cap, letter, captain.seat)
                quiet = at[(letter, g.active)].name
                button = cap.get_by_role("button", name=f"Pass the turn for {quiet}")
                expect(button).to_be_enabled()
                phone_unfit.extend(
                    decision_fits(cap, ".captain-panel button.standin-pass", "captain's pass", top=".captain-panel")
                )
                shot(cap, "phone-captain-pass")
                button.click()
                wait_db_version(letter, g.version + 1)
                rows = db(stand_in_rows, tables[letter], g.version)
                assert rows[0][1:] == (f"captain:{captain.pk}", {"type": "timeout_pass", "seat": g.active}), rows
                db(clock_off, tables[letter])
                cap.close()
                pages.pop("captain's phone")
                counts["duty"] += 1
                return True
            if g.phase is Phase.REACTION and letter == pass_letter and not done_checks["pass_host"]:
                # A reaction that has waited 60 s: the alert rises with its one-tap pass.
                done_checks["pass_host"] = True
                seat = g.pending.window.waiting()[0]
                backdate(letter, 61, "window_opened_at")
                host.evaluate("() => window.heistLive.resync()")
                alert = host.locator(f"#alerts li[data-kind='pass'][data-letter='{letter}']")
                expect(alert).to_contain_text(re.compile(rf"Table {letter}: a reaction has waited \d+ s for"))
                expect(host.locator("#alerts li").first).to_have_attribute("data-kind", "pass")  # first of all
                shot(host, "host-alert-pass")
                assert fits(host)
                alert.get_by_role("button", name=f"Pass for {at[(letter, seat)].name}").click()
                wait_db_version(letter, g.version + 1)
                counts["duty"] += 1
                return True
            if g.phase is Phase.REACTION and letter == "A" and not done_checks["pass_tablet"]:
                done_checks["pass_tablet"] = True
                tab = tablets["A"]
                seat = g.pending.window.waiting()[0]
                name = at[(letter, seat)].name
                wait_version(tab, TABLET_TABLE, g.version)
                button = tab.locator("#duty .window button", has_text=f"Pass for {name}")
                expect(button).to_be_disabled()
                expect(tab.locator("#duty .countdown").first).to_contain_text(re.compile(r"may be passed in \d+ s"))
                shot(tab, "tablet-reaction")
                backdate(letter, 61, "window_opened_at")
                tab.evaluate("() => window.heistLive.resync()")
                expect(button).to_be_enabled()
                button.click()
                wait_db_version(letter, g.version + 1)
                counts["tablet"] += 1
                return True
            if g.phase is Phase.ACTION and letter == idle_letter and g.round == 2 and not done_checks["idle"]:
                done_checks["idle"] = True
                backdate(letter, 200, "updated_at")
                host.evaluate("() => window.heistLive.resync()")
                expect(host.locator(f"#alerts li[data-kind='idle'][data-letter='{letter}']")).to_contain_text(
                    f"Table {letter} has not moved for 3 min"
                )
                shot(host, "host-alert-idle")
                return False
            return False

        timing = run.said["timing"] = {"game": 0.0, "bot": 0.0}  # seconds reading tables, waiting for bot replies

        def timed(key, fn, *args):
            t0 = time.monotonic()
            try:
                return fn(*args)
            finally:
                timing[key] += time.monotonic() - t0

        def step(letter, inflight=None) -> bool:
            """One action at this table by whoever the policy says; False when it waits.
            A bot's action is only sent when `inflight` collects it (the caller waits)."""
            g = timed("game", game_of, letter)
            if special(letter, g):
                return True
            phone_seat = phone_at[letter][1] if letter in phone_at else None
            decided = policy(g, rands[letter], phone_seat, NO_VAULT)
            if decided is None:
                return False
            who, action = decided
            wire = action_to_dict(action)
            if who == "bot":
                counts["bot"] += 1
                bot = bots[at[(letter, wire["seat"])].pk]
                re_id = bot.send({"type": "act", "action": wire, "version": g.version})
                if inflight is not None:
                    inflight.append((bot, re_id, letter, wire))
                else:
                    reply = bot.wait(re_id)
                    assert reply["type"] == "ok", (letter, wire, reply)
            elif who == "duty" and letter in tablets:
                counts["tablet"] += 1
                tab = tablets[letter]
                wait_version(tab, TABLET_TABLE, g.version)
                expect(tab.locator("#duty")).to_have_attribute("data-duty", "reveal")
                if letter == "A":
                    shot(tab, "tablet-reveal")
                tab.get_by_role("button", name="Everyone unwrapped — start round 2").click()
                wait_db_version(letter, g.version + 1)
            elif who == "duty":
                counts["duty"] += 1
                if letter in phone_at:
                    page = phone_at[letter][0]
                    wait_version(page, GUEST_TABLE, g.version)
                    expect(page.locator("#prompt")).to_contain_text(
                        f"Your captain, {captain_of[letter].name}, starts round 2"
                    )
                reply = bots[captain_of[letter].pk].act(wire, version=g.version)
                assert reply["type"] == "ok", (letter, wire, reply)
            elif g.round == 1 or (type(action).__name__ == "React" and not done_checks["phone_react"]):
                counts["phone"] += 1
                phone_acts(letter, action, g)
            else:
                # Past round 1 the phone's seat is played over a second socket with the
                # same seat (as a phone and a tablet may share one): the phone's page
                # keeps following every change, and the party is not slowed by taps.
                counts["bot"] += 1
                bot = phone_bots[letter]
                re_id = bot.send({"type": "act", "action": wire, "version": g.version})
                if inflight is not None:
                    inflight.append((bot, re_id, letter, wire))
                else:
                    reply = bot.wait(re_id)
                    assert reply["type"] == "ok", (letter, wire, reply)
            return True

        def settle(inflight):
            t0 = time.monotonic()
            for bot, re_id, letter, wire in inflight:
                reply = bot.wait(re_id)
                assert reply["type"] == "ok", (letter, wire, reply)
            timing["bot"] += time.monotonic() - t0
            inflight.clear()

        def play_round_robin(letters, skip=lambda letter: False):
            """Every table acts at once (one action each per pass), as at a party."""
            busy = True
            inflight = []
            while busy:
                busy = False
                for letter in letters:
                    if skip(letter):
                        continue
                    busy = step(letter, inflight) or busy
                    after(letter)
                settle(inflight)

        # --- rounds 1-2: nine tables reach the gate, J is behind ------------------------------------
        shot_reveal = []

        def after(letter):
            if not shot_reveal and letter in tablets and game_of(letter).phase is Phase.REVEAL:
                shot_reveal.append(letter)
                tile = screen.locator(f"article.screen-tile[data-letter='{letter}'] .tile-badge")
                expect(tile).to_have_text("Unwrap your gifts!")
                fit_check("reveal")

        def j_lags(letter):
            if letter != "J":
                return False
            g = game_of("J")
            return g.round == 2 and g.turn >= 3  # J lags behind: everyone waits for it

        play_round_robin(sorted(tables), skip=j_lags)
        assert all(game_of(x).phase is Phase.GATE for x in tables if x != "J")
        gate_text = host.locator("#party-bar .gate-waiting")
        expect(gate_text).to_contain_text(re.compile(r"Everyone waits for: J \(round 2, turn \d+ of 10\)"))
        expect(host.locator("#party-bar .gate-count")).to_contain_text("Tables at the gate: 9 of 10")
        expect(screen.locator("#party-bar h2")).to_have_text("The gate: 9 of 10 tables there")
        room = int(screen.locator("#party-bar .bar.room").get_attribute("aria-valuenow"))
        assert 90 <= room < 100, room
        fit_check("gate")
        laptop_1280("gate")
        projector_720("gate")
        for page in phones.values():
            assert not overflows(page), "a phone at the gate scrolls sideways"
        for letter, (page, _) in phone_at.items():
            if letter != "J":
                expect(page.locator("#prompt")).to_have_attribute("data-prompt", "gate")
        lap("gate 9/10")
        play_round_robin(["J"])
        expect(host.locator("#party-bar .gate-count")).to_contain_text("Tables at the gate: 10 of 10")
        assert all(done_checks[k] for k in ("pass_host", "pass_tablet", "idle")), done_checks

        # --- the relay -------------------------------------------------------------------------------
        host.locator("#open-relay").click()
        expect(screen.locator("#party-bar .big-ring")).to_have_text("A → B → C → D → E → F → G → H → I → J → A")
        for letter, tab in tablets.items():
            expect(tab.locator("#duty")).to_have_attribute("data-duty", "draw")
            tab.get_by_role("button", name="Draw the relay seat").click()
            expect(tab.locator("#duty")).to_have_attribute("data-duty", "drawn")
            counts["tablet"] += 1
        shot(tablets["A"], "tablet-drawn")
        for letter in sorted(tables):
            if letter not in tablets:
                reply = bots[captain_of[letter].pk].act({"type": "draw_relay_seat"})
                assert reply["type"] == "ok", reply
        expect(screen.locator(".tile-relay.drawn")).to_have_count(10)
        expect(host.locator("#run-relay")).to_be_enabled()
        fit_check("relay-open")
        # A captain's tablet hands a seat over (a one-time code for the substitute), once
        # its guest offers it: the seat's phone is online, so at first the tablet says why not.
        tb = tablets["B"]
        tb.locator(".captain-panel summary").click()
        leaver = at[("B", 3)]
        hand_over = tb.get_by_role("button", name=f"Hand {leaver.name}'s seat to a substitute")
        hand_over.click()
        expect(tb.locator(".toast.error", has_text="offers it")).to_be_visible()
        offer = bots[leaver.pk].request({"type": "party", "command": "offer_seat"})
        assert offer["type"] == "ok", offer
        expect(tb.locator("#offers .offer", has_text="offers their seat")).to_be_visible()
        hand_over.click()
        expect(tb.locator(".captain-panel .claim strong")).to_have_text(re.compile(r"^[A-Z0-9]{8}$"))
        claim = tb.locator(".captain-panel .claim strong").inner_text()
        counts["tablet"] += 1
        host.locator("#run-relay").click()
        expect(screen.locator("#party-bar .relay-moves li")).to_have_count(10)
        fit_check("relay-done")
        # The gifts glide along the ring, unless the room asked for less motion.
        moving = "() => getComputedStyle(document.querySelector('.relay-moves .moving')).animationName"
        assert screen.evaluate(moving) == "carry"
        screen.emulate_media(reduced_motion="reduce")
        assert screen.evaluate(moving) == "none"
        screen.emulate_media(reduced_motion="no-preference")
        walk_the_relay(
            db=db, code=code, host=host, screen=screen, tablets=tablets, phone_at=phone_at, bots=bots, at=at, shot=shot
        )
        lap("relay")
        quiet_guest_in_big_party(db, code=code, table_id=tables["J"])  # J's guest never answers: it goes on
        late = late_arrival_registers(browser, base, code, errors)  # issue 28.4 (big_party_guests.py)
        substitute_takes_the_seat(base, code, claim, leaver, bots, lambda gid: WsBot(base, code, f"g{gid}"))

        # --- rounds 3-4 ---------------------------------------------------------------------------------
        play_round_robin(sorted(tables))
        assert db(lambda: Party.objects.get(code=code).status) == "over"
        # (the 100-row result follows the last table's update: on a machine shared by
        # several test runs it took over 5 s in two of three runs)
        expect(host.locator("#result")).to_be_visible(timeout=20000)
        result_top = host.locator("#result").bounding_box()["y"]
        assert result_top < host.locator("#tables").bounding_box()["y"], "at the end the result comes first"
        expect(host.locator("#result .keeps-table tbody tr")).to_have_count(100)
        expect(screen.locator("#end h2")).to_have_text("Who takes what home")
        expect(screen.locator("#end .page-no")).to_contain_text(re.compile(r"Page 1 of [2-9]"))
        fit_check("end")
        laptop_1280("end")
        projector_720("end")
        a11y.extend(serious_a11y(host, "host end"))
        a11y.extend(serious_a11y(screen, "big screen end"))
        for name, page in phones.items():
            expect(page.locator("#prompt")).to_have_attribute("data-prompt", "end")
            expect(page.locator("#prompt .takes-home li").first).to_contain_text("Keep gift")
            assert not overflows(page), f"{name}'s phone scrolls sideways"
            shot(page, f"phone-end-{name}", full=True)
        late_arrival_at_the_end(host, late, base, code, host_token)
        hand_over_kept_at_the_end(base, code, host_token, leaver)
        a11y.extend(serious_a11y(phones["Quinn"], "phone end at 320 px"))
        a11y.extend(serious_a11y(tablets["B"], "tablet end"))

        # The tablets did their duties and never received a hand.
        assert counts["tablet"] >= 6, counts
        assert done_checks["phone_react"], "a phone was asked to react and showed its countdown"
        frames = [json.loads(f) for f in tablet_frames if isinstance(f, str)]
        assert len(frames) > 100
        # live.js takes updates as patches: the screens above were drawn from them.
        assert sum("patch" in f for f in frames if f.get("type") == "table") > 50
        for f in frames:
            text = json.dumps(f)
            assert '"hand"' not in text and '"peeks"' not in text, f
            if f.get("type") == "table":  # whole, or (live.js asks for them) a patch
                assert "private" not in f, f
                assert "you" not in (f["view"] if "view" in f else f["patch"].get("set", {})), f
        assert done_checks["captain_phone"], "no captain's phone passed a quiet guest's turn"
        assert len(measured) == len(PHONES), "a phone's turn was not measured"
        assert not phone_unfit, "\n".join(phone_unfit)
        assert not a11y, "\n".join(a11y)
        assert not errors, errors
        print(f"\n100-guest party: seed {seed}, {counts} in {time.monotonic() - started:.0f} s ({', '.join(laps)})")
