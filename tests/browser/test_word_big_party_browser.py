"""A 100-guest Word Heist party on the screens of a real party. The host's laptop
(1366x768) seats everyone and opens the gate with its own button; the big screen
(1920x1080) and a captain's tablet (820x1180, paired from the dashboard) follow to the
end; three guests' phones (two in English at 390x844, one in Spanish at 320x568) write,
clue, halt and vote in their page. The other 97 guests are bots on real sockets to the
same server (party_driver.WsBot), each step the rules' own bot (WORD.bot_action).

Checked: every table finishes its three rounds, meeting at the gate after the first; the
big screen never shows a table's words before that table's reveal; no phone scrolls
sideways; the party's result names the champions; axe-core finds nothing serious or
critical. Screenshots go to artifacts/screenshots/word-big-*.png."""

from __future__ import annotations

import json
import random
import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser.big_party import PartyOnScreens
from tests.browser.helpers import overflows, serious_a11y

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

N = 100
PHONES = [("Pia", 390, 844, "en-US"), ("Quinn", 320, 568, "es-ES"), ("Rosa", 390, 844, "en-US")]
SECRET_PHASES = ("word", "clues", "halt")


def test_a_hundred_guest_word_party_on_every_screen(asgi_server, browser):
    from events.models import Guest
    from games.word.actions import Write
    from games.word.definition import WORD
    from games.word.state import Game
    from tables.models import Table
    from tests import shorthand

    base = asgi_server
    with PartyOnScreens(browser, base, "word-big") as run:
        started, errors, a11y, db, bots = run.started, run.errors, run.a11y, run.db, run.bots
        laps, lap, shot = run.laps, run.lap, run.shot
        party, host_token = db(lambda: shorthand.party_create(name="Word hundred", game="word"))
        code = party.code

        def join(names) -> dict[int, str]:
            tokens = {}
            for name in names:
                guest, token, _ = shorthand.guest_join(code=code, name=name, description="")
                tokens[guest.pk] = token
            return tokens

        tokens = db(lambda: join([f"Guest {i + 1}" for i in range(N - len(PHONES))]))
        phone_tokens = db(lambda: join([name for name, *_ in PHONES]))
        host = run.host_page(code, host_token)
        screen = run.screen_page(code)

        phones: dict[str, Page] = {}
        phone_ids: dict[int, str] = {}
        for (gid, token), (name, w, hgt, locale) in zip(phone_tokens.items(), PHONES, strict=True):
            p = phones[name] = run.page(name, w, hgt, locale=locale)
            p.context.add_init_script(
                f"localStorage.setItem('heist.seat.{code}', {json.dumps(json.dumps({'token': token, 'guest': gid}))})"
            )
            p.goto(f"{base}/p/{code}/")
            phone_ids[gid] = name
        expect(phones["Quinn"].locator("html")).to_have_attribute("lang", "es")
        expect(host.locator("#roster li.guest")).to_have_count(N)
        lap("lobby")

        host.locator("#deal").click()
        expect(host.locator("#tables .w-table")).not_to_have_count(0, timeout=90_000)

        def seating():
            seats, sizes = {}, []
            for t in Table.objects.filter(party__code=code):
                sizes.append(len(t.roster))
                for seat, entry in enumerate(t.roster):
                    seats[(t.letter, seat)] = (entry["guest"], entry["name"])
            placed = Guest.objects.filter(party__code=code, table__isnull=False).count()
            return seats, sorted(sizes), placed

        seats, sizes, placed = db(seating)
        tables = len(sizes)
        assert placed == N and sum(sizes) == N and max(sizes) - min(sizes) <= 1, sizes
        expect(host.locator("#tables .w-table")).to_have_count(tables)
        expect(screen.locator("#tables .w-table.tile")).to_have_count(tables)
        letters = sorted({letter for letter, _ in seats})
        phone_at = {seats_key: phones[phone_ids[gid]] for seats_key, (gid, _) in seats.items() if gid in phone_ids}
        phone_seats = {letter: {s for (lt, s) in phone_at if lt == letter} for letter in letters}
        lap("seat")

        # A captain's tablet for table A, paired from the dashboard.
        panel = host.locator(".tablets-panel", has_text="Captain's tablet for table A")
        panel.get_by_role("button", name="Pair a tablet with table A").click()
        pairing = panel.locator(".pairing-code").inner_text()
        tablet = run.page("tablet", 820, 1180)
        tablet.goto(f"{base}/t/{code}/#{pairing}")
        expect(tablet.locator("#tablet .w-table")).to_have_attribute("aria-label", "Table A")

        run.connect_bots(code, tokens, timeout=60)
        lap("bots")
        shot(host, "host-start")
        shot(screen, "screen-start")
        a11y.extend(serious_a11y(screen, "big screen"))
        a11y.extend(serious_a11y(tablet, "tablet"))
        a11y.extend(serious_a11y(phones["Quinn"], "phone at 320 px in Spanish"))

        rands = {letter: random.Random(f"word bots at {letter}") for letter in letters}
        counts = {"bot": 0, "phone": 0, "passes": 0, "board_checks": 0}
        shots_taken: set[str] = set()

        def games_now() -> dict[str, Game]:
            return {t.letter: WORD.from_dict(t.state) for t in Table.objects.filter(party__code=code)}

        def board_keeps_secrets(games: dict[str, Game]) -> None:
            """No table's tile on the big screen shows one of its words before its reveal."""
            tiles = screen.evaluate(
                "() => Object.fromEntries([...document.querySelectorAll('#tables .w-table.tile')]"
                ".map((t) => [t.dataset.letter, t.dataset.phase + '|' + t.innerText]))"
            )
            for letter, g in games.items():
                phase, _, text = tiles.get(letter, "|").partition("|")
                if phase not in SECRET_PHASES or phase != g.phase.value:
                    continue  # the tile is behind or ahead of what the database said: next pass
                last = g.last_round or {}
                earlier = {str(s.get("word")) for s in last.get("seats", [])} | {str(e["word"]) for e in g.gallery}
                for word in g.words.values():
                    if word and word not in earlier:
                        assert word not in text.split(), f"table {letter} shows {word} in its {phase} step"
                counts["board_checks"] += 1

        def phone_does(letter: str, seat: int, g: Game) -> None:
            p = phone_at[(letter, seat)]
            phase = g.phase.value
            p.wait_for_function(
                "([v, ph]) => { const el = document.querySelector('#phone .w-phone');"
                " return !!el && Number(el.dataset.version) >= v && el.dataset.phase === ph; }",
                arg=[g.version, phase],
            )
            if phase == "word":
                word = next(a.word for a in WORD.legal_actions(g, seat) if isinstance(a, Write))
                p.locator("#w-word").fill(word.lower())
                p.locator("[data-key='w-word']").click()
            elif phase == "clues":
                word = g.words[seat]
                p.locator(f".w-clue-pick button[data-letter='{word[0]}']").click()
                p.locator("[data-key='w-drop']").click()
            elif phase == "halt":
                p.locator("[data-key='w-no-guess']").click()
            elif phase == "vote":
                p.locator("[data-key='w-vote']").click()
            counts["phone"] += 1
            key = f"{phase}-{phone_ids[seats[(letter, seat)][0]]}"
            if key not in shots_taken:
                shots_taken.add(key)
                shot(p, f"phone-{key}")
            assert not overflows(p), f"a phone scrolls sideways at {p.viewport_size['width']} px"
            end = time.monotonic() + 20
            while True:  # the server took it
                now = db(lambda: WORD.from_dict(Table.objects.get(party__code=code, letter=letter).state))
                if seat not in now.waiting() or now.phase is not g.phase or now.round != g.round:
                    return
                assert time.monotonic() < end, f"{letter}: the phone's {phase} did not arrive"
                time.sleep(0.05)

        def play() -> None:
            """Every table plays at once until none waits for a seat (at the gate, or over)."""
            for _ in range(400):
                games = db(games_now)
                board_keeps_secrets(games)
                inflight, turns = [], []
                for letter, g in sorted(games.items()):
                    for seat in g.waiting():
                        if seat in phone_seats[letter]:
                            turns.append((letter, seat, g))
                            continue
                        action = WORD.bot_action(g, rands[letter], seat)
                        assert action is not None, (letter, seat, g.phase)
                        gid = seats[(letter, seat)][0]
                        frame = {"type": "act", "action": WORD.action_to_dict(action), "version": WORD.version(g)}
                        inflight.append((bots[gid], bots[gid].send(frame), letter))
                        counts["bot"] += 1
                if not inflight and not turns:
                    return
                for letter, seat, g in turns:
                    phone_does(letter, seat, g)
                for bot, re_id, letter in inflight:
                    reply = bot.wait(re_id, timeout=30)
                    assert reply["type"] == "ok", (letter, reply)
                counts["passes"] += 1
                if counts["passes"] == 3:
                    shot(host, "host-play")
                    shot(screen, "screen-play")
            raise AssertionError("the tables did not get there")

        play()
        games = db(games_now)
        assert {g.phase.value for g in games.values()} == {"gate"}, {k: g.phase.value for k, g in games.items()}
        lap("gate")
        gate = host.locator("#tables .w-gate")
        expect(gate).to_contain_text("Every table is at the gate.")
        expect(tablet.locator(".w-table[data-phase=gate]")).to_be_visible()
        for name, p in phones.items():
            expect(p.locator(".w-phone[data-phase=gate]")).to_be_visible()
            shot(p, f"phone-gate-{name}")
        shot(host, "host-gate")
        a11y.extend(serious_a11y(host, "host at the gate"))
        gate.get_by_role("button").click()
        expect(host.locator("#tables .w-gate")).to_have_count(0, timeout=30_000)

        play()
        games = db(games_now)
        assert {g.phase.value for g in games.values()} == {"over"}, {k: g.phase.value for k, g in games.items()}
        lap("over")
        expect(host.locator("#tables .w-table[data-phase=over]")).to_have_count(tables, timeout=30_000)
        expect(screen.locator("#tables .w-table.tile[data-phase=over]")).to_have_count(tables, timeout=30_000)
        expect(tablet.locator(".w-table[data-phase=over] .w-over")).to_contain_text("Winner")
        for name, p in phones.items():
            expect(p.locator(".w-phone[data-phase=over]")).to_be_visible()
            assert not overflows(p), name
            shot(p, f"phone-over-{name}", full=True)
        expect(host.locator("#result .w-champion")).to_be_visible(timeout=30_000)
        shot(host, "host-over")
        shot(screen, "screen-over")
        best = max(score for g in games.values() for score in g.scores)
        expect(screen.locator("#tables .w-leaderboard tbody tr").first).to_contain_text(str(best))
        a11y.extend(serious_a11y(screen, "big screen at the end"))
        a11y.extend(serious_a11y(phones["Quinn"], "phone at the end at 320 px"))
        assert counts["board_checks"] > tables, counts
        assert not a11y, "\n".join(a11y)
        assert not errors, errors
        print(
            f"\n100-guest Word party: {tables} tables {sizes}, {counts} in {time.monotonic() - started:.0f} s ({', '.join(laps)})"
        )
