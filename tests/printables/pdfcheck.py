"""Reading printed PDFs back: fonts, geometry, text and a PNG render (artifacts/)."""

from __future__ import annotations

import io
from pathlib import Path

import pdfplumber
import pypdfium2
from pypdf import PdfReader

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "printables"

STANDARD_14 = {
    "Courier",
    "Courier-Bold",
    "Courier-Oblique",
    "Courier-BoldOblique",
    "Helvetica",
    "Helvetica-Bold",
    "Helvetica-Oblique",
    "Helvetica-BoldOblique",
    "Times-Roman",
    "Times-Bold",
    "Times-Italic",
    "Times-BoldItalic",
    "Symbol",
    "ZapfDingbats",
}


def fonts_of(data: bytes) -> dict[str, bool]:
    """Every font any page uses -> whether its program is embedded in the file."""
    out: dict[str, bool] = {}
    for page in PdfReader(io.BytesIO(data)).pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        for ref in fonts.get_object().values():
            font = ref.get_object()
            name = str(font["/BaseFont"]).lstrip("/")
            desc = font.get("/FontDescriptor")
            if desc is None and "/DescendantFonts" in font:
                desc = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            desc = desc.get_object() if desc is not None else {}
            out[name] = any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    return out


def assert_fonts_embedded(data: bytes) -> None:
    fonts = fonts_of(data)
    assert fonts, "no fonts at all"
    for name, embedded in fonts.items():
        base = name.split("+", 1)[-1]
        assert base not in STANDARD_14, f"standard-14 font {name} is not embedded"
        assert embedded, f"font {name} is not embedded"


def render_png(data: bytes, page: int, name: str, scale: float = 1.5):
    """Render one page (0-based) to artifacts/printables/<name>.png; return the image."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    doc = pypdfium2.PdfDocument(data)
    try:
        image = doc[page].render(scale=scale).to_pil()
    finally:
        doc.close()
    image.save(ARTIFACTS / f"{name}.png")
    return image


def inside(obj, box, slack=0.01) -> bool:
    """Whether a pdfplumber object (char, rect, curve, line) lies within box = (x0, top,
    x1, bottom), in pdfplumber's coordinates (top measured from the top of the page)."""
    x0, top, x1, bottom = box
    return (
        obj["x0"] >= x0 - slack
        and obj["x1"] <= x1 + slack
        and obj["top"] >= top - slack
        and obj["bottom"] <= bottom + slack
    )


def open_pdf(data: bytes):
    return pdfplumber.open(io.BytesIO(data))
