"""What the 100-guest browser tests check on every seated phone (issue 40): it names its
table and seat; the decision in front of it (its choices and confirm) is on one screen
at 390x844 and, at 320x568, each choice is on the screen uncovered when brought there;
and a captain's own phone passes a quiet guest's step once its clock ran out."""

from __future__ import annotations

from datetime import timedelta

from playwright.sync_api import Page, expect

SMALL = (320, 568)


def names_its_table(page: Page, letter: str, seat: int) -> None:
    """The phone's heading says the table and the seat, on the first screen."""
    head = page.locator(".seat-head h1")
    expect(head).to_have_attribute("aria-label", f"Table {letter}, seat {seat + 1}")
    expect(head.locator(".table-letter")).to_have_text(letter)
    page.evaluate("() => scrollTo(0, 0)")
    box = head.bounding_box()
    assert box is not None and box["y"] + box["height"] <= page.viewport_size["height"], box


def _off_or_covered(page: Page, selector: str, scroll_to: str | None) -> list[str]:
    """Each element matching `selector` (scrolled onto the screen first with `scroll_to`
    as scrollIntoView's block, or where it is now): off the screen, or under something."""
    got = page.evaluate(
        """([sel, block]) => [...document.querySelectorAll(sel)].flatMap((el) => {
            if (block) el.scrollIntoView({ block });
            const r = el.getBoundingClientRect();
            const label = (el.id || el.textContent).trim().slice(0, 40);
            if (r.top < -1 || r.bottom > innerHeight + 1 || r.left < -1 || r.right > innerWidth + 1) return [`${label}: off the screen`];
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 20));
            return el.contains(hit) ? [] : [`${label}: under ${hit && (hit.id || hit.className)}`];
        })""",
        [selector, scroll_to],
    )
    return list(got)


def decision_fits(
    page: Page, selector: str, label: str, *, top: str | None = None, first_screen: bool = False
) -> list[str]:
    """At the page's own size (390x844 or larger): every control of the decision on the screen at
    once, uncovered, with the page scrolled to `top` (a selector brought to the screen's
    top, as the phone does with its prompt) or where it is. Then at 320x568: each
    control brought onto the screen from below and from above, uncovered (and, with
    `first_screen`, on the screen unscrolled). Returns the problems, named by `label`."""
    problems: list[str] = []
    expect(page.locator("#conn")).to_be_hidden(timeout=6000)  # "Connected" shows 2.5 s after (re)connecting
    if top:
        page.evaluate("(sel) => document.querySelector(sel).scrollIntoView({ block: 'start' })", top)
    size = page.viewport_size
    if size["width"] >= 390 and size["height"] >= 844:  # a narrower phone: reachable, below
        problems += [f"{label} at {size['width']}x{size['height']}: {p}" for p in _off_or_covered(page, selector, None)]
    before = page.viewport_size
    page.set_viewport_size({"width": SMALL[0], "height": SMALL[1]})
    try:
        page.wait_for_timeout(50)  # a frame for the layout
        if first_screen:  # a screen that does not scroll itself: the decision on its first screen
            page.evaluate("() => scrollTo(0, 0)")
            problems += [f"{label} at 320x568, unscrolled: {p}" for p in _off_or_covered(page, selector, None)]
        for block in ("end", "start"):
            problems += [f"{label} at 320x568: {p}" for p in _off_or_covered(page, selector, block)]
    finally:
        page.set_viewport_size(before)
        if top:
            page.evaluate("(sel) => document.querySelector(sel).scrollIntoView({ block: 'start' })", top)
    return problems


def clock_ran_out(table_id: int, seconds: int = 60) -> None:
    """The table's step clock on (a person plays the stand-in) and the step waiting now
    ran out a second ago. In the database thread; screens see it with the next update."""
    from django.utils import timezone

    from tables.models import Table

    Table.objects.filter(pk=table_id).update(
        step_clock=seconds, step_clock_server=False, step_due_at=timezone.now() - timedelta(seconds=1)
    )


def clock_off(table_id: int) -> None:
    from tables.models import Table

    Table.objects.filter(pk=table_id).update(step_clock=0, step_due_at=None)


def make_captain(code: str, guest_id: int) -> None:
    """The host makes this guest their table's captain (in the database thread)."""
    from events.models import Party
    from events.party import services

    services.party_set_captain(party_id=Party.objects.get(code=code).pk, guest_id=guest_id)


def stand_in_rows(table_id: int, version: int) -> list[tuple[int, str, dict]]:
    from tables.models import TableAction

    return list(
        TableAction.objects.filter(table_id=table_id, version__gt=version)
        .order_by("version")
        .values_list("version", "actor", "action")
    )
