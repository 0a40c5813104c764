"""One party's printables, as one PDF or one kind at a time. The host's, for any game:

- `poster`: the join poster, with the join link's QR code and the game's steps for a
  guest (GamePrintables.poster_steps);
- `labels` (a game with the party's gifts only): a numbered label for every guest gift
  and every vault gift (the number only: who brought a gift, or what it is, is nobody's
  business while the game runs);
- `tents`: a folding table tent per table: the game's title, letter, seats, captain (and
  the captain tablet's pairing QR code, the tablet page: selectors.captain_pairing_url);

then the game's own (printables/game.py PartySheet: a scorecard, slips...). Every page
names the party's game by its title, never another's.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.utils.translation import gettext as _
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from games.registry import game_named

from .fonts import BOLD, COND, REGULAR
from .game import PartySheet, printables_of
from .selectors import PartySheets, TableSheet
from .sheet import (
    INCH,
    INK,
    PAGE_H,
    PAGE_W,
    Grid,
    draw_centred,
    draw_fitted,
    draw_qr,
    draw_wrapped,
    fit_size,
    new_canvas,
)

HOST_KINDS = ("poster", "labels", "tents")
NEEDS_SEATING = frozenset({"tents"})

LABEL_GRID = Grid(cols=3, rows=6, w=2.5 * INCH, h=1.75 * INCH)
MARGIN = 0.6 * INCH


class NotAvailable(Exception):
    """A kind that needs something the party does not have yet (tents need tables)."""


def kinds_of(game: str) -> tuple[str, ...]:
    """The kinds of a party's printables for the game named `game`, in the menu's order:
    the host's (labels only for a game with the party's gifts), then the game's."""
    gifts = game_named(game).features.gifts
    host = tuple(k for k in HOST_KINDS if gifts or k != "labels")
    own = tuple(sheet.kind for sheet in printables_of(game).sheets)
    taken = set(own) & {"all", *HOST_KINDS} or {k for k in own if own.count(k) > 1}
    if taken:  # a game's sheet never stands in for the host's, nor for another of its own
        raise ValueError(f"{game}'s printables name a kind twice or the host's: {sorted(taken)}")
    return host + own


def _drawers(game: str) -> dict[str, tuple[Callable[[Canvas, PartySheets], None], bool]]:
    """kind -> (draw, needs seating), the host's and the game's."""
    host: dict[str, Callable[[Canvas, PartySheets], None]] = {
        "poster": draw_poster,
        "labels": draw_labels,
        "tents": draw_tents,
    }
    out = {kind: (draw, kind in NEEDS_SEATING) for kind, draw in host.items()}
    sheets: list[PartySheet] = list(printables_of(game).sheets)
    out.update({s.kind: (s.draw, s.needs_seating) for s in sheets})
    return {kind: out[kind] for kind in kinds_of(game)}


def party_pdf(data: PartySheets, kinds: tuple[str, ...] | None = None) -> bytes:
    """The party's printables of `kinds` (None: every kind of its game) in one PDF."""
    drawers = _drawers(data.game)
    kinds = tuple(drawers) if kinds is None else kinds
    unknown = [k for k in kinds if k not in drawers]
    if unknown:
        raise ValueError(f"unknown printable {unknown[0]!r}: choose from {', '.join(drawers)}")
    if not data.seated:
        missing = [k for k in kinds if drawers[k][1]]
        if missing and len(kinds) == 1:
            raise NotAvailable(f"{missing[0]} need the party to be seated first")
        kinds = tuple(k for k in kinds if not drawers[k][1])
    buf = io.BytesIO()
    title = _("%(name)s — %(game)s printables") % {"name": data.name, "game": data.title}
    c = new_canvas(buf, title=title, author=data.title)
    for kind in kinds:
        drawers[kind][0](c, data)
    c.save()
    return buf.getvalue()


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
    vault = label in data.vault_labels
    c.saveState()
    c.setFillColorRGB(*INK)
    c.setFont(BOLD, 8)
    c.drawString(x + 12, y + h - 18, _("VAULT GIFT") if vault else _("GIFT"))
    c.setFillGray(0)
    size = fit_size(label, BOLD, w - 24, 64)
    draw_centred(c, label, y + h / 2 - size * 0.3, BOLD, size, x + w / 2)
    c.setFillGray(0.35)
    c.setFont(COND, 7)
    party = data.name if stringWidth(data.name, COND, 7) < w - 24 else data.name[:40] + "…"
    c.drawString(x + 12, y + 10, f"{party} · {data.title} · {data.code}")
    c.restoreState()


# --- poster ------------------------------------------------------------------------------


def draw_poster(c: Canvas, data: PartySheets) -> None:
    c.setFillColorRGB(*INK)
    draw_centred(c, data.title.upper(), PAGE_H - 1.1 * INCH, BOLD, 20)
    c.setFillGray(0)
    size = fit_size(data.name, BOLD, PAGE_W - 2 * MARGIN, 40)
    draw_centred(c, data.name, PAGE_H - 1.8 * INCH, BOLD, size)
    join = _("Join the heist: scan with your phone")
    draw_centred(c, join, PAGE_H - 2.45 * INCH, REGULAR, fit_size(join, REGULAR, PAGE_W - 2 * MARGIN, 18))
    qr = 4.2 * INCH
    draw_qr(c, data.join_url, (PAGE_W - qr) / 2, PAGE_H - 2.7 * INCH - qr, qr)
    y = PAGE_H - 2.95 * INCH - qr
    draw_centred(c, _("or open"), y, REGULAR, 12)
    c.setFillColorRGB(*INK)
    draw_centred(c, data.join_url, y - 20, BOLD, fit_size(data.join_url, BOLD, PAGE_W - 2 * MARGIN, 16))
    c.setFillGray(0)
    draw_centred(c, _("Join code"), y - 52, REGULAR, 13)
    draw_centred(c, " ".join(data.code), y - 100, BOLD, 46)
    if data.gifts:  # what to bring: a game with the party's gifts only
        facts = []
        if data.budget:
            facts.append(_("Gift budget: %(budget)s") % {"budget": data.budget})
        facts.append(_("Joke gifts welcome") if data.jokes_welcome else _("No joke gifts, please"))
        line = " · ".join(facts)
        draw_centred(c, line, y - 132, REGULAR, fit_size(line, REGULAR, PAGE_W - 2 * MARGIN, 13))
    steps = _(printables_of(data.game).poster_steps)
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
    c.drawString(MARGIN, top - 12, f"{data.name} · {data.title.upper()}")
    qr = 1.6 * INCH if table.pairing_url else 0
    qr_room = qr + 14 if qr else 0
    c.setFillGray(0)
    big = _("TABLE %(letter)s") % {"letter": table.letter}
    c.setFont(BOLD, fit_size(big, BOLD, PAGE_W - 2 * MARGIN - qr_room, 96))
    c.drawString(MARGIN, top - 110, big)
    captain = table.captain or _("chosen by the host")
    draw_fitted(
        c, _("Captain: %(name)s") % {"name": captain}, MARGIN, top - 138, REGULAR, 13, PAGE_W - 2 * MARGIN - qr_room
    )
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
        if s.starts_with:  # the gift the deal gives the seat (a game with the party's gifts)
            takes = _("takes gift %(gift)s") % {"gift": s.starts_with}
            draw_fitted(c, takes, x + 22 + name_w + 4, y, COND, 10, col_w - 22 - name_w - 8)
    if table.vault:
        vault = _("Vault: %(gifts)s") % {"gifts": ", ".join(table.vault)}
        draw_fitted(c, vault, MARGIN, 0.45 * INCH, COND, 10, PAGE_W - 2 * MARGIN)
