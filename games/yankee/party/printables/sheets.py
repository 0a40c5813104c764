"""Yankee Heist's sheets among a party's printables (printables/game.py PartySheet):

- `slips`: name slips to draw each table's first START HERE, and with several tables the
  seat slips captains draw for the relay;
- `scorecard`: the rulebook's scorecard for playing on paper, one per table (a blank
  one before seating).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from reportlab.pdfgen.canvas import Canvas

from games.yankee.rules import ROUND_NAMES
from printables.fonts import BOLD, COND, COND_BOLD, REGULAR
from printables.selectors import PartySheets, SeatLine, TableSheet
from printables.sheet import INCH, INK, PAGE_H, PAGE_W, Grid, draw_centred, draw_fitted, draw_wrapped, fit_size

SLIP_GRID = Grid(cols=4, rows=8, w=1.875 * INCH, h=1.25 * INCH)
MARGIN = 0.6 * INCH


# --- slips ---------------------------------------------------------------------------------


def draw_slips(c: Canvas, data: PartySheets) -> None:
    """Fold each slip and draw one. Name slips pick a table's first START HERE (the
    app draws it itself; these are for paper play). Seat slips are the relay's draw."""
    slips: list[tuple[str, str, str]] = []  # (top line, big line, bottom line)
    if not data.tables:
        slips = [(_("START HERE?"), "", _("write a name, fold, draw one"))] * SLIP_GRID.per_page
    for table in data.tables:
        for s in table.seats:
            slips.append((_("TABLE %(letter)s · START HERE?") % {"letter": table.letter}, s.name, _("name slip")))
    if len(data.tables) > 1:
        ring = " → ".join([*data.ring, data.ring[0]])
        for table in data.tables:
            for s in table.seats:
                slips.append(
                    (
                        _("TABLE %(letter)s · RELAY") % {"letter": table.letter},
                        _("SEAT %(seat)s") % {"seat": s.seat},
                        _("ring %(ring)s") % {"ring": ring},
                    )
                )
    per = SLIP_GRID.per_page
    for start in range(0, len(slips), per):
        SLIP_GRID.draw_cut_grid(c)
        for i, (top, big, bottom) in enumerate(slips[start : start + per]):
            x, y = SLIP_GRID.cell(i)
            w, h = SLIP_GRID.w, SLIP_GRID.h
            c.setFillColorRGB(*INK)
            c.setFont(BOLD, fit_size(top, BOLD, w - 16, 7, 4))
            c.drawString(x + 8, y + h - 14, top)
            c.setFillGray(0)
            if big:
                draw_centred(c, big, y + h / 2 - 6, BOLD, fit_size(big, BOLD, w - 16, 18), x + w / 2)
            c.setFillGray(0.35)
            c.setFont(COND, fit_size(bottom, COND, w - 16, 6.5, 4))
            c.drawString(x + 8, y + 7, bottom)
        c.showPage()


# --- scorecard -----------------------------------------------------------------------------

SCORE_COLUMNS = (  # (heading, width in inches); the headings are msgids
    (gettext_noop("Seat"), 0.45),
    (gettext_noop("Player"), 1.9),
    (gettext_noop("Brought"), 0.7),
    (gettext_noop("Starts with"), 0.8),
    (gettext_noop("R1"), 0.42),
    (gettext_noop("R2"), 0.42),
    (gettext_noop("Relay"), 0.62),
    (gettext_noop("R3"), 0.42),
    (gettext_noop("R4"), 0.42),
    (gettext_noop("Leaves with"), 0.95),
)


def draw_scorecard(c: Canvas, data: PartySheets) -> None:
    tables = data.tables or (TableSheet("_", tuple(), None, tuple()),)
    for table in tables:
        _scorecard(c, data, table, multi=len(data.tables) > 1)
        c.showPage()


def _scorecard(c: Canvas, data: PartySheets, table: TableSheet, *, multi: bool) -> None:
    x0 = MARGIN
    y = PAGE_H - MARGIN
    c.setFillColorRGB(*INK)
    c.setFont(BOLD, 11)
    c.drawString(x0, y - 11, _("YANKEE HEIST · SCORECARD"))
    c.setFillGray(0)
    letter = table.letter if table.letter != "_" else "____"
    title = _("%(name)s · table %(letter)s") % {"name": data.name, "letter": letter}
    c.setFont(BOLD, fit_size(title, BOLD, PAGE_W - 2 * MARGIN, 20))
    c.drawString(x0, y - 36, title)
    y = draw_wrapped(
        c,
        _(
            "Tick R1-R4 when a player has taken their turn in that round (one turn each per round). "
            "Gift numbers are the numbered labels. 'Leaves with' is the gift in front of each player "
            "after LAST CALL's final action."
        ),
        x0,
        y - 46,
        PAGE_W - 2 * MARGIN,
        COND,
        9,
        11,
    )
    # The grid.
    row_h = 22
    widths = [w * INCH for _, w in SCORE_COLUMNS]
    rows: list[SeatLine | None] = [*table.seats] or [None] * 10  # no roster yet: ten blank lines
    top = y - 8
    c.setLineWidth(0.6)
    c.setStrokeGray(0.3)
    total_w = sum(widths)
    for r in range(len(rows) + 2):
        c.line(x0, top - r * row_h, x0 + total_w, top - r * row_h)
    x = x0
    for (head, _inches), w in zip(SCORE_COLUMNS, widths, strict=False):
        c.line(x, top, x, top - (len(rows) + 1) * row_h)
        draw_fitted(c, _(head), x + 3, top - 14, COND_BOLD, 8.5, w - 6, 5)
        x += w
    c.line(x, top, x, top - (len(rows) + 1) * row_h)
    for r, seat in enumerate(rows):
        base = top - (r + 2) * row_h + 7
        cells = [str(seat.seat), seat.name, seat.brought, seat.starts_with] if seat else [str(r + 1), "", "", ""]
        x = x0
        for text, w in zip(cells, widths, strict=False):
            c.setFont(REGULAR, fit_size(text, REGULAR, w - 6, 10))
            c.drawString(x + 3, base, text)
            x += w
        if not multi:  # no relay at a single table: cross the column out
            rx = x0 + sum(widths[:6])
            c.setFillGray(0.85)
            c.rect(rx, base - 7, widths[6], row_h, stroke=0, fill=1)
            c.setFillGray(0)
    y = top - (len(rows) + 1) * row_h - 22

    full = PAGE_W - 2 * MARGIN
    draw_fitted(
        c, _("START HERE each round (it moves one seat clockwise after rounds 1, 2 and 3)"), x0, y, BOLD, 10, full
    )
    # The round names stay as printed on the cards.
    starts = [_("R%(n)s %(name)s: seat ____") % {"n": n, "name": ROUND_NAMES[n]} for n in (1, 2, 3, 4)]
    draw_fitted(c, "        ".join(starts[:2]), x0, y - 18, REGULAR, 10, full)
    draw_fitted(c, "        ".join(starts[2:]), x0, y - 34, REGULAR, 10, full)
    y -= 60
    if multi:
        ring = " → ".join([*data.ring, data.ring[0]])
        draw_fitted(c, _("The relay (after round 2, ring %(ring)s)") % {"ring": ring}, x0, y, BOLD, 10, full)
        drawn = _("Seat drawn: ____   sent gift ______ to table ____   received gift ______ from table ____")
        draw_fitted(c, drawn, x0, y - 18, REGULAR, 10, full)
        y -= 44
    if table.vault or data.vault_size:
        labels = ", ".join(table.vault) if table.vault else "________"
        draw_fitted(c, _("Vault: %(gifts)s") % {"gifts": labels}, x0, y, BOLD, 10, full)
        back = _("At the end, still in the vault: ____________  (goes back to whoever gave it)")
        draw_fitted(c, back, x0, y - 18, REGULAR, 10, full)
        y -= 44
    draw_fitted(c, _("Gift moves (optional: for telling the story afterwards)"), x0, y, BOLD, 10, full)
    moves = _("round · turn · card (or SWIPE / vault) · gift ___ from ______ to ______ · blocked by ______ with ______")
    draw_fitted(c, moves, x0, y - 13, COND, 8, full, 5)
    y -= 20
    c.setStrokeGray(0.6)
    c.setLineWidth(0.4)
    while y - 18 > MARGIN:
        y -= 18
        c.line(x0, y, PAGE_W - MARGIN, y)
