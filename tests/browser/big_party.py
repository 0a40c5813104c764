"""What a browser test of a whole party (100 guests, or 40) keeps and sets up the same
way at every game: its pages (the host's dashboard, the big screen, phones, tablets),
its bot guests on real sockets with their pinger, its database thread, the laps and
screenshots, the pages' errors and the accessibility findings. Used as a context manager:
on a failure every page's screenshot is taken; at the end the laps are printed and the
bots, the pinger and the database thread closed."""

from __future__ import annotations

import json
import time
from types import TracebackType
from typing import Any

from playwright.sync_api import Page

from tests.browser.helpers import SHOTS, DbThread, new_page
from tests.browser.party_driver import Pinger, WsBot


class PartyOnScreens:
    def __init__(self, browser: Any, base: str, shots: str) -> None:
        self.browser = browser
        self.base = base
        self.shots = shots  # the screenshots' prefix: artifacts/screenshots/<shots>-<name>.png
        self.started = time.monotonic()
        self.errors: list[str] = []  # the pages' errors and CSP violations
        self.a11y: list[str] = []  # axe-core's serious and critical findings
        self.db = DbThread()
        self.bots: dict[int, WsBot] = {}
        self.pinger: Pinger | None = None
        self.pages: dict[str, Page] = {}
        self.laps: list[str] = []
        self.said: dict[str, object] = {}  # more to print at the end, with the laps
        SHOTS.mkdir(parents=True, exist_ok=True)

    def __enter__(self) -> PartyOnScreens:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        try:
            if kind is not None:
                for label, page in list(self.pages.items()):
                    try:
                        page.screenshot(path=str(SHOTS / f"{self.shots}-FAILED-{label}.png"))
                    except Exception:
                        pass
        finally:
            print(f"\nlaps: {self.laps}" + "".join(f"; {k}: {v}" for k, v in self.said.items()))
            if self.pinger:
                self.pinger.close()
            for bot in self.bots.values():
                bot.close()
            self.db.close()

    def lap(self, label: str) -> None:
        self.laps.append(f"{label} {time.monotonic() - self.started:.0f}s")

    def shot(self, page: Page, name: str, full: bool = False) -> None:
        page.screenshot(path=str(SHOTS / f"{self.shots}-{name}.png"), full_page=full)

    def page(self, label: str, width: int, height: int, **context_args: Any) -> Page:
        """A new page in a context of its own, its errors noted, screenshot on a failure."""
        page = self.pages[label] = new_page(self.browser, width, height, self.errors, label, **context_args)
        return page

    def host_page(self, code: str, host_token: str) -> Page:
        """The host's dashboard on a 1366x768 laptop, holding the party's host secret."""
        host = self.page("host", 1366, 768)
        host.context.add_init_script(f"localStorage.setItem('heist.host.{code}', {json.dumps(host_token)})")
        host.goto(f"{self.base}/host/{code}/")
        return host

    def screen_page(self, code: str) -> Page:
        """The big screen at 1920x1080."""
        screen = self.page("screen", 1920, 1080)
        screen.goto(f"{self.base}/screen/{code}/")
        return screen

    def join_bots(self, code: str, count: int) -> dict[int, str]:
        """`count` guests "Guest 1", "Guest 2"... join with no description: guest id -> secret."""
        from tests import shorthand

        def join() -> dict[int, str]:
            tokens = {}
            for i in range(count):
                guest, token, _ = shorthand.guest_join(code=code, name=f"Guest {i + 1}", description="")
                tokens[guest.pk] = token
            return tokens

        tokens: dict[int, str] = self.db(join)
        return tokens

    def connect_bots(self, code: str, tokens: dict[int, str], *, timeout: float = 15) -> None:
        """A bot on a real socket for every guest of `tokens`: every socket opens, then
        every hello is answered with the guest's seat; then the pinger keeps them alive."""
        hellos = []
        for gid, token in tokens.items():
            self.bots[gid] = WsBot(self.base, code, f"g{gid}")
            hellos.append((self.bots[gid], self.bots[gid].send({"type": "hello", "role": "guest", "token": token})))
        for bot, re_id in hellos:
            reply = bot.wait(re_id, timeout=timeout)
            assert reply["type"] == "snapshot" and reply["table"], (bot.label, reply)
        self.pinger = Pinger(self.bots)

    def seat_ids(self, phones: dict[str, Page], code: str) -> dict[int, str]:
        """The guest id each phone joined as (its seat's secret in localStorage) -> its name."""
        return {
            json.loads(p.evaluate(f"localStorage.getItem('heist.seat.{code}')"))["guest"]: name
            for name, p in phones.items()
        }
