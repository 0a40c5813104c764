"""Issue 13: the print-and-play deck, read back from the PDF the command writes."""

import itertools
from collections import Counter

import pytest
from django.core.management import call_command

from games.yankee.cards import CARD_OF, Card
from games.yankee.party.printables.support import HOST_AIDS, ROUNDS, YOUR_TURN_COPIES
from tests.printables.pdfcheck import assert_fonts_embedded, fonts_of, inside, open_pdf, render_png

PT = 72  # points per inch
LETTER = (8.5 * PT, 11 * PT)
CARD_W, CARD_H = 2.5 * PT, 3.5 * PT
# Three by three cards of 2.5 x 3.5 in, centred: 0.5 in side margins, 0.25 in top/bottom.
LEFT, TOP_MARGIN = (LETTER[0] - 3 * CARD_W) / 2, (LETTER[1] - 3 * CARD_H) / 2
GRID_X = [LEFT + k * CARD_W for k in range(4)]
GRID_Y = [TOP_MARGIN + k * CARD_H for k in range(4)]  # from the top of the page (pdfplumber's "top")


def spans_page(ln) -> bool:
    return (ln["x0"] == ln["x1"] and (ln["top"], ln["bottom"]) == (0, LETTER[1])) or (
        ln["top"] == ln["bottom"] and (ln["x0"], ln["x1"]) == (0, LETTER[0])
    )


def gray_of(color) -> float:
    if isinstance(color, (int, float)):
        return float(color)
    assert len(color) == 1, f"the cut grid is gray, not {color}"
    return float(color[0])


def card_boxes():
    """(x0, top, x1, bottom) of the nine trim boxes of a sheet, left to right, top down."""
    return [(GRID_X[c], GRID_Y[r], GRID_X[c] + CARD_W, GRID_Y[r] + CARD_H) for r in range(3) for c in range(3)]


@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    out = tmp_path_factory.mktemp("deck") / "deck.pdf"
    call_command("printables", "deck", "--game", "yankee", "--out", str(out))
    return out.read_bytes()


@pytest.fixture(scope="module")
def cards(deck):
    """Per sheet, per trim box: the card's text lines."""
    sheets = []
    with open_pdf(deck) as pdf:
        for page in pdf.pages:
            sheets.append([page.crop(box).extract_text().splitlines() for box in card_boxes()])
    return sheets


def test_eight_letter_sheets_at_full_size(deck):
    with open_pdf(deck) as pdf:
        assert len(pdf.pages) == 8
        for page in pdf.pages:
            assert (page.width, page.height) == LETTER


def test_the_cut_grid_makes_2_5_by_3_5_inch_cards(deck):
    with open_pdf(deck) as pdf:
        for page in pdf.pages:
            grid = [ln for ln in page.lines if spans_page(ln)]
            xs = sorted({round(ln["x0"], 2) for ln in grid if ln["x0"] == ln["x1"]})
            ys = sorted({round(ln["top"], 2) for ln in grid if ln["top"] == ln["bottom"]})
            assert xs == [round(x, 2) for x in GRID_X]
            assert ys == [round(y, 2) for y in GRID_Y]
            # gaps between cut lines: exactly 2.5 and 3.5 inches
            assert {round(b - a, 2) for a, b in itertools.pairwise(xs)} == {CARD_W}
            assert {round(b - a, 2) for a, b in itertools.pairwise(ys)} == {CARD_H}
            for ln in grid:  # gray, and running edge to edge so a guillotine follows them
                assert 0.5 < gray_of(ln["stroking_color"]) < 0.8


def test_nothing_but_the_cut_grid_outside_the_trim_boxes(deck):
    boxes = card_boxes()
    with open_pdf(deck) as pdf:
        for number, page in enumerate(pdf.pages, 1):
            drawn = page.chars + page.rects + page.curves + [ln for ln in page.lines if not spans_page(ln)]
            assert page.chars, f"sheet {number} has no text"
            stray = [o for o in drawn if not any(inside(o, b) for b in boxes)]
            assert not stray, (number, stray[:3])
            for box in boxes:
                assert any(inside(c, box) for c in page.chars), f"sheet {number}: an empty card"


def test_sheets_1_to_6_hold_the_engine_deck_name_and_kind_in_the_corner(cards):
    play = [card for sheet in cards[:6] for card in sheet]
    assert len(play) == 54
    # The corner index: the first line is the card's name, the second its kind.
    assert Counter(lines[0] for lines in play) == Counter({c.title: c.copies for c in Card})
    for lines, card in zip(play, CARD_OF, strict=False):
        assert lines[0] == card.title
        assert lines[1] == card.kind.value
        body = " ".join(lines[2:])
        assert card.effect in body, (card.title, body)


def test_name_and_kind_sit_in_the_top_left_corner(deck):
    """Readable in a fan: the title's first letter is within 0.4 in of the card's left
    trim and 0.6 in of its top."""
    with open_pdf(deck) as pdf:
        page = pdf.pages[0]
        for box in card_boxes():
            chars = [c for c in page.chars if inside(c, box)]
            first = min(chars, key=lambda c: (round(c["top"]), c["x0"]))
            assert first["text"] == CARD_OF[0].title[0]
            assert first["x0"] - box[0] < 0.4 * PT
            assert first["top"] - box[1] < 0.6 * PT
            assert first["size"] >= 11  # the biggest text on the card's corner


def test_sheets_7_and_8_hold_the_support_cards(cards):
    support = [card for sheet in cards[6:] for card in sheet]
    titles = Counter(lines[0] for lines in support)
    assert titles["YOUR TURN"] == YOUR_TURN_COPIES == 10
    assert [lines[0] for lines in support if lines[1].startswith("ROUND")] == [
        "THE SNOOP",
        "THE SCRAMBLE",
        "THE DOUBLE-CROSS",
        "LAST CALL",
    ]
    assert [lines[1] for lines in support if lines[1].startswith("ROUND")] == [f"ROUND {i} OF 4" for i in range(1, 5)]
    aids = [lines[0] for lines in support if lines[1] == "HOST AID"]
    assert aids == [a.title for a in HOST_AIDS] and len(aids) == 4
    assert len(support) == 18 == 10 + len(ROUNDS) + len(HOST_AIDS)
    your_turn = " ".join(support[0])
    for phrase in ("Draw 1 card", "SWIPE", "Regroup", "comeback card", "discards to 5", "Vault"):
        assert phrase in your_turn


def test_fonts_are_embedded(deck):
    assert_fonts_embedded(deck)
    # bin/test installs Debian's DejaVu, so the fallback (reportlab's own Vera) is unused here.
    assert {name.split("+")[-1] for name in fonts_of(deck)} == {
        "DejaVuSans",
        "DejaVuSans-Bold",
        "DejaVuSansCondensed",
        "DejaVuSansCondensed-Bold",
    }


def test_renders_to_png(deck):
    for page in (0, 6):
        image = render_png(deck, page, f"deck-sheet-{page + 1}", scale=1.0)
        assert image.size == (612, 792)
        gray = image.convert("L")
        # the cut grid prints gray; the margin outside the cards is white paper
        x = round(GRID_X[1])
        assert 100 < gray.getpixel((x, 5)) < 230
        assert gray.getpixel((10, 400)) > 245
        # a card's corner title prints black
        assert min(gray.getpixel((round(LEFT) + 25 + dx, round(TOP_MARGIN) + 24)) for dx in range(0, 60)) < 80
