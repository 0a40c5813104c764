"""One party's printables, as one PDF or one kind at a time:

- `labels`: a numbered label for every guest gift and every vault gift (the number
  only: who brought a gift, or what it is, is nobody's business while the game runs);
- `poster`: the join poster, with the join link's QR code;
- `tents`: a folding table tent per table: letter, seats, captain (and the captain
  tablet's pairing QR code, the tablet page: selectors.captain_pairing_url);
- `slips`: name slips to draw each table's first starter, and with several tables the
  seat slips captains draw for the relay;
- `scorecard`: the rulebook's scorecard for playing on paper, one per table (a blank
  one before seating).
"""

from __future__ import annotations

import io

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from games.registry import DEFAULT_GAME, game_named

from .fonts import BOLD, COND, COND_BOLD, REGULAR
from .selectors import PartySheets, SeatLine, TableSheet
from .sheet import INCH, PAGE_H, PAGE_W, Grid, draw_qr, draw_wrapped, fit_size, new_canvas

KINDS = ("poster", "labels", "tents", "slips", "scorecard")
NEEDS_SEATING = frozenset({"tents"})

LABEL_GRID = Grid(cols=3, rows=6, w=2.5 * INCH, h=1.75 * INCH)
SLIP_GRID = Grid(cols=4, rows=8, w=1.875 * INCH, h=1.25 * INCH)
INK = (0.04, 0.43, 0.31)  # the app's green
MARGIN = 0.6 * INCH


class NotAvailable(Exception):
    """A kind that needs something the party does not have yet (tents need tables)."""


def party_pdf(data: PartySheets, kinds: tuple[str, ...] = KINDS) -> bytes:
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise ValueError(f"unknown printable {unknown[0]!r}: choose from {', '.join(KINDS)}")
    if not data.seated:
        missing = [k for k in kinds if k in NEEDS_SEATING]
        if missing and len(kinds) == 1:
            raise NotAvailable(f"{missing[0]} need the party to be seated first")
        kinds = tuple(k for k in kinds if k not in NEEDS_SEATING)
    buf = io.BytesIO()
    c = new_canvas(buf, title=_("%(name)s — Yankee Heist printables") % {"name": data.name})
    for kind in kinds:
        _DRAW[kind](c, data)
    c.save()
    return buf.getvalue()


def _center(c: Canvas, text: str, y: float, font: str, size: float, cx: float = PAGE_W / 2) -> None:
    c.setFont(font, size)
    c.drawCentredString(cx, y, text)


def _line(c: Canvas, text: str, x: float, y: float, font: str, size: float, width: float, minimum: float = 6) -> None:
    """One line at `size`, smaller if it would be wider than `width` (a longer
    translation; the English lines fit at their size)."""
    c.setFont(font, fit_size(text, font, width, size, minimum))
    c.drawString(x, y, text)


# --- labels ------------------------------------------------------------------------------


def draw_labels(c: Canvas, data: PartySheets) -> None:
    labels = list(data.gift_labels)
    per = LABEL_GRID.per_page
    for start in range(0, max(len(labels), 1), per):
        LABEL_GRID.draw_cut_grid(c)
        for i, label in enumerate(labels[start : start + per]):
            x, y = LABEL_GRID.cell(i)
            _label(c, data, label, x, y)
        c.showPage()


def _label(c: Canvas, data: PartySheets, label: str, x: float, y: float) -> None:
    w, h = LABEL_GRID.w, LABEL_GRID.h
    vault = label.startswith("V")
    c.saveState()
    c.setFillColorRGB(*INK)
    c.setFont(BOLD, 8)
    c.drawString(x + 12, y + h - 18, _("VAULT GIFT") if vault else _("GIFT"))
    c.setFillGray(0)
    size = fit_size(label, BOLD, w - 24, 64)
    _center(c, label, y + h / 2 - size * 0.3, BOLD, size, x + w / 2)
    c.setFillGray(0.35)
    c.setFont(COND, 7)
    party = data.name if stringWidth(data.name, COND, 7) < w - 24 else data.name[:40] + "…"
    c.drawString(x + 12, y + 10, f"{party} · Yankee Heist · {data.code}")
    c.restoreState()


# --- poster ------------------------------------------------------------------------------


def draw_poster(c: Canvas, data: PartySheets) -> None:
    c.setFillColorRGB(*INK)
    _center(c, "YANKEE HEIST", PAGE_H - 1.1 * INCH, BOLD, 20)
    c.setFillGray(0)
    size = fit_size(data.name, BOLD, PAGE_W - 2 * MARGIN, 40)
    _center(c, data.name, PAGE_H - 1.8 * INCH, BOLD, size)
    join = _("Join the heist: scan with your phone")
    _center(c, join, PAGE_H - 2.45 * INCH, REGULAR, fit_size(join, REGULAR, PAGE_W - 2 * MARGIN, 18))
    qr = 4.2 * INCH
    draw_qr(c, data.join_url, (PAGE_W - qr) / 2, PAGE_H - 2.7 * INCH - qr, qr)
    y = PAGE_H - 2.95 * INCH - qr
    _center(c, _("or open"), y, REGULAR, 12)
    c.setFillColorRGB(*INK)
    _center(c, data.join_url, y - 20, BOLD, fit_size(data.join_url, BOLD, PAGE_W - 2 * MARGIN, 16))
    c.setFillGray(0)
    _center(c, _("Join code"), y - 52, REGULAR, 13)
    _center(c, " ".join(data.code), y - 100, BOLD, 46)
    facts = []
    if data.budget:
        facts.append(_("Gift budget: %(budget)s") % {"budget": data.budget})
    facts.append(_("Joke gifts welcome") if data.jokes_welcome else _("No joke gifts, please"))
    line = " · ".join(facts)
    _center(c, line, y - 132, REGULAR, fit_size(line, REGULAR, PAGE_W - 2 * MARGIN, 13))
    steps = _(
        "Type your name and, in secret, what your gift is. Then write the number your phone shows on your wrapped gift."
    )
    c.setFont(REGULAR, 12)
    draw_wrapped(c, steps, MARGIN + 0.4 * INCH, y - 150, PAGE_W - 2 * MARGIN - 0.8 * INCH, REGULAR, 12, 15)
    c.showPage()


# --- table tents ---------------------------------------------------------------------------


def draw_tents(c: Canvas, data: PartySheets) -> None:
    """Letter, folded across the middle: the lower half faces one side of the table,
    the upper half (drawn upside down) the other."""
    for table in data.tables:
        c.saveState()
        c.setStrokeGray(0.62)
        c.setLineWidth(0.5)
        c.setDash(4, 4)
        c.line(0, PAGE_H / 2, PAGE_W, PAGE_H / 2)
        c.restoreState()
        _tent_half(c, data, table)
        c.saveState()
        c.translate(PAGE_W, PAGE_H)
        c.rotate(180)
        _tent_half(c, data, table)
        c.restoreState()
        c.showPage()


def _tent_half(c: Canvas, data: PartySheets, table: TableSheet) -> None:
    half = PAGE_H / 2
    top = half - 0.45 * INCH
    c.setFillColorRGB(*INK)
    c.setFont(BOLD, 12)
    c.drawString(MARGIN, top - 12, f"{data.name} · YANKEE HEIST")
    qr = 1.6 * INCH if table.pairing_url else 0
    qr_room = qr + 14 if qr else 0
    c.setFillGray(0)
    big = _("TABLE %(letter)s") % {"letter": table.letter}
    c.setFont(BOLD, fit_size(big, BOLD, PAGE_W - 2 * MARGIN - qr_room, 96))
    c.drawString(MARGIN, top - 110, big)
    captain = table.captain or _("chosen by the host")
    _line(c, _("Captain: %(name)s") % {"name": captain}, MARGIN, top - 138, REGULAR, 13, PAGE_W - 2 * MARGIN - qr_room)
    if table.pairing_url:
        draw_qr(c, table.pairing_url, PAGE_W - MARGIN - qr, top - 140, qr)
        pair = _("Captain's tablet: scan to pair")
        c.setFont(COND, fit_size(pair, COND, qr + 14, 8, 5))
        c.drawCentredString(PAGE_W - MARGIN - qr / 2, top - 150, pair)
    # Seats in two columns of up to five.
    col_w = (PAGE_W - 2 * MARGIN - qr_room) / 2
    y0 = top - 172
    for i, s in enumerate(table.seats):
        col, row = divmod(i, 5)
        x, y = MARGIN + col * col_w, y0 - row * 19
        c.setFont(BOLD, 12)
        c.drawString(x, y, f"{s.seat}")
        name_w = col_w - 110
        c.setFont(REGULAR, fit_size(s.name, REGULAR, name_w, 12))
        c.drawString(x + 22, y, s.name)
        takes = _("takes gift %(gift)s") % {"gift": s.starts_with}
        _line(c, takes, x + 22 + name_w + 4, y, COND, 10, col_w - 22 - name_w - 8)
    if table.vault:
        vault = _("Vault: %(gifts)s") % {"gifts": ", ".join(table.vault)}
        _line(c, vault, MARGIN, 0.45 * INCH, COND, 10, PAGE_W - 2 * MARGIN)


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
                _center(c, big, y + h / 2 - 6, BOLD, fit_size(big, BOLD, w - 16, 18), x + w / 2)
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
        _line(c, _(head), x + 3, top - 14, COND_BOLD, 8.5, w - 6, 5)
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
    _line(c, _("START HERE each round (it moves one seat clockwise after rounds 1, 2 and 3)"), x0, y, BOLD, 10, full)
    # The round names stay as printed on the cards.
    rounds = game_named(DEFAULT_GAME).rules_for_screens()["rounds"]  # through the seam, not games.yankee
    starts = [_("R%(n)s %(name)s: seat ____") % {"n": n, "name": rounds[str(n)]} for n in (1, 2, 3, 4)]
    _line(c, "        ".join(starts[:2]), x0, y - 18, REGULAR, 10, full)
    _line(c, "        ".join(starts[2:]), x0, y - 34, REGULAR, 10, full)
    y -= 60
    if multi:
        ring = " → ".join([*data.ring, data.ring[0]])
        _line(c, _("The relay (after round 2, ring %(ring)s)") % {"ring": ring}, x0, y, BOLD, 10, full)
        drawn = _("Seat drawn: ____   sent gift ______ to table ____   received gift ______ from table ____")
        _line(c, drawn, x0, y - 18, REGULAR, 10, full)
        y -= 44
    if table.vault or data.vault_size:
        labels = ", ".join(table.vault) if table.vault else "________"
        _line(c, _("Vault: %(gifts)s") % {"gifts": labels}, x0, y, BOLD, 10, full)
        back = _("At the end, still in the vault: ____________  (goes back to whoever gave it)")
        _line(c, back, x0, y - 18, REGULAR, 10, full)
        y -= 44
    _line(c, _("Gift moves (optional: for telling the story afterwards)"), x0, y, BOLD, 10, full)
    moves = _("round · turn · card (or SWIPE / vault) · gift ___ from ______ to ______ · blocked by ______ with ______")
    _line(c, moves, x0, y - 13, COND, 8, full, 5)
    y -= 20
    c.setStrokeGray(0.6)
    c.setLineWidth(0.4)
    while y - 18 > MARGIN:
        y -= 18
        c.line(x0, y, PAGE_W - MARGIN, y)


_DRAW = {
    "poster": draw_poster,
    "labels": draw_labels,
    "tents": draw_tents,
    "slips": draw_slips,
    "scorecard": draw_scorecard,
}
