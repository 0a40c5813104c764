"""Royal Heist's one-page rules card, read back from the PDF: one page on A4 and on US
Letter, the engine's numbers in its text, nothing off the card, served as a PDF."""

import dataclasses
import re
from collections import Counter

import pytest
from django.core.management import call_command

from games.royal import HEISTS, MAX_PLAYERS, MIN_PLAYERS, ROYAL, gate_point, rules_for_screens
from games.royal.cards import FACES, JOKER, RUN_DECK, SIDE_STACK, kind, rank_of, spot_value
from games.royal.party.printables.rules_card import DoesNotFit, royal_rules_pdf
from games.royal.party.printables.rules_words import Item, royal_rules_card
from games.royal.rules import PARTY_GAMES
from tests.printables.pdfcheck import assert_fonts_embedded, inside, open_pdf, render_png

PT = 72
MM = PT / 25.4
PAPERS = {"letter": (8.5 * PT, 11 * PT), "a4": (210 * MM, 297 * MM)}
# The card stays half an inch inside the area both papers hold (A4's width, Letter's
# height), centred: a printer's unprintable edge never reaches it on either paper.
COMMON = (210 * MM, 11 * PT)
MARGIN = 0.5 * PT
STEPS = ("Go in", "Decide", "Get out", "Turn up a room", "Second danger", "Repeat")
BODY_MIN = 8.5  # points: the body text's legible floor


def one_line(text: str) -> str:
    return " ".join(text.split())


def card_box(paper):
    w, h = PAPERS[paper]
    x0, top = (w - COMMON[0]) / 2 + MARGIN, (h - COMMON[1]) / 2 + MARGIN
    return (x0, top, w - x0, h - top)


@pytest.fixture(scope="module", params=sorted(PAPERS))
def printed(request):
    return request.param, royal_rules_pdf(request.param)


def test_one_page_at_full_size(printed):
    paper, data = printed
    with open_pdf(data) as pdf:
        assert len(pdf.pages) == 1
        page = pdf.pages[0]
        assert (page.width, page.height) == pytest.approx(PAPERS[paper], abs=0.01)


def test_the_steps_of_a_heist_in_order(printed):
    _, data = printed
    with open_pdf(data) as pdf:
        lines = pdf.pages[0].extract_text().splitlines()
    starts = [
        n for name in STEPS for n, line in enumerate(lines) if re.match(rf"{STEPS.index(name) + 1} {name} ", line)
    ]
    assert len(starts) == len(STEPS) and starts == sorted(starts), lines


def _piles_text(data):
    """The run deck's frame and the side stack's, each read alone (they sit side by side)."""
    with open_pdf(data) as pdf:
        page = pdf.pages[0]
        words = page.extract_words()
        side = next(w for w in words if w["text"] == "SIDE")
        steps = next(w for w in words if w["text"] == "HEIST," and w["top"] > side["top"])
        run = page.crop((0, side["top"], side["x0"] - 4, steps["top"])).extract_text()
        stack = page.crop((side["x0"] - 4, side["top"], page.width, steps["top"])).extract_text()
    return one_line(run), one_line(stack)


def test_the_piles_counts_ranks_and_values_are_the_engines(printed):
    _, data = printed
    run, stack = _piles_text(data)
    rules = rules_for_screens()
    assert f"RUN DECK · {len(RUN_DECK)} CARDS" in run
    assert f"SIDE STACK · {len(SIDE_STACK)} CARDS" in stack
    hearts = [c for c in RUN_DECK if kind(c) == "loot"]
    diamonds = [c for c in RUN_DECK if kind(c) == "bonus"]
    faces = [c for c in RUN_DECK if rank_of(c) in FACES]
    jokers = [c for c in RUN_DECK if rank_of(c) == JOKER]
    span = lambda cards: f"{min(map(spot_value, cards))} to {max(map(spot_value, cards))}"  # noqa: E731
    assert f"The {span(hearts)} of hearts ({len(hearts)}): loot worth its rank." in run
    assert f"The {span(diamonds)} of diamonds ({len(diamonds)})" in run
    low, high = rules["bonus_range"]
    assert f"{low} to {high} in all" in run
    assert f"Jack, Queen, King and Ace of every suit ({len(faces)})" in run
    assert f"Jokers ({len(jokers)}): danger, pays nothing" in run
    assert f"The {span(list(SIDE_STACK))} of spades and clubs." in stack
    # every card of both piles is counted, once
    assert len(hearts) + len(diamonds) + len(faces) + len(jokers) == len(RUN_DECK)


def test_the_game_and_the_house_decisions_with_the_engines_numbers(printed):
    _, data = printed
    with open_pdf(data) as pdf:
        text = one_line(pdf.pages[0].extract_text())
    assert f"{MIN_PLAYERS} to {MAX_PLAYERS} players · {HEISTS} heists" in text
    assert f"Bank the biggest stash of jewels over {HEISTS} heists" in text
    assert f"After heist {HEISTS}, the player with the biggest bank wins" in text
    # several leaving at once: one split of all the rooms' leftovers
    assert "Leaving together Several players getting out at once sweep the leftovers of all the rooms" in text
    # the clock's stand-in is the engine's: an empty fist
    assert rules_for_screens()["decide_default"] == "get_out"
    seconds = ROYAL.clock_steps()["decide"]
    assert re.search(
        rf"Out of time On phones, everybody inside has {seconds:g} seconds to decide .* runs out gets out", text
    )
    game, heist = gate_point(HEISTS, PARTY_GAMES)
    assert f"At a party Each table plays {PARTY_GAMES} games in a row; every player's banks add up" in text
    assert f"all stop after heist {heist} of game {game} until the host opens the gate" in text


def test_the_words_follow_the_engine(monkeypatch):
    """A number changed in games/royal reaches the card: nothing is a second copy."""
    import games.royal.catalogue
    import games.royal.definition

    monkeypatch.setattr(games.royal.catalogue, "HEISTS", 7)
    monkeypatch.setattr(games.royal.definition, "DECIDE_SECONDS", 45.0)
    card = royal_rules_card()
    assert "over 7 heists" in card.goal and "After heist 7" in card.scoring
    house = {item.name: item.text for item in card.house}
    assert "45 seconds" in house["Out of time"]
    assert "after heist 3 of game 2" in house["At a party"]  # 21 heists: half-way is the 10th


def test_nothing_runs_off_the_card_and_the_type_stays_legible(printed):
    paper, data = printed
    box = card_box(paper)
    with open_pdf(data) as pdf:
        page = pdf.pages[0]
        drawn = page.chars + page.rects + page.curves + page.lines
        assert page.chars
        stray = [o for o in drawn if not inside(o, box)]
        assert not stray, stray[:3]
        sizes = Counter(round(c["size"], 2) for c in page.chars if c["text"].strip())
    body = sizes.most_common(1)[0][0]
    assert body >= BODY_MIN
    assert min(sizes) >= 7.5  # the footer, the smallest line


def test_the_same_card_on_both_papers():
    """A4 and Letter carry the same card, moved to each page's centre."""
    placed = {}
    for paper, (w, h) in PAPERS.items():
        with open_pdf(royal_rules_pdf(paper)) as pdf:
            chars = [c for c in pdf.pages[0].chars if c["size"] >= BODY_MIN]  # the footer names its paper
            placed[paper] = (
                "".join(c["text"] for c in chars),
                [v for c in chars for v in (c["x0"] - w / 2, c["top"] - h / 2, c["size"])],
            )
    assert placed["a4"][0] == placed["letter"][0]
    assert placed["a4"][1] == pytest.approx(placed["letter"][1], abs=0.01)


def test_words_that_do_not_fit_are_refused_not_printed_off_the_page():
    card = royal_rules_card()
    crowded = dataclasses.replace(card, house=(*card.house, Item("More", " ".join(["Another house rule."] * 200))))
    with pytest.raises(DoesNotFit):
        royal_rules_pdf(card=crowded)


def test_fonts_are_embedded_and_it_renders(printed):
    paper, data = printed
    assert_fonts_embedded(data)
    image = render_png(data, 0, f"royal-rules-{paper}", scale=1.0)
    w, h = PAPERS[paper]
    assert image.size[0] == pytest.approx(w, abs=1) and image.size[1] == pytest.approx(h, abs=1)
    gray = image.convert("L")
    x0, top, _, _ = card_box(paper)
    # white paper outside the card; the title prints dark near its top-left corner
    assert all(gray.getpixel((round(x0) - 6, y)) > 245 for y in range(0, round(h), 7))
    assert min(gray.getpixel((round(x0) + dx, round(top) + 22)) for dx in range(0, 120)) < 110


def test_the_rules_card_is_a_public_download(client):
    r = client.get("/printables/royal/rules.pdf")
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    assert r["Content-Disposition"] == 'attachment; filename="royal-heist-rules-letter.pdf"'
    a4 = client.get("/printables/royal/rules.pdf?paper=a4")
    assert a4.status_code == 200 and a4["Content-Type"] == "application/pdf"
    for response, paper in ((r, "letter"), (a4, "a4")):
        with open_pdf(response.content) as pdf:
            assert len(pdf.pages) == 1
            assert (pdf.pages[0].width, pdf.pages[0].height) == pytest.approx(PAPERS[paper], abs=0.01)
    bad = client.get("/printables/royal/rules.pdf?paper=legal")
    assert bad.status_code == 404 and bad.json()["error"] == "invalid"
    assert client.post("/printables/royal/rules.pdf").status_code == 405
    assert client.get("/printables/yankee/rules.pdf").status_code == 404  # a game with no rules card


def test_the_command_writes_it(tmp_path):
    out = tmp_path / "rules.pdf"
    call_command("printables", "rules", "--game", "royal", "--out", str(out), "--paper", "a4")
    with open_pdf(out.read_bytes()) as pdf:
        assert len(pdf.pages) == 1
        assert (pdf.pages[0].width, pdf.pages[0].height) == pytest.approx(PAPERS["a4"], abs=0.01)
