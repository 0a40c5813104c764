"""Issue 32: a party's printables speak the party's language (Party.language), whatever
language the asking page speaks; the deck and the rules card, which belong to no party,
speak the request's. English stays as it was."""

import pytest
from django.core.management import call_command
from django.utils import translation

from events.party import services
from printables.services import handout_pdf_cached, party_printables
from tests.printables.pdfcheck import open_pdf
from tests.story.record import party_lobby

pytestmark = pytest.mark.django_db

BASE = "http://partybox.local:8000"


def text_of(data: bytes) -> str:
    with open_pdf(data) as pdf:
        return "\n".join(p.extract_text() for p in pdf.pages)


@pytest.fixture
def seated():
    """13 guests at two tables, one vault gift each: every kind of printable has a page."""
    party, _, _ = party_lobby(13, vault_size=1, vault_gifts=2, name="Office heist")
    services.party_seat(party_id=party.pk)
    party.refresh_from_db()
    return party


def test_a_german_party_prints_german_whatever_the_page_speaks(seated):
    seated.language = "de"
    seated.save(update_fields=["language"])
    with translation.override("en"):  # the host's page in English: the paper is the party's
        text = text_of(party_printables(party=seated, base_url=BASE))
    for german in (
        "Mach mit: scanne mit deinem Handy",
        "Partycode",
        "TRESOR-GESCHENK",
        "TISCH A",
        "bekommt Geschenk",
        "YANKEE HEIST · SPIELBOGEN",
        "Gezogener Platz",
        "Geschenkbewegungen",
    ):
        assert german in text, german
    # Card and round names stay as printed.
    assert "THE SNOOP" in text and "LAST CALL" in text
    assert "Join the heist" not in text and "takes gift" not in text


def test_an_english_party_prints_english_even_from_a_german_page(seated):
    assert seated.language == "en"
    english = text_of(party_printables(party=seated, base_url=BASE))
    with translation.override("de"):
        from_german_page = text_of(party_printables(party=seated, base_url=BASE))
    assert from_german_page == english
    for words in ("Join the heist: scan with your phone", "VAULT GIFT", "TABLE A", "takes gift", "SCORECARD"):
        assert words in english, words


def test_the_deck_and_the_rules_card_follow_the_request(client):
    english = client.get("/printables/yankee/deck.pdf", HTTP_ACCEPT_LANGUAGE="en")
    german = client.get("/printables/yankee/deck.pdf", HTTP_ACCEPT_LANGUAGE="de")
    assert english.status_code == german.status_code == 200
    assert "Accept-Language" in german["Vary"] and "Cookie" in german["Vary"]
    en_text, de_text = text_of(english.content), text_of(german.content)
    assert "YOUR TURN" in en_text and "Yankee Heist · play card" in en_text
    assert "DEIN ZUG" in de_text and "Yankee Heist · Spielkarte" in de_text
    assert "SWITCHEROO" in de_text and "THE SCRAMBLE" in de_text  # names as printed
    with translation.override("de"):
        rules = text_of(handout_pdf_cached("royal", "rules", "letter"))
    assert "REGELKARTE" in rules and "Juwelen" in rules
    with translation.override("en"):
        assert "RULES CARD" in text_of(handout_pdf_cached("royal", "rules", "letter"))
        assert handout_pdf_cached("yankee", "deck") == english.content


def test_the_command_prints_the_deck_in_a_language(tmp_path):
    out = tmp_path / "deck-es.pdf"
    call_command("printables", "deck", "--game", "yankee", "--language", "es", "--out", str(out))
    assert "TU TURNO" in text_of(out.read_bytes())
