"""The fonts every printable uses, embedded in the PDF (never the unembedded standard-14
fonts, whose look depends on the printer's or viewer's substitutes).

DejaVu comes from Debian's fonts-dejavu-core (installed by bin/test and the Dockerfile);
where it is missing (a developer's laptop) the Bitstream Vera fonts that reportlab ships
inside its own package stand in: DejaVu is derived from Vera, with more glyphs.
"""

from __future__ import annotations

from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
VERA = Path(reportlab.__file__).parent / "fonts"

# our name -> (DejaVu file, Vera fallback file)
_FACES = {
    "Heist": ("DejaVuSans.ttf", "Vera.ttf"),
    "Heist-Bold": ("DejaVuSans-Bold.ttf", "VeraBd.ttf"),
    "Heist-Cond": ("DejaVuSansCondensed.ttf", "Vera.ttf"),
    "Heist-CondBold": ("DejaVuSansCondensed-Bold.ttf", "VeraBd.ttf"),
}

REGULAR, BOLD, COND, COND_BOLD = "Heist", "Heist-Bold", "Heist-Cond", "Heist-CondBold"


def font_files() -> dict[str, Path]:
    out = {}
    for name, (dejavu, vera) in _FACES.items():
        path = DEJAVU / dejavu
        out[name] = path if path.is_file() else VERA / vera
    return out


def register_fonts() -> None:
    """Register our faces with reportlab once per process (TTF: always embedded, as
    subsets of the glyphs used)."""
    if REGULAR in pdfmetrics.getRegisteredFontNames():
        return
    for name, path in font_files().items():
        pdfmetrics.registerFont(TTFont(name, str(path)))
