"""Helpers shared by the browser tests: pages in their own browser contexts, waiting
for a screen to reach a table version, and database reads off Playwright's thread."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from playwright.sync_api import Page

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def in_thread(fn):
    """Run a database read off this thread: Playwright's sync API keeps an event loop
    running here, and Django refuses synchronous queries from such a thread."""
    from django.db import connections

    def run():
        try:
            return fn()
        finally:
            connections.close_all()  # this thread's connection, before the db is flushed

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


class DbThread:
    """One worker thread (and one database connection) for many reads and writes;
    `close()` closes its connection before pytest-django flushes the database."""

    def __init__(self):
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db")

    def __call__(self, fn, *args, **kwargs):
        return self.pool.submit(fn, *args, **kwargs).result()

    def close(self):
        from django.db import connections

        try:
            self.pool.submit(connections.close_all).result()
        finally:
            self.pool.shutdown()


def new_page(browser, width, height, errors, label, **context_args) -> Page:
    """A page in a browser context of its own (its own localStorage: its own seat)."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1, **context_args)
    # Every Content-Security-Policy violation is an error too (the screens must run
    # under the strict policy config/headers.py sends).
    ctx.add_init_script(CSP_REPORTER)
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda e: errors.append(f"{label}: {e}"))
    page.on("console", lambda m: _note_csp(m, errors, label))
    return page


CSP_REPORTER = """document.addEventListener('securitypolicyviolation', (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`);
});"""


def _note_csp(message, errors, label) -> None:
    text = message.text
    if "CSP violation" in text or "Content Security Policy" in text:
        errors.append(f"{label}: {text}")


def version_of(page: Page, selector: str) -> int:
    return int(page.locator(selector).get_attribute("data-version"))


def wait_version(page: Page, selector: str, version: int) -> None:
    page.wait_for_function(
        "([sel, v]) => { const el = document.querySelector(sel); return !!el && Number(el.dataset.version) >= v; }",
        arg=[selector, version],
    )


# A finger's target on a phone or tablet; a pointer's on the host's laptop dashboard, which
# must show every table at 1366x768 (issue 40): WCAG 2.2's minimum target size (2.5.8, AA).
TOUCH_TARGET_PX = 44
POINTER_TARGET_PX = 24


def small_tap_targets(page: Page, least: int = TOUCH_TARGET_PX) -> list[str]:
    """Visible buttons, links styled as buttons and summaries under `least` px tall."""
    return page.eval_on_selector_all(
        "button, a.btn, summary, label.mode",
        """(els, least) => els.filter(e => {
            const r = e.getBoundingClientRect();
            return r.width > 0 && r.height > 0 && r.height < least;
        }).map(e => (e.getAttribute('aria-label') || e.textContent).trim().slice(0, 60))""",
        least,
    )


def overflows(page: Page) -> bool:
    """Whether the page scrolls sideways (it must not, down to 360 px)."""
    return page.evaluate("() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1")


def fits(page: Page) -> bool:
    """The page shows in its viewport without scrolling, down or sideways."""
    return page.evaluate(
        """() => { const d = document.documentElement;
                   return d.scrollHeight <= window.innerHeight + 1 && d.scrollWidth <= d.clientWidth + 1; }"""
    )


def serious_a11y(page: Page, label: str) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{label}: {v['id']} ({v['impact']}) {v['help']}: {[n['target'] for n in v['nodes'][:4]]}"
        for v in results.response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]


# A party driven in process, as the sockets' commands would drive it: the host's party
# commands and the engine's bot at a table, their broadcasts sent after the commit.
def send_outcome(outcome) -> None:
    from events.broadcast.groups import send_on_commit

    send_on_commit(outcome.messages)


def host_command(party_id: int, command: str) -> None:
    from events.party.commands import dispatch
    from events.party.roles import Actor, Role

    send_outcome(dispatch(Actor(Role.HOST, party_id), {"type": "party", "command": command}))


def bot_step(table_id: int, r) -> None:
    """One bot action at the table, broadcast (the reveal and the relay draw as the host)."""
    from events.party.commands import table_act
    from events.party.roles import Actor, Role
    from games.yankee import Game, Phase
    from tables.models import Table
    from tests.live.tables import bot_move

    table = Table.objects.get(pk=table_id)
    if Game.from_dict(table.state).phase is Phase.GATE:
        actor, wire = Actor(Role.HOST, table.party_id), {"type": "draw_relay_seat"}
    else:
        _, actor, wire = bot_move(table_id, r)
    send_outcome(table_act(actor=actor, table_id=table_id, action=wire, expected_version=table.version))


def table_state(table_id: int):
    from games.yankee import Game
    from tables.models import Table

    return Game.from_dict(Table.objects.get(pk=table_id).state)
