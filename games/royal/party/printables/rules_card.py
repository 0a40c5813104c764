"""Royal Heist's rules card: one page, on US Letter (the default, like every printable)
or A4, meant to be printed at 100 %. The words are rules_words.py's, the numbers the
engine's.

The card is drawn inside the area both papers hold (A4's width, Letter's height, less a
half-inch margin), centred on the page: the same card on either paper, with a printer's
unprintable edge well outside it. Its type is as large as fits, never below MIN_SIZE; a
text that would not fit at MIN_SIZE raises DoesNotFit instead of running off the page.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from games.royal.definition import ROYAL
from printables.fonts import BOLD, COND, COND_BOLD, REGULAR, register_fonts
from printables.sheet import COMMON_H, COMMON_W, INCH, PAPERS, draw_lines, new_canvas, wrap

from .rules_words import Item, Pile, RulesCard, royal_rules_card

MARGIN = 0.5 * INCH  # inside the area both papers hold
START_SIZE = 12.0  # the body text's largest size
MIN_SIZE = 8.5  # the smallest body text that still reads on a table at arm's length
STEP = 0.25

ROYAL_COLOR = (0.33, 0.16, 0.52)  # a royal purple: dark enough to read in grayscale
TINT = (0.94, 0.92, 0.97)  # the goal's and the house rules' background
TEXT_GRAY = 0.25
FOOTER_SIZE = 7.5
TITLE_SIZE = 34.0
PAPER_NAMES = {"letter": "US Letter", "a4": "A4"}  # as the footer and the PDF's title say them


class DoesNotFit(ValueError):
    """The card's words do not fit its page at MIN_SIZE."""


@dataclass(frozen=True)
class Box:
    x: float
    y: float  # bottom
    w: float
    h: float

    @property
    def top(self) -> float:
        return self.y + self.h

    @property
    def right(self) -> float:
        return self.x + self.w


def content_box(paper: str) -> Box:
    """Where the card is drawn on `paper` ("letter" or "a4"): the same size on both."""
    page_w, page_h = PAPERS[paper]
    w, h = COMMON_W - 2 * MARGIN, COMMON_H - 2 * MARGIN
    return Box((page_w - w) / 2, (page_h - h) / 2, w, h)


@dataclass(frozen=True)
class Style:
    size: float  # the body text
    gap: float  # between sections

    @property
    def leading(self) -> float:
        return self.size * 1.25

    @property
    def label(self) -> float:  # a step's or a house rule's name
        return self.size * 1.08

    @property
    def heading(self) -> float:
        return self.size * 1.3


def _heading(c: Canvas, text: str, box: Box, y: float, st: Style) -> float:
    """A section's heading in the card's colour, a thin rule under it."""
    c.setFillColorRGB(*ROYAL_COLOR)
    y = draw_lines(c, [text], box.x, y, COND_BOLD, st.heading)
    c.setStrokeColorRGB(*ROYAL_COLOR)
    c.setLineWidth(0.6)
    c.line(box.x, y - 1, box.right, y - 1)
    c.setFillGray(0)
    return y - 1 - st.size * 0.55


def _labelled(c: Canvas, items: tuple[Item, ...], box: Box, y: float, st: Style, *, numbered: bool) -> float:
    """Name on the left (after a numbered disc for steps), text on the right."""
    r = st.size * 0.82  # a step's disc
    name_x = box.x + (2 * r + st.size * 0.45 if numbered else 0)
    # The names' column is as wide as the widest name; the text takes the rest.
    text_x = name_x + max(stringWidth(item.name, COND_BOLD, st.label) for item in items) + st.size
    text_w = box.right - text_x
    if text_w < box.w / 2:
        raise DoesNotFit("the names leave the text less than half the width")
    for n, item in enumerate(items, 1):
        baseline = y - st.size  # the name's and the text's first line share it
        if numbered:
            cy = baseline + st.size * 0.36
            c.setFillColorRGB(*ROYAL_COLOR)
            c.circle(box.x + r, cy, r, stroke=0, fill=1)
            c.setFillGray(1)
            c.setFont(BOLD, st.size)
            c.drawCentredString(box.x + r, cy - st.size * 0.36, str(n))
        c.setFillColorRGB(*ROYAL_COLOR)
        name_end = draw_lines(c, [item.name], name_x, baseline + st.label, COND_BOLD, st.label)
        c.setFillGray(0)
        text_end = draw_lines(c, wrap(item.text, REGULAR, st.size, text_w), text_x, y, REGULAR, st.size, st.leading)
        y = min(name_end, text_end) - st.size * 0.5
    return y + st.size * 0.5


def _pile(c: Canvas, pile: Pile, box: Box, y: float, st: Style, height: float | None) -> float:
    """A pile's frame: its name and count, then its bullets. `height` None measures."""
    pad = st.size * 0.7
    inner = box.w - 2 * pad
    c.setFillColorRGB(*ROYAL_COLOR)
    below = draw_lines(
        c,
        [
            ngettext("%(pile)s · %(count)s CARD", "%(pile)s · %(count)s CARDS", pile.count)
            % {"pile": pile.name, "count": pile.count}
        ],
        box.x + pad,
        y - pad,
        COND_BOLD,
        st.label,
    )
    c.setFillGray(0)
    bullet_w = stringWidth("•  ", REGULAR, st.size)
    for line in pile.lines:
        below -= st.size * 0.3
        c.setFont(REGULAR, st.size)
        c.drawString(box.x + pad, below - st.size, "•")
        below = draw_lines(c, wrap(line, COND, st.size, inner - bullet_w), box.x + pad + bullet_w, below, COND, st.size)
    bottom = below - pad
    if height is not None:
        c.setStrokeColorRGB(*ROYAL_COLOR)
        c.setLineWidth(1.0)
        c.roundRect(box.x, y - height, box.w, height, 6, stroke=1, fill=0)
    return bottom


def _piles(c: Canvas, piles: tuple[Pile, Pile], box: Box, y: float, st: Style) -> float:
    """The two piles side by side in frames of one height: the run deck the wider."""
    gutter = st.size
    run_w = (box.w - gutter) * 0.62
    boxes = (Box(box.x, 0, run_w, 0), Box(box.x + run_w + gutter, 0, box.w - run_w - gutter, 0))
    scratch = Canvas(io.BytesIO())
    height = max(y - _pile(scratch, p, b, y, st, None) for p, b in zip(piles, boxes, strict=True))
    for p, b in zip(piles, boxes, strict=True):
        _pile(c, p, b, y, st, height)
    return y - height


def _tinted(c: Canvas, box: Box, y: float, st: Style, draw: Callable[[Canvas, Box, float], float]) -> float:
    """A tinted background behind what `draw` draws (inside `box`, from y down)."""
    pad = st.size * 0.6
    inner = Box(box.x + pad, 0, box.w - 2 * pad, 0)
    scratch = Canvas(io.BytesIO())
    height = y - draw(scratch, inner, y - pad) + pad
    c.setFillColorRGB(*TINT)
    c.roundRect(box.x, y - height, box.w, height, 5, stroke=0, fill=1)
    c.setFillGray(0)
    draw(c, inner, y - pad)
    return y - height


def _layout(c: Canvas, card: RulesCard, box: Box, st: Style, paper: str) -> float:
    """Draw the card top down inside `box`; return the lowest y drawn (the footer aside)."""
    y = box.top
    c.setFillColorRGB(*ROYAL_COLOR)
    c.setFont(BOLD, 9)
    rules_card = _("RULES CARD")
    c.drawRightString(box.right, y - 9, rules_card)
    if stringWidth(card.title, COND_BOLD, TITLE_SIZE) > box.w - stringWidth(rules_card, BOLD, 9) - 12:
        raise DoesNotFit("the title is wider than the page")
    y = draw_lines(c, [card.title], box.x, y, COND_BOLD, TITLE_SIZE)
    c.setFillGray(TEXT_GRAY)
    y = draw_lines(c, wrap(card.tagline, REGULAR, st.size, box.w), box.x, y - 4, REGULAR, st.size, st.leading)
    c.setStrokeColorRGB(*ROYAL_COLOR)
    c.setLineWidth(1.6)
    c.line(box.x, y - 3, box.right, y - 3)
    y -= 3 + st.gap

    def goal(cv: Canvas, inner: Box, top: float) -> float:
        cv.setFillColorRGB(*ROYAL_COLOR)
        label = _("GOAL") + "  "
        cv.setFont(COND_BOLD, st.heading)
        cv.drawString(inner.x, top - st.heading, label)
        indent = stringWidth(label, COND_BOLD, st.heading)
        cv.setFillGray(0)
        lines = wrap(card.goal, BOLD, st.label, inner.w - indent)
        return draw_lines(cv, lines, inner.x + indent, top - (st.heading - st.label), BOLD, st.label)

    y = _tinted(c, box, y, st, goal) - st.gap
    y = _heading(c, _("THE CARDS"), box, y, st)
    y = _piles(c, card.piles, box, y, st)
    c.setFillGray(TEXT_GRAY)
    y = draw_lines(c, wrap(card.table, REGULAR, st.size, box.w), box.x, y - st.size * 0.5, REGULAR, st.size)
    c.setFillGray(0)
    y -= st.gap
    y = _heading(c, _("A HEIST, STEP BY STEP"), box, y, st)
    y = _labelled(c, card.steps, box, y, st, numbered=True) - st.gap
    y = _heading(c, _("SCORING"), box, y, st)
    y = draw_lines(c, wrap(card.scoring, REGULAR, st.size, box.w), box.x, y, REGULAR, st.size, st.leading)
    y -= st.gap

    def house(cv: Canvas, inner: Box, top: float) -> float:
        top = _heading(cv, _("HOUSE RULES · HOW THE PARTY APP PLAYS IT"), inner, top, st)
        return _labelled(cv, card.house, inner, top, st, numbered=False)

    y = _tinted(c, box, y, st, house)

    c.setFillGray(0.4)
    c.setFont(COND, FOOTER_SIZE)
    footer = _("Royal Heist · rules card · %(paper)s, print at 100 %% (actual size)") % {"paper": PAPER_NAMES[paper]}
    c.drawString(box.x, box.y + FOOTER_SIZE * 0.3, footer)
    c.setFillGray(0)
    return y


GAPS = 5  # the section gaps _layout leaves, stretched to fill the page


def _style(card: RulesCard, box: Box, paper: str) -> Style:
    """The largest body size that fits, then the page's spare height shared among the gaps."""
    floor = box.y + FOOTER_SIZE * 1.3 + 6
    size = START_SIZE
    while size >= MIN_SIZE:
        base = Style(size, size * 0.8)
        try:
            low = _layout(Canvas(io.BytesIO()), card, box, base, paper)
        except DoesNotFit:
            low = float("-inf")
        if low >= floor:
            return Style(size, base.gap + min((low - floor) / GAPS, size * 1.2))
        size -= STEP
    raise DoesNotFit(f"the rules card does not fit one page at {MIN_SIZE} pt")


def royal_rules_pdf(paper: str = "letter", card: RulesCard | None = None) -> bytes:
    """The one-page rules card as PDF bytes; `paper` is a key of sheet.PAPERS."""
    if paper not in PAPERS:
        raise ValueError(f"no paper {paper!r}: choose from {', '.join(PAPERS)}")
    register_fonts()  # before measuring on scratch canvases
    card = card or royal_rules_card()
    box = content_box(paper)
    st = _style(card, box, paper)
    buf = io.BytesIO()
    c = new_canvas(
        buf,
        title=_("Royal Heist — rules card (%(paper)s, print at 100 %%)") % {"paper": PAPER_NAMES[paper]},
        pagesize=PAPERS[paper],
        author=ROYAL.title,
    )
    _layout(c, card, box, st, paper)
    c.showPage()
    c.save()
    return buf.getvalue()


__all__ = ["MIN_SIZE", "DoesNotFit", "content_box", "royal_rules_pdf"]
