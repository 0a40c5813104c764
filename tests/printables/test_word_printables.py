"""Word Heist on paper (games/word/party/printables.py): a one-page rules card on US
Letter and A4 with the engine's numbers, the print-and-play deck with the 26 letter
cards and the 20 Bonus Vault cards (each its text and points), both served, and a
party's tents saying WORD HEIST (issue 39)."""

from __future__ import annotations

import re

import pytest

from games.word.catalogue import rules_for_screens
from games.word.party.printables import word_deck_pdf, word_rules_pdf
from games.word.vault import CARDS
from printables.party import kinds_of
from printables.services import party_printables
from tests import shorthand
from tests.printables.pdfcheck import assert_fonts_embedded, open_pdf

PT = 72
MM = PT / 25.4
PAPERS = {"letter": (8.5 * PT, 11 * PT), "a4": (210 * MM, 297 * MM)}


def one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_the_rules_card_is_one_page_with_the_engines_numbers(paper):
    data = word_rules_pdf(paper)
    assert_fonts_embedded(data)
    with open_pdf(data) as pdf:
        assert len(pdf.pages) == 1
        page = pdf.pages[0]
        assert (page.width, page.height) == pytest.approx(PAPERS[paper], abs=0.01)
        text = one_line(page.extract_text())
        assert all(ch["x0"] >= 0 and ch["x1"] <= page.width and 0 <= ch["top"] <= page.height for ch in page.chars)
        assert min(ch["size"] for ch in page.chars) >= 8.5
    r = rules_for_screens()
    assert text.startswith("WORD HEIST")
    for fact in (
        f"after {r['rounds']} rounds",
        "2 players 3/1/2; 3-4 players 4/1/2; 5-6 players 4/2/2",
        f"{r['word']['min']} to {r['word']['max']} letters",
        f"Drop {r['tokens']['min']} to {r['tokens']['max']} clue tokens",
        "(+1 and +2)",
        "The final round counts double",
        "ties for the challenged player",
    ):
        assert fact in text, fact


def test_the_deck_has_every_letter_card_and_the_20_bonus_vault_cards_nine_to_a_sheet():
    data = word_deck_pdf()
    assert_fonts_embedded(data)
    with open_pdf(data) as pdf:
        assert len(pdf.pages) == -(-(26 + 20) // 9)
        text = one_line(" ".join(p.extract_text() for p in pdf.pages))
    assert len(CARDS) == 20
    words = text.split()
    in_texts = sum(card.text.split().count("Letter") for card in CARDS)  # "Showcase Letter"
    assert text.count("Bonus Vault") == 20 and words.count("Letter") - in_texts == 26
    r = rules_for_screens()
    letters = [*r["letters"]["common"], *r["letters"]["rare"], *r["letters"]["vowels"]]
    assert all((("Qu" if x == "Q" else x) in words) for x in letters)
    for card in CARDS:
        # a card's text may wrap inside its cell: its words in order, on the sheet
        assert all(word in text for word in card.text.split()), card.code
    assert sorted(int(x) for x in re.findall(r"\+(\d)", text)) == sorted(c.points for c in CARDS)


@pytest.mark.django_db
def test_a_word_partys_printables_are_the_hosts_poster_and_tents_saying_word_heist(client):
    assert kinds_of("word") == ("poster", "tents")
    for what in ("deck", "rules"):
        res = client.get(f"/printables/word/{what}.pdf")
        assert res.status_code == 200 and res["Content-Type"] == "application/pdf"
    party, _ = shorthand.party_create(name="Word night", game="word")
    for i in range(8):
        shorthand.guest_join(code=party.code, name=f"Guest {i + 1}", description="")
    from events.party import services

    services.party_seat(party_id=party.pk)
    party.refresh_from_db()
    with open_pdf(party_printables(party=party, base_url="http://partybox.local:8000", kinds=("tents",))) as pdf:
        tents = [p.extract_text() for p in pdf.pages]
    assert len(tents) == 2
    assert all("Word night · WORD HEIST" in t for t in tents)
