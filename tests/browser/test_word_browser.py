"""Word Heist in Chromium: a table of three played through its three rounds in real pages
(the host's dashboard, the big screen, a captain's tablet and three phones, one of them
in Spanish at 320x568), every step from the phones' own screens: the word field says at
once what the rules will say (a letter the Tableau lacks, a word of the Word Gallery,
a word the dictionary lacks or has),
the clue tokens go down a whole letter at a time and never past five, a Halt guess
catches another player's word and every screen shows the "Halt!" moment at the reveal,
the vote ends the round. The big screen is sent no secret word before its reveal: every
frame its socket receives is read. Screenshots of each step at 390x844 and 320x568 go to
the browser log directory; axe-core finds nothing serious or critical on the phones."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import DbThread, new_page, serious_a11y, small_tap_targets

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Ana", "Ben", "Cy")


def _state(db, table_pk):
    from games.word.definition import WORD
    from tables.models import Table

    return db(lambda: WORD.from_dict(Table.objects.get(pk=table_pk).state))


def _words_for(db, table_pk, players):
    """A different dictionary word for each seat, from the rules' own listed choices."""
    from games.word.actions import Write
    from games.word.definition import WORD

    state = _state(db, table_pk)
    chosen: list[str] = []
    for seat in range(players):
        options = [a.word for a in db(lambda s=seat: WORD.legal_actions(state, s)) if isinstance(a, Write)]
        fresh = [w for w in options if w not in chosen]
        chosen.append(fresh[0])
    return chosen


def _bad_word(tableau: list[str]) -> str:
    """A word of letters the Tableau lacks."""
    lacking = [c for c in "ZXJKVWQY" if c not in tableau]
    return lacking[0] * 2 + "A"


def _not_a_word(tableau: list[str], language: str) -> str:
    """Letters of the Tableau that the dictionary does not know as a word."""
    from games.word.party.dictionary import lexicon

    known = lexicon(language).knows
    a, b = tableau[0], tableau[1]
    return next(w for w in (a + b + a + b + a, b + a + b + a + b, a + a + b + b + a) if not known(w))


def test_a_word_table_played_through_on_every_screen(asgi_server, browser, browser_log_dir):
    from events.models import Party
    from tables.models import Table
    from tests import shorthand

    base = asgi_server
    errors: list[str] = []
    shots = browser_log_dir / "word"
    shots.mkdir(parents=True, exist_ok=True)
    db = DbThread()
    try:

        def create():
            party, host_token = shorthand.party_create(name="Word night", game="word")
            Party.objects.filter(pk=party.pk).update(seed=7)
            seats = {}
            for name in NAMES:
                guest, token, _ = shorthand.guest_join(code=party.code, name=name, description="-")
                seats[name] = {"token": token, "guest": guest.pk, "gift_number": guest.gift_number}
            return party.code, host_token, seats

        code, host_token, seats = db(create)
        host = new_page(browser, 1280, 900, errors, "host")
        host.context.add_init_script(f"localStorage.setItem('heist.host.{code}', {json.dumps(host_token)})")
        host.goto(f"{base}/host/{code}/")
        assert "Word Heist" in host.title()

        sizes = {"Ana": (390, 844, "en-US"), "Ben": (320, 568, "es-ES"), "Cy": (390, 844, "en-US")}
        phones: dict[str, Page] = {}
        for name in NAMES:
            w, hgt, locale = sizes[name]
            page = new_page(browser, w, hgt, errors, name, locale=locale)
            page.context.add_init_script(
                f"localStorage.setItem('heist.seat.{code}', {json.dumps(json.dumps(seats[name]))})"
            )
            page.goto(f"{base}/p/{code}/")
            phones[name] = page
        expect(phones["Ben"].locator("html")).to_have_attribute("lang", "es")

        screen = new_page(browser, 1280, 720, errors, "screen")
        frames: list[str] = []
        screen.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
        screen.goto(f"{base}/screen/{code}/")

        expect(host.locator("#roster li.guest")).to_have_count(3)
        host.locator("#deal").click()
        # The first table of a language loads its dictionary (a few seconds on a busy machine).
        expect(host.locator("#tables [data-version]")).to_have_count(1, timeout=60_000)
        expect(screen.locator("#tables [data-version]")).to_have_count(1)
        table = db(lambda: Table.objects.get(party__code=code))
        roster = [entry["name"] for entry in table.roster]
        by_seat = {roster.index(name): phones[name] for name in NAMES}

        from events.party.tablets import tablet_pair_start

        pairing = db(lambda: tablet_pair_start(party_id=table.party_id, table_id=table.pk).data["pairing"])
        tablet = new_page(browser, 1024, 768, errors, "tablet")
        tablet.goto(f"{base}/t/{code}/")
        tablet.get_by_label("Pairing code").fill(pairing)
        tablet.get_by_role("button", name="Pair this tablet").click()
        expect(tablet.locator("#tablet [data-version]")).to_be_visible()

        def shoot(step: str) -> None:
            for name, page in phones.items():
                page.wait_for_timeout(150)
                page.screenshot(path=str(shots / f"{step}-{name}-{sizes[name][0]}x{sizes[name][1]}.png"))

        for rnd in (1, 2, 3):
            state = _state(db, table.pk)
            assert state.round == rnd
            tableau = list(state.tableau)
            words = _words_for(db, table.pk, 3)
            for page in phones.values():
                expect(page.locator(".w-phone")).to_have_attribute("data-phase", "word")
                expect(page.locator("#w-word")).to_be_visible()
            if rnd == 3:
                expect(phones["Ben"].locator(".w-gallery")).to_have_attribute("open", "")
                expect(phones["Ben"].locator("#w-word")).to_be_in_viewport()
                assert (
                    phones["Ben"].evaluate("() => document.querySelector('.w-panel').getBoundingClientRect().top") >= 0
                )
            if rnd > 1:
                for name, page in phones.items():  # the last round's result and the gallery fold too
                    assert not small_tap_targets(page), (name, small_tap_targets(page))

            # The word field says at once what the rules will say.
            ana = phones["Ana"]
            ana.locator("#w-word").fill(_bad_word(tableau))
            expect(ana.locator("#w-word-verdict")).to_contain_text("Not in the Tableau")
            expect(ana.locator("[data-key='w-word']")).to_be_disabled()
            if rnd > 1:
                used = state.gallery[0]["word"]
                ana.locator("#w-word").fill(used.lower())
                expect(ana.locator("#w-word-verdict")).to_contain_text("Already in the Word Gallery")
                expect(ana.locator("[data-key='w-word']")).to_be_disabled()
            if rnd == 1:
                # ... the dictionary's answer too, before anything is sent: a word it lacks
                # may still be written (the table votes on it), a word it has says so.
                ana.locator("#w-word").fill(_not_a_word(tableau, state.language).lower())
                expect(ana.locator("#w-word-verdict [data-known='no']")).to_contain_text("Not in the dictionary")
                expect(ana.locator("[data-key='w-word']")).to_be_enabled()
                ana.locator("#w-word").fill(words[roster.index("Ana")].lower())
                expect(ana.locator("#w-word-verdict [data-known='yes']")).to_contain_text("In the dictionary")
                shoot("1-word")
            for seat, page in by_seat.items():
                page.locator("#w-word").fill(words[seat].lower())
                expect(page.locator("#w-word-verdict")).to_contain_text("✓")
                page.locator("[data-key='w-word']").click()
                expect(page.locator(".w-mine-word")).to_contain_text(words[seat])

            # Clues: a tap puts down every token the letter needs; at most five in all.
            for seat, page in by_seat.items():
                expect(page.locator(".w-phone")).to_have_attribute("data-phase", "clues")
                letter = words[seat][0]
                needed = words[seat].count(letter) if letter != "Q" else words[seat].count("Q")
                unused = [c for c in tableau if c not in words[seat].replace("QU", "Q")]
                if unused:
                    expect(page.locator(f".w-clue-pick button[data-letter='{unused[0]}']")).to_be_disabled()
                expect(page.locator("[data-key='w-drop']")).to_be_disabled()
                page.locator(f".w-clue-pick button[data-letter='{letter}']").click()
                expect(page.locator(".w-count")).to_have_attribute("data-tokens", str(needed))
                if rnd == 1 and seat == 0:
                    shoot("2-clues")
                page.locator("[data-key='w-drop']").click()

            # Before the reveal, no secret word reached the big screen.
            expect(screen.locator(".w-table")).to_have_attribute("data-phase", "halt")
            board_text = screen.locator("#tables").inner_text()
            received = "\n".join(frames)
            for word in words:
                assert word not in board_text
                assert f'"{word}"' not in received, f"the big screen was sent {word} before the reveal"

            # The halt: seat 0 catches seat 1's word, the others make no guess.
            for seat, page in by_seat.items():
                expect(page.locator(".w-clues li")).to_have_count(3)
                if seat == 0:
                    page.locator("#w-halt").fill(words[0].lower())
                    expect(page.locator("#w-halt-verdict")).to_contain_text("✗")
                    page.locator("#w-halt").fill(words[1].lower())
                    if rnd == 1:
                        shoot("3-halt")
                    page.locator("[data-key='w-halt']").click()
                else:
                    page.locator("[data-key='w-no-guess']").click()

            # The reveal: every screen shows the Halt! moment; then everyone votes.
            catcher, caught = roster[0], roster[1]
            expect(screen.locator(".w-halts.now")).to_contain_text(f"{catcher} caught {caught}'s {words[1]}")
            expect(tablet.locator(".w-challenge")).to_be_visible()
            # the captain sees who is still to vote, by name
            still = tablet.locator(".w-challenge .w-still")
            expect(still).to_have_attribute("data-waiting", "3")
            for name in NAMES:
                expect(still).to_contain_text(name)
            expect(by_seat[2].locator(".w-halts.now")).to_contain_text(words[1])
            if rnd == 1:
                shoot("4-reveal")
                for name, page in phones.items():
                    assert not serious_a11y(page, name), serious_a11y(page, name)
            # Ben (320x568) votes first, opens round 1's result and the gallery and scrolls
            # down to read them while the others vote: what he opened stays open through
            # the others' updates, and round 3's field comes back into his view by itself.
            ben = phones["Ben"]
            for page in sorted(by_seat.values(), key=lambda p: p is not ben):
                page.locator("[data-key='w-vote']").click()
                if page is ben and rnd == 2:  # round 1's result below: a page to scroll
                    expect(ben.locator("[data-key='w-vote']")).to_have_count(0)
                    for fold in (".w-last", ".w-gallery"):
                        ben.locator(f"{fold} > summary").click()
                        expect(ben.locator(fold)).to_have_attribute("open", "")
                    ben.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
                    assert ben.evaluate("() => document.querySelector('.w-panel').getBoundingClientRect().top") < 0
            if rnd < 3:
                for page in phones.values():
                    expect(page.locator(".w-last")).to_have_attribute("data-round", str(rnd))

        for page in (*phones.values(), tablet, screen):
            expect(page.locator(".w-over").first).to_be_visible()
        state = _state(db, table.pk)  # the last vote was taken: every screen says the game is over
        assert state.phase.value == "over"
        shoot("5-over")
        expect(host.locator("#result .w-result")).to_be_visible()
        assert re.search(r"\d", host.locator("#result .w-board").inner_text())
        assert not errors, errors
    finally:
        db.close()
