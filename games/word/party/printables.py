"""Word Heist on paper (printables/game.py): its one-page rules card (US Letter or A4)
and its print-and-play deck: the 26 letter cards and the 20 Bonus Vault cards, nine to
a sheet at the rulebook's card size, with a cut grid. The numbers are the engine's
(games/word/catalogue.py `rules_for_screens`), the vault cards its own texts. A party
prints the host's poster and table tents, with the game's title.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from games.registry import game_named
from games.word.catalogue import rules_for_screens
from games.word.vault import CARDS
from printables.fonts import BOLD, COND_BOLD, REGULAR, register_fonts
from printables.game import GamePrintables, Handout, Printables
from printables.sheet import CARD_GRID, COMMON_H, COMMON_W, INCH, INK, PAPERS, draw_centred, new_canvas, wrap

NAME = "word"
MARGIN = 0.5 * INCH
START_SIZE = 12.0  # the body text's largest size
MIN_SIZE = 8.5  # the smallest body text that reads on a table at arm's length
TITLE_SIZE = 34.0


class DoesNotFit(ValueError):
    """The card's words do not fit its page at MIN_SIZE."""


def _title() -> str:
    return game_named(NAME).title


def rules_sections() -> list[tuple[str, str]]:
    """(heading, text) of the rules card, in the active language, with the engine's numbers."""
    r = rules_for_screens(_)
    deck = r["deck"]
    tokens, word = r["tokens"], r["word"]
    return [
        (
            _("The goal"),
            _(
                "Write a secret word from the shared letters, drop clues about it, and guess another "
                "player's word. The most points after %(rounds)s rounds wins."
            )
            % {"rounds": r["rounds"]},
        ),
        (
            _("The letters"),
            _(
                "Common, rare and vowel cards by players: 2 players %(two)s; 3-4 players %(four)s; "
                "5-6 players %(six)s. Each round they are reshuffled into the Tableau; its first two cards "
                "are the Showcase Letters (+1 and +2). A letter may be used more than once; Q counts as QU."
            )
            % {
                "two": "/".join(map(str, deck["2"])),
                "four": "/".join(map(str, deck["3"])),
                "six": "/".join(map(str, deck["5"])),
            },
        ),
        (
            _("1. Heist word (about a minute)"),
            _(
                "Everyone at once, in secret: a word of %(min)s to %(max)s letters made only from the Tableau, "
                "never a word of the Word Gallery nor one sharing its root."
            )
            % {"min": word["min"], "max": word["max"]},
        ),
        (
            _("2. Clues"),
            _(
                "Drop %(min)s to %(max)s clue tokens on letters your word uses, exactly as many on a letter "
                "as your word has of it (SHELL: 2 on L)."
            )
            % {"min": tokens["min"], "max": tokens["max"]},
        ),
        (
            _("3. Halt (about a minute)"),
            _("With every clue in view, write your guess at another player's word, or none. Never your own word."),
        ),
        (
            _("4. Reveal and score"),
            _(
                "Word score: 1 per clue token, +1 and +2 for the Showcase Letters, and each Bonus Vault card "
                "the word meets. A word scores only if it is valid, nobody else wrote it and nobody halted it. "
                "Everyone who halted a word collects its full value. The final round counts double."
            ),
        ),
        (
            _("The challenge"),
            _(
                "The table votes on a word the dictionary lacks, or one a player challenges: a simple "
                "majority, ties for the challenged player."
            ),
        ),
        (
            _("The end"),
            _("Most points wins; a tie goes to the longest valid Heist word of the final round, then it is shared."),
        ),
    ]


def _layout(sections: Sequence[tuple[str, str]], size: float, width: float) -> list[tuple[str, list[str]]]:
    return [(head, wrap(text, REGULAR, size, width)) for head, text in sections]


def _height(laid: Sequence[tuple[str, list[str]]], size: float) -> float:
    leading = size * 1.25
    return sum(size * 1.1 * 1.3 + len(lines) * leading + size for _, lines in laid)


def word_rules_pdf(paper: str = "letter") -> bytes:
    """The rules card on `paper` ("letter" or "a4"): one page, type as large as fits."""
    page_w, page_h = PAPERS[paper]
    w, h = COMMON_W - 2 * MARGIN, COMMON_H - 2 * MARGIN
    x0, y_top = (page_w - w) / 2, (page_h + h) / 2
    register_fonts()  # the layout measures the text before the canvas exists
    sections = rules_sections()
    body_h = h - TITLE_SIZE * 2.2
    size = START_SIZE
    while _height(_layout(sections, size, w), size) > body_h:
        size -= 0.25
        if size < MIN_SIZE:
            raise DoesNotFit(f"the rules card does not fit on {paper} at {MIN_SIZE} pt")
    buf = io.BytesIO()
    title = _title()
    c = new_canvas(buf, title=_("%(game)s: the rules") % {"game": title}, author=title, pagesize=(page_w, page_h))
    c.setFillColorRGB(*INK)
    draw_centred(c, title.upper(), y_top - TITLE_SIZE, BOLD, TITLE_SIZE, cx=page_w / 2)
    c.setFillGray(0)
    y = y_top - TITLE_SIZE * 2.2
    leading = size * 1.25
    for head, lines in _layout(sections, size, w):
        c.setFont(BOLD, size * 1.1)
        y -= size * 1.1
        c.drawString(x0, y, head)
        y -= size * 1.1 * 0.3
        c.setFont(REGULAR, size)
        for line in lines:
            y -= leading
            c.drawString(x0, y + leading - size, line)
        y -= size
    c.showPage()
    c.save()
    return buf.getvalue()


def _card(c: Canvas, x: float, y: float, kind: str, big: str, text: str) -> None:
    """One card in its grid cell: its kind at the top, the big mark, its text below."""
    w, h = CARD_GRID.w, CARD_GRID.h
    pad = 0.18 * INCH
    c.setFillColorRGB(*INK)
    draw_centred(c, kind, y + h - pad - 10, COND_BOLD, 10, cx=x + w / 2)
    c.setFillGray(0)
    size = 64.0 if len(big) <= 2 else 40.0
    while stringWidth(big, BOLD, size) > w - 2 * pad:
        size -= 2
    draw_centred(c, big, y + h / 2 - size / 3, BOLD, size, cx=x + w / 2)
    if text:
        c.setFont(REGULAR, 10)
        lines = wrap(text, REGULAR, 10, w - 2 * pad)
        ty = y + pad + 12.5 * (len(lines) - 1)
        for line in lines:
            c.drawCentredString(x + w / 2, ty, line)
            ty -= 12.5


def word_deck_pdf(paper: str = "letter") -> bytes:
    """The print-and-play deck: 26 letter cards (Q as QU), then the 20 Bonus Vault cards
    (each with its points), nine to a US Letter sheet, a cut grid on every sheet."""
    r = rules_for_screens(_)
    letters = [
        (_("Letter"), "Qu" if letter == r["letters"]["qu"] else letter, "")
        for letter in [*r["letters"]["common"], *r["letters"]["rare"], *r["letters"]["vowels"]]
    ]
    vault = [(_("Bonus Vault"), f"+{card.points}", _(card.text)) for card in CARDS]
    cards = letters + vault
    buf = io.BytesIO()
    title = _title()
    c = new_canvas(buf, title=_("%(game)s: the deck") % {"game": title}, author=title)
    per = CARD_GRID.per_page
    for start in range(0, len(cards), per):
        CARD_GRID.draw_cut_grid(c)
        for i, (kind, big, text) in enumerate(cards[start : start + per]):
            x, y = CARD_GRID.cell(i)
            _card(c, x, y, kind, big, text)
        c.showPage()
    c.save()
    return buf.getvalue()


PRINTABLES: GamePrintables = Printables(
    deck=Handout(word_deck_pdf),
    rules_card=Handout(word_rules_pdf, papers=("letter", "a4")),
    poster_steps=gettext_noop(
        "Type your name. Your phone shows your table and your seat once the host seats everyone."
    ),
)
