"""The rulebook's print-and-play deck: 8 US Letter sheets, 72 cards of 2.5 x 3.5 in on
a gray cut grid. Sheets 1-6: the 54 play cards, straight from the engine's catalogue
(games/yankee/cards.py: name, kind, copies, effect); sheets 7-8: the support cards
(support.py). Drawn with the host's sheet machinery (printables/sheet.py).

Every card carries its name and kind in its top-left corner, so a hand held in a fan
can be read; nothing but the cut grid is drawn outside a card's trim box.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext_lazy
from reportlab.pdfgen.canvas import Canvas

from games.yankee.cards import CARD_OF, Kind
from games.yankee.definition import YANKEE
from printables.fonts import BOLD, COND, COND_BOLD, REGULAR
from printables.sheet import CARD_GRID, draw_lines, draw_wrapped, new_canvas, wrap

from .support import SupportCard, support_cards, translated

SAFE = 9.0  # the frame sits this far inside the trim: a slightly off cut never clips it
PAD = 7.0  # text sits this far inside the frame

KIND_COLOR = {  # RGB 0-1: one hue per kind, readable in grayscale too (different darkness)
    Kind.MOVE: (0.70, 0.13, 0.13),
    Kind.SCHEME: (0.11, 0.30, 0.62),
    Kind.REACTION: (0.04, 0.43, 0.31),
}
SUPPORT_COLOR = (0.25, 0.25, 0.25)

KIND_REMINDER = {  # msgids: printed in the language active when the deck is built
    Kind.MOVE: gettext_noop("On your turn. Every player whose gift it would move may block it."),
    Kind.SCHEME: gettext_noop("On your turn: play it and do what it says."),
    Kind.REACTION: gettext_noop("Only when a move would take or replace your gift, on anyone's turn."),
}
# The kind under a card's name, as printed (the card's name itself is never translated).
KIND_NAME = {
    Kind.MOVE: pgettext_lazy("printed card kind", "MOVE"),
    Kind.SCHEME: pgettext_lazy("printed card kind", "SCHEME"),
    Kind.REACTION: pgettext_lazy("printed card kind", "REACTION"),
}

SHEETS = 8
PLAY_SHEETS = 6


@dataclass(frozen=True)
class Face:
    """What one card shows."""

    title: str
    kind: str
    color: tuple[float, float, float]
    heading: str
    body: tuple[str, ...]
    reminder: str
    footer: str


def play_faces() -> list[Face]:
    """The 54 play cards in card-id order (the catalogue's order and counts)."""
    return [
        Face(
            title=card.title,
            kind=str(KIND_NAME[card.kind]),
            color=KIND_COLOR[card.kind],
            heading="",
            body=(_(card.effect),),  # the engine marks its effects (gettext_noop)
            reminder=_(KIND_REMINDER[card.kind]),
            footer=_("Yankee Heist · play card"),
        )
        for card in CARD_OF
    ]


def support_faces() -> list[Face]:
    return [_support_face(s) for s in support_cards()]


def _support_face(s: SupportCard) -> Face:
    return Face(
        translated(s.title),
        translated(s.kind),
        SUPPORT_COLOR,
        translated(s.heading),
        tuple(translated(p) for p in s.body),
        "",
        _("Yankee Heist · support card"),
    )


def deck_faces() -> list[Face]:
    faces = play_faces() + support_faces()
    assert len(faces) == SHEETS * CARD_GRID.per_page, len(faces)
    return faces


def draw_face(c: Canvas, face: Face, x: float, y: float) -> None:
    """One card with its trim box's bottom-left corner at (x, y)."""
    w, h = CARD_GRID.w, CARD_GRID.h
    fx, fy, fw, fh = x + SAFE, y + SAFE, w - 2 * SAFE, h - 2 * SAFE
    c.saveState()
    c.setStrokeColorRGB(*face.color)
    c.setLineWidth(1.2)
    c.roundRect(fx, fy, fw, fh, 8, stroke=1, fill=0)
    # A band of the kind's colour down the left edge: visible in a fanned hand.
    c.setFillColorRGB(*face.color)
    c.roundRect(fx, fy, 6, fh, 3, stroke=0, fill=1)

    tx = fx + PAD + 4
    tw = fw - 2 * PAD - 4
    top = fy + fh - PAD
    # The corner index: name, then kind, top left.
    title_lines = wrap(face.title, COND_BOLD, 12.5, tw)
    c.setFillColorRGB(0, 0, 0)
    y_ = draw_lines(c, title_lines, tx, top, COND_BOLD, 12.5, 13.5)
    c.setFillColorRGB(*face.color)
    y_ = draw_lines(c, [face.kind], tx, y_ - 2, BOLD, 7, 8)
    c.setStrokeColorRGB(*face.color)
    c.setLineWidth(0.6)
    c.line(tx, y_ - 4, tx + tw, y_ - 4)

    c.setFillColorRGB(0, 0, 0)
    y_ -= 12
    bottom = fy + PAD
    reminder = wrap(face.reminder, COND, 7, tw) if face.reminder else []
    floor = bottom + 12 + 8.5 * len(reminder)  # the body ends above the reminder and footer
    if face.heading:
        y_ = draw_wrapped(c, face.heading, tx, y_, tw, BOLD, 8.2, 10) - 5
    font, size, gap = _body_style(face, tw, y_ - floor)
    for para in face.body:
        y_ = draw_wrapped(c, para, tx, y_, tw, font, size, size * 1.22) - gap
    assert y_ >= floor - gap, f"{face.title}: text runs into the footer"

    bottom = fy + PAD
    c.setFillGray(0.35)
    c.setFont(COND, 6.2)
    c.drawString(tx, bottom, face.footer)
    if reminder:
        draw_lines(c, reminder, tx, bottom + 10 + 8.5 * len(reminder), COND, 7, 8.5)
    c.restoreState()


def _body_style(face: Face, width: float, room: float) -> tuple[str, float, float]:
    """A play card's one rule in a large face; a support card's paragraphs as large as
    they fit in `room` points of height."""
    if len(face.body) == 1:
        # As large as 11.5 pt, smaller only for a longer rule (a translation) that would
        # run into the reminder: the height draw_lines takes for n lines.
        size = 11.5
        while size > 6:
            n = len(wrap(face.body[0], REGULAR, size, width))
            if 1.25 * size + (n - 1) * size * 1.22 <= room:
                break
            size -= 0.25
        return REGULAR, size, 0
    size = 9.6
    while size > 5.5:
        lines = sum(len(wrap(p, COND, size, width)) for p in face.body)
        if lines * size * 1.22 + 2.5 * len(face.body) <= room:
            break
        size -= 0.2
    return COND, size, 2.5


def deck_pdf() -> bytes:
    """The 8-sheet deck as PDF bytes."""
    buf = io.BytesIO()
    c = new_canvas(buf, title=_("Yankee Heist — print-and-play deck (US Letter, print at 100 %)"), author=YANKEE.title)
    faces = deck_faces()
    per = CARD_GRID.per_page
    for sheet in range(SHEETS):
        CARD_GRID.draw_cut_grid(c)
        for i, face in enumerate(faces[sheet * per : (sheet + 1) * per]):
            draw_face(c, face, *CARD_GRID.cell(i))
        c.showPage()
    c.save()
    return buf.getvalue()
