"""Page geometry and drawing helpers shared by every printable: US Letter at 100 %
(the rules cards also on A4), cells on a gray cut grid, wrapped text, QR codes drawn as
vector squares.

Coordinates are PDF points (1/72 inch), origin at the bottom left of the page.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import qrcode
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from .fonts import REGULAR, register_fonts

INCH = 72.0
PAGE_W, PAGE_H = 8.5 * INCH, 11 * INCH  # US Letter
A4_W, A4_H = 210 / 25.4 * INCH, 297 / 25.4 * INCH
# paper name -> (width, height) in points; the first is the default, as for every printable
PAPERS: dict[str, tuple[float, float]] = {"letter": (PAGE_W, PAGE_H), "a4": (A4_W, A4_H)}
# What both papers hold: A4's width, Letter's height. A page drawn inside it, centred,
# reads the same on either.
COMMON_W, COMMON_H = min(w for w, _ in PAPERS.values()), min(h for _, h in PAPERS.values())
CUT_GRAY = 0.62  # the cut grid: light enough not to distract, dark enough to cut on
CUT_WIDTH = 0.5


INK = (0.04, 0.43, 0.31)  # the app's green
CREATOR = "Heist Night party host"


def new_canvas(buf: io.BytesIO, *, title: str, author: str, pagesize: tuple[float, float] = (PAGE_W, PAGE_H)) -> Canvas:
    """A canvas whose initial font is ours: reportlab otherwise names Helvetica (a
    standard-14 font, not embedded) in every page's preamble. `author`: the game's
    title, as printed."""
    register_fonts()
    # types-reportlab types initialFontName as a float; reportlab takes a font name.
    c = Canvas(buf, pagesize=pagesize, initialFontName=REGULAR, initialFontSize=10, initialLeading=12)  # type: ignore[arg-type]
    c.setTitle(title)
    c.setAuthor(author)
    c.setCreator(CREATOR)
    return c


@dataclass(frozen=True)
class Grid:
    """`cols` x `rows` cells of `w` x `h` points, centred on the page, touching each
    other: one cut between two cells, none wasted."""

    cols: int
    rows: int
    w: float
    h: float

    @property
    def left(self) -> float:
        return (PAGE_W - self.cols * self.w) / 2

    @property
    def bottom(self) -> float:
        return (PAGE_H - self.rows * self.h) / 2

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def cell(self, i: int) -> tuple[float, float]:
        """(x, y) of the bottom-left corner of cell i, filled left to right, top down."""
        row, col = divmod(i, self.cols)
        return self.left + col * self.w, self.bottom + (self.rows - 1 - row) * self.h

    def boxes(self, count: int | None = None) -> list[tuple[float, float, float, float]]:
        n = self.per_page if count is None else count
        return [(*self.cell(i), self.w, self.h) for i in range(n)]

    def draw_cut_grid(self, c: Canvas) -> None:
        """Gray lines along every cell edge, run to the paper's edges so a straight
        cut across the sheet (a guillotine or a ruler) follows them."""
        c.saveState()
        c.setStrokeGray(CUT_GRAY)
        c.setLineWidth(CUT_WIDTH)
        for k in range(self.cols + 1):
            x = self.left + k * self.w
            c.line(x, 0, x, PAGE_H)
        for k in range(self.rows + 1):
            y = self.bottom + k * self.h
            c.line(0, y, PAGE_W, y)
        c.restoreState()


# The rulebook's card: 2.5 x 3.5 inches, nine to a Letter sheet.
CARD_GRID = Grid(cols=3, rows=3, w=2.5 * INCH, h=3.5 * INCH)


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    out: list[str] = []
    for para in text.split("\n"):
        out.extend(simpleSplit(para, font, size, width) or [""])
    return out


def draw_lines(
    c: Canvas, lines: list[str], x: float, y_top: float, font: str, size: float, leading: float | None = None
) -> float:
    """Draw lines downwards from y_top (the top of the first line); return the y below
    the last line."""
    leading = leading or size * 1.22
    c.setFont(font, size)
    y = y_top - size
    for line in lines:
        c.drawString(x, y, line)
        y -= leading
    return y + leading - size * 0.25


def draw_wrapped(
    c: Canvas, text: str, x: float, y_top: float, width: float, font: str, size: float, leading: float | None = None
) -> float:
    return draw_lines(c, wrap(text, font, size, width), x, y_top, font, size, leading)


def fit_size(text: str, font: str, width: float, start: float, minimum: float = 6) -> float:
    """The largest size <= start at which `text` fits on one line of `width`."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    size = start
    while size > minimum and stringWidth(text, font, size) > width:
        size -= 0.5
    return size


def draw_centred(c: Canvas, text: str, y: float, font: str, size: float, cx: float = PAGE_W / 2) -> None:
    c.setFont(font, size)
    c.drawCentredString(cx, y, text)


def draw_fitted(
    c: Canvas, text: str, x: float, y: float, font: str, size: float, width: float, minimum: float = 6
) -> None:
    """One line at `size`, smaller if it would be wider than `width` (a longer
    translation; the English lines fit at their size)."""
    c.setFont(font, fit_size(text, font, width, size, minimum))
    c.drawString(x, y, text)


def qr_matrix(data: str) -> list[list[bool]]:
    """The QR code of `data` with its 4-module quiet zone (the standard's minimum)."""
    qr = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4)
    qr.add_data(data)
    qr.make(fit=True)
    return qr.get_matrix()


def draw_qr(c: Canvas, data: str, x: float, y: float, size: float) -> None:
    """A QR code as filled squares (vector: sharp at any printer resolution), its
    quiet zone included in `size`. Runs of dark modules in a row become one rectangle."""
    m = qr_matrix(data)
    n = len(m)
    mod = size / n
    c.saveState()
    c.setFillGray(0)
    c.setStrokeGray(0)
    c.setLineWidth(0)
    for r, row in enumerate(m):
        col = 0
        while col < n:
            if row[col]:
                start = col
                while col < n and row[col]:
                    col += 1
                c.rect(x + start * mod, y + (n - 1 - r) * mod, (col - start) * mod, mod, stroke=0, fill=1)
            else:
                col += 1
    c.restoreState()
