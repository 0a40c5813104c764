"""Blinks Heist's rules card: one page, on US Letter (the default) or A4, to stand by a
table's vault. The numbers are the engine's (a Blink's health, the vault's sizes, the
teams' colours); the words say the printed game and the party's decisions
(docs/RULES.md, "Blinks Heist"). The body's type is as large as fits the area both
papers hold, never below MIN_SIZE (DoesNotFit rather than run off the page)."""

from __future__ import annotations

import io

from django.utils.translation import gettext as _
from reportlab.pdfgen.canvas import Canvas

from games.blinks.catalogue import rules_for_screens
from games.blinks.definition import BLINKS
from printables.fonts import BOLD, COND_BOLD, REGULAR, register_fonts
from printables.sheet import COMMON_H, COMMON_W, INCH, PAPERS, draw_lines, new_canvas, wrap

MARGIN = 0.5 * INCH
START_SIZE = 13.0
MIN_SIZE = 8.5
STEP = 0.25
TITLE_SIZE = 34.0
GOLD = (0.55, 0.42, 0.05)  # the vault's gold, dark enough to read in grayscale
PAPER_NAMES = {"letter": "US Letter", "a4": "A4"}


class DoesNotFit(ValueError):
    """The card's words do not fit its page at MIN_SIZE."""


def card_sections() -> list[tuple[str, list[str]]]:
    """The card's sections, (heading, paragraphs), in the active language."""
    facts = rules_for_screens(_)
    health = facts["health"]
    vault = facts["vault"]
    colours = ", ".join(t["name"] for t in facts["teams"])
    return [
        (
            _("The game"),
            [
                _(
                    "Slide your thief Blink at the vault of gold Blinks. A thief that connects does 1 damage "
                    "to the vault Blink it touches; each has %(health)s health. The hit that takes a Blink to 0 "
                    "claims it: take it out of the vault and keep it."
                )
                % {"health": health},
                _("Touched the vault while taking your thief back? You skip your next turn."),
                _("The game ends when the last vault Blink is claimed: most gold Blinks wins the table."),
            ],
        ),
        (
            _("At the party"),
            [
                _(
                    "Your phone says whose turn it is. On your turn, throw, then record it: Hit (and tap the "
                    "Blink), or Miss; add Touched on the way back if it happened."
                ),
                _(
                    "The captain confirms every record with one tap. Saw it otherwise? The captain's call "
                    "decides. A mis-tap can be taken back until the next throw is recorded."
                ),
                _("Not at the table when your turn comes? The captain passes it (no skip)."),
            ],
        ),
        (
            _("Four teams"),
            [
                _(
                    "Every guest plays for a team (%(colours)s) whose members sit at every table. Your "
                    "table's Blinks add up to your team's total on the big screen: the team with the most "
                    "gold Blinks wins the party."
                )
                % {"colours": colours},
            ],
        ),
        (
            _("The host's choices"),
            [
                _(
                    "The vault: %(min)s to %(max)s Blinks a table (%(default)s plays 30-45 minutes at one hit "
                    "in two). The alternate rule: after a hit, throw again or stop; a miss ends your turn and "
                    "skips your next one."
                )
                % {"min": vault["min"], "max": vault["max"], "default": vault["default"]},
            ],
        ),
    ]


def _draw(
    c: Canvas | None, sections: list[tuple[str, list[str]]], x: float, top: float, w: float, size: float
) -> float:
    """Draw (or, with no canvas, measure) the sections from `top`; the y below them."""
    y = top
    for heading, paragraphs in sections:
        if c is not None:
            c.setFillColorRGB(*GOLD)
            draw_lines(c, [heading], x, y, COND_BOLD, size * 1.35)
            c.setFillGray(0)
        y -= size * 1.35 * 1.4
        for text in paragraphs:
            lines = wrap(text, REGULAR, size, w)
            if c is not None:
                draw_lines(c, lines, x, y, REGULAR, size, size * 1.28)
            y -= len(lines) * size * 1.28 + size * 0.6
        y -= size * 0.6
    return y


def blinks_rules_pdf(paper: str = "letter") -> bytes:
    """The one-page rules card as PDF bytes; `paper` is a key of sheet.PAPERS."""
    if paper not in PAPERS:
        raise ValueError(f"no paper {paper!r}: choose from {', '.join(PAPERS)}")
    register_fonts()
    page_w, page_h = PAPERS[paper]
    w, h = COMMON_W - 2 * MARGIN, COMMON_H - 2 * MARGIN
    x, bottom = (page_w - w) / 2, (page_h - h) / 2
    top = bottom + h - TITLE_SIZE * 1.6
    sections = card_sections()
    size = START_SIZE
    while _draw(None, sections, x, top, w, size) < bottom:
        size -= STEP
        if size < MIN_SIZE:
            raise DoesNotFit(f"the rules card does not fit {paper} at {MIN_SIZE} pt")
    buf = io.BytesIO()
    c = new_canvas(
        buf,
        title=_("Blinks Heist — rules card (%(paper)s, print at 100 %%)") % {"paper": PAPER_NAMES[paper]},
        pagesize=PAPERS[paper],
        author=BLINKS.title,
    )
    c.setFillColorRGB(*GOLD)
    draw_lines(c, [BLINKS.title], x, bottom + h, BOLD, TITLE_SIZE)
    c.setFillGray(0)
    _draw(c, sections, x, top, w, size)
    c.showPage()
    c.save()
    return buf.getvalue()


__all__ = ["MIN_SIZE", "DoesNotFit", "blinks_rules_pdf", "card_sections"]
