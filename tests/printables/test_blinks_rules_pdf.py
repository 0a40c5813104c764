"""Blinks Heist's one-page rules card, read back from the PDF: one page on A4 and on US
Letter, the engine's numbers in its text, every character inside the card, fonts
embedded, and served at /printables/blinks/rules.pdf."""

import pytest

from games.blinks import HEALTH, MAX_VAULT, MIN_VAULT, VAULT
from games.blinks.party.printables.rules_card import blinks_rules_pdf
from tests.printables.pdfcheck import assert_fonts_embedded, inside, open_pdf

PT = 72
MM = PT / 25.4
PAPERS = {"letter": (8.5 * PT, 11 * PT), "a4": (210 * MM, 297 * MM)}
COMMON = (210 * MM, 11 * PT)
MARGIN = 0.5 * PT


def card_box(paper):
    w, h = PAPERS[paper]
    x0, top = (w - COMMON[0]) / 2 + MARGIN, (h - COMMON[1]) / 2 + MARGIN
    return (x0, top, w - x0, h - top)


@pytest.fixture(scope="module", params=sorted(PAPERS))
def printed(request):
    return request.param, blinks_rules_pdf(request.param)


def test_one_page_with_the_engines_numbers_inside_the_card(printed):
    paper, data = printed
    assert_fonts_embedded(data)
    with open_pdf(data) as pdf:
        assert len(pdf.pages) == 1
        page = pdf.pages[0]
        assert (page.width, page.height) == pytest.approx(PAPERS[paper], abs=0.01)
        text = " ".join(page.extract_text().split())
        box = card_box(paper)
        assert all(inside(ch, box) for ch in page.chars)
    assert f"each has {HEALTH} health" in text
    assert f"{MIN_VAULT} to {MAX_VAULT} Blinks a table ({VAULT} plays" in text
    assert "Red, Blue, Green, Yellow" in text
    assert "The captain confirms every record with one tap" in text


def test_an_unknown_paper_is_refused():
    with pytest.raises(ValueError):
        blinks_rules_pdf("legal")


@pytest.mark.django_db
def test_served_to_anyone(client):
    res = client.get("/printables/blinks/rules.pdf?paper=a4")
    assert res.status_code == 200 and res["Content-Type"] == "application/pdf"
    assert res.content.startswith(b"%PDF")
