"""A party in German with a Spanish phone at its table (issue 32), through a real
browser from the lobby to the end: every screen speaks its language at every phase, with
no English sentence of our catalogues left on it, and nothing runs off a phone at 320 px
or the big screen at 1280x720.

- the big screen and the captain's tablet: the party's language (German), whatever the
  browser says;
- a guest whose phone is set to Spanish: Spanish; one whose phone asks for French (no
  catalogue): the party's German; the host's laptop in English, switched to German with
  the switch on the page.

"English left" is measured against the catalogues themselves: a visible text (or an
aria-label, title or placeholder) equal to an English msgid whose translation differs.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import polib
import pytest
from playwright.sync_api import Page, expect

from tests import shorthand
from tests.browser.helpers import DbThread, bot_step, host_command, new_page, overflows, table_state
from tests.browser.screens import projector_checked
from tests.i18n.catalogues import catalogue_dirs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Oma Inge", "Tío Paco", "Lena", "Jonas", "Mia", "Felix", "Emma", "Paul", "Lara", "Ben", "Nora"]

# Every visible text, and the texts a screen reader says, of the page as it is now.
TEXTS = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('script, style, template, [hidden]')) continue;
    const t = n.textContent.replace(/\\s+/g, ' ').trim();
    if (t) out.push(t);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    for (const a of ['aria-label', 'title', 'placeholder']) {
      const v = el.getAttribute(a);
      if (v && v.trim()) out.push(v.replace(/\\s+/g, ' ').trim());
    }
  }
  return out;
}"""


PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def _english(lang: str) -> tuple[set[str], re.Pattern[str]]:
    """The English msgids a page in `lang` must not show: the whole texts, and one
    pattern for the sentences with placeholders (each placeholder any text), both only
    where the translation differs and the English has words of its own ("OK" is not)."""
    found: set[str] = set()
    patterns: list[str] = []
    # the host's catalogues and each game's own (issue 38)
    paths = [
        where / lang / "LC_MESSAGES" / f"{domain}.po" for where in catalogue_dirs() for domain in ("django", "djangojs")
    ]
    for path in filter(Path.exists, paths):
        for entry in polib.pofile(str(path)):
            for text in filter(None, (entry.msgid, entry.msgid_plural)):
                text = " ".join(text.split())
                translated = entry.msgstr or " ".join(entry.msgstr_plural.values())
                words = PLACEHOLDER.sub(" ", text)
                if "<" in text or len(text) < 4 or not re.search(r"[a-z]{3}.*\s.*[a-z]{3}|[a-z]{4}", words):
                    continue
                if " ".join(translated.split()) == text:
                    continue
                if PLACEHOLDER.search(text):
                    pieces = [re.escape(piece) for piece in PLACEHOLDER.split(text)[::2]]
                    patterns.append(".+?".join(pieces))
                elif "%" not in text:
                    found.add(text)
    return found, re.compile("|".join(f"(?:{p})" for p in patterns))


def test_a_german_party_with_a_spanish_phone_speaks_each_screens_language(asgi_server, browser, tmp_path):
    from events.models import Guest, Party
    from events.party.tablets import tablet_pair_start
    from games.yankee import Phase
    from tables.models import Table

    base = asgi_server
    errors: list[str] = []
    english = {"de": _english("de"), "es": _english("es")}
    assert len(english["de"][0]) > 200 and len(english["es"][0]) > 200, "the catalogues are filled"
    seen: dict[str, set[str]] = {}
    db = DbThread()
    try:

        def create():
            party, host_token = shorthand.party_create(name="Wichteln bei Oma", vault_size=1, language="de")
            Party.objects.filter(pk=party.pk).update(seed=11)
            seats = {}
            for name in NAMES:
                guest, token, _ = shorthand.guest_join(code=party.code, name=name, description=f"{name}s Geschenk")
                seats[name] = {"token": token, "guest": guest.pk, "gift_number": guest.gift_number}
            from events.party import services

            services.vault_gift_add(party_id=party.pk, contributor="Oma Inge", description="Plätzchen")
            services.vault_gift_add(party_id=party.pk, contributor="Oma Inge", description="Socken")
            return party.pk, party.code, host_token, seats

        party_id, code, host_token, seats = db(create)

        def seat_page(name: str, w: int, hgt: int, locale: str) -> Page:
            p = new_page(browser, w, hgt, errors, name, locale=locale)
            p.context.add_init_script(
                f"localStorage.setItem('heist.seat.{code}', {json.dumps(json.dumps(seats[name]))})"
            )
            p.goto(f"{base}/p/{code}/")
            return p

        pages: dict[str, tuple[Page, str]] = {}
        screen = new_page(browser, 1280, 720, errors, "screen", locale="en-US")
        screen.goto(f"{base}/screen/{code}/")
        pages["screen"] = (screen, "de")
        pages["Tío Paco"] = (seat_page("Tío Paco", 320, 568, "es-ES"), "es")
        pages["Oma Inge"] = (seat_page("Oma Inge", 360, 640, "fr-FR"), "de")
        host = new_page(browser, 1280, 720, errors, "host", locale="en-US")
        host.context.add_init_script(f"localStorage.setItem('heist.host.{code}', {json.dumps(host_token)})")
        host.goto(f"{base}/host/{code}/")
        expect(host.locator("html")).to_have_attribute("lang", "en")
        host.locator(".langs button[value='de']").click()  # the switch, as the host would
        expect(host.locator("html")).to_have_attribute("lang", "de")
        pages["host"] = (host, "de")
        for label, (page, lang) in pages.items():
            expect(page.locator("html")).to_have_attribute("lang", lang)
            page.wait_for_load_state("networkidle")

        def check(phase: str) -> None:
            for label, (page, lang) in pages.items():
                page.wait_for_timeout(300)  # the last update drawn
                whole, sentences = english[lang]
                left = sorted({t for t in page.evaluate(TEXTS) if t in whole or sentences.fullmatch(t)})
                assert not left, f"{label} ({lang}) at {phase} shows English: {left}"
                assert not overflows(page), f"{label} ({lang}) at {phase} runs off its screen sideways"
                seen.setdefault(label, set()).add(phase)
            # German's long words on the projector: one screen, nothing that matters cut short.
            projector_checked(screen, tmp_path, f"screen-{phase.replace(':', '-')}", sizes=((1280, 720),))

        check("lobby")
        db(host_command, party_id, "seat")
        tables = db(
            lambda: list(Table.objects.filter(party_id=party_id).order_by("letter").values_list("pk", flat=True))
        )
        pairing = db(lambda: tablet_pair_start(party_id=party_id, table_id=tables[0]).data["pairing"])
        tablet = new_page(browser, 800, 1280, errors, "tablet", locale="es-ES")
        tablet.goto(f"{base}/t/{code}/#{pairing}")
        expect(tablet.locator("html")).to_have_attribute("lang", "de")
        expect(tablet.locator(".tablet-head h1")).to_be_visible()
        pages["tablet"] = (tablet, "de")
        for name in ("Tío Paco", "Oma Inge"):
            expect(pages[name][0].locator(".seat-head h1")).to_be_visible()
        check("dealt")

        where = db(lambda: {g.name: (g.table_id, g.seat) for g in Guest.objects.filter(party_id=party_id)})
        rands = {t: random.Random(i) for i, t in enumerate(tables)}
        phases_checked: set[str] = set()

        def drive(stop) -> None:
            for _ in range(3000):
                states = {t: db(table_state, t) for t in tables}
                if all(stop(g) for g in states.values()):
                    return
                for t, g in states.items():
                    if stop(g):
                        continue
                    # A phone asked to decide is checked while it is asked, once per kind.
                    for name in ("Tío Paco", "Oma Inge"):
                        tid, seat = where[name]
                        asked = (g.phase is Phase.ACTION and g.active == seat) or (
                            g.phase is Phase.REACTION and seat in g.pending.window.waiting()
                        )
                        key = f"{name}:{g.phase.value}"
                        if tid == t and asked and key not in phases_checked:
                            phases_checked.add(key)
                            expect(pages[name][0].locator("#prompt")).to_be_visible()
                            check(key)
                    if g.phase.value not in phases_checked:
                        phases_checked.add(g.phase.value)
                        check(g.phase.value)
                    db(bot_step, t, rands[t])
            raise AssertionError("the party did not get there")

        drive(lambda g: g.phase is Phase.GATE)
        check("gate")
        db(host_command, party_id, "open_relay")
        for t in tables:
            db(bot_step, t, rands[t])
        db(host_command, party_id, "run_relay")
        expect(screen.locator(".relay-moves .move")).to_have_count(2)
        check("relay")
        db(host_command, party_id, "confirm_all_deliveries")
        drive(lambda g: g.phase is Phase.OVER)
        db(host_command, party_id, "end")
        screen.wait_for_timeout(1000)
        check("over")
        assert {"Tío Paco:action", "Oma Inge:action"} <= phases_checked, phases_checked
        print("checked:", {k: sorted(v) for k, v in seen.items()})
        assert not errors, errors
    finally:
        db.close()


ROYAL_PHONE = "#phone .r-phone"


def test_a_spanish_royal_party_with_a_german_phone_speaks_each_screens_language(asgi_server, browser):
    """Royal Heist, the second game, the same way: a Spanish party, one phone in German
    and one in Spanish, the host's laptop in German; the big screen and the tablet in
    Spanish; every screen checked at each step until the game is over, then the story."""
    from events.party.tablets import tablet_pair_start
    from tables.models import Table

    base = asgi_server
    errors: list[str] = []
    english = {"de": _english("de"), "es": _english("es")}
    db = DbThread()
    try:

        def create():
            party, host_token = shorthand.party_create(name="Golpe en casa", game="royal", games=1, language="es")
            seats = {}
            for name in ("Abuela", "Lena", "Paco"):
                guest, token, _ = shorthand.guest_join(code=party.code, name=name, description="")
                seats[name] = {"token": token, "guest": guest.pk, "gift_number": guest.gift_number}
            return party.pk, party.code, host_token, seats

        party_id, code, host_token, seats = db(create)
        pages: dict[str, tuple[Page, str]] = {}
        screen = new_page(browser, 1280, 720, errors, "screen", locale="de-DE")
        screen.goto(f"{base}/screen/{code}/")
        pages["screen"] = (screen, "es")
        host = new_page(browser, 1280, 720, errors, "host", locale="de-DE")
        host.context.add_init_script(f"localStorage.setItem('heist.host.{code}', {json.dumps(host_token)})")
        host.goto(f"{base}/host/{code}/")
        pages["host"] = (host, "de")
        for name, locale, lang in (("Abuela", "es-ES", "es"), ("Lena", "de-AT", "de"), ("Paco", "es-MX", "es")):
            p = new_page(browser, 320, 640, errors, name, locale=locale)
            p.context.add_init_script(
                f"localStorage.setItem('heist.seat.{code}', {json.dumps(json.dumps(seats[name]))})"
            )
            p.goto(f"{base}/p/{code}/")
            pages[name] = (p, lang)

        def check(phase: str) -> None:
            for label, (page, lang) in pages.items():
                expect(page.locator("html")).to_have_attribute("lang", lang)
                whole, sentences = english[lang]
                left = sorted({t for t in page.evaluate(TEXTS) if t in whole or sentences.fullmatch(t)})
                assert not left, f"{label} ({lang}) at {phase} shows English: {left}"
                assert not overflows(page), f"{label} ({lang}) at {phase} runs off its screen sideways"

        for page, _ in pages.values():
            page.wait_for_load_state("networkidle")
        check("lobby")
        db(host_command, party_id, "seat")
        table = db(lambda: Table.objects.get(party_id=party_id).pk)
        pairing = db(lambda: tablet_pair_start(party_id=party_id, table_id=table).data["pairing"])
        tablet = new_page(browser, 800, 1280, errors, "tablet", locale="en-US")
        tablet.goto(f"{base}/t/{code}/#{pairing}")
        expect(tablet.locator("#tablet .r-table:not(.tile)")).to_be_visible()
        pages["tablet"] = (tablet, "es")
        phones = [pages[n][0] for n in ("Abuela", "Lena", "Paco")]
        for phone in phones:
            expect(phone.locator(ROYAL_PHONE)).to_be_visible()
        check("seated")

        r = random.Random(5)
        steps = 0
        for _ in range(400):
            if all(p.locator(f"{ROYAL_PHONE}[data-phase=over]").count() for p in phones):
                break
            for phone in phones:
                buttons = phone.locator(f"{ROYAL_PHONE} button.r-decide:not([disabled])")
                if buttons.count() != 2:
                    continue
                if steps % 4 == 0:
                    check(f"decide {steps}")
                choice = "press_on" if r.random() < 0.7 else "get_out"
                phone.locator(f"{ROYAL_PHONE} button[data-choice={choice}]").click()
                steps += 1
            phones[0].wait_for_timeout(100)
        else:
            raise AssertionError("the game did not end")
        for page, _ in pages.values():
            expect(page.locator(".r-status.over").first).to_be_visible()
        check("over")
        # The story, on a phone in Spanish and one in German.
        for name in ("Paco", "Lena"):
            page = pages[name][0]
            page.goto(f"{base}/story/{code}/")
            expect(page.locator("#story-tables")).to_be_visible()
        story = {name: pages[name] for name in ("Paco", "Lena")}
        pages.clear()
        pages.update(story)
        check("story")
        assert steps >= 3
        assert not errors, errors
    finally:
        db.close()
