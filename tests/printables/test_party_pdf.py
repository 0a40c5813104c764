"""Issue 13: one party's printables, from the command and from the host's download."""

import re

import pytest
import zxingcpp
from django.core.management import call_command
from django.core.management.base import CommandError

from events.models import Guest
from events.party import services
from printables.party import kinds_of
from tests.printables.pdfcheck import assert_fonts_embedded, open_pdf, render_png
from tests.story.record import party_lobby

pytestmark = pytest.mark.django_db

LETTER = (612, 792)


def pages_text(data: bytes) -> list[str]:
    with open_pdf(data) as pdf:
        assert all((p.width, p.height) == LETTER for p in pdf.pages)
        return [p.extract_text() for p in pdf.pages]


def command_pdf(tmp_path, code, *args) -> bytes:
    out = tmp_path / "party.pdf"
    call_command(
        "printables", "party", "--code", code, "--out", str(out), "--base-url", "http://partybox.local:8000", *args
    )
    return out.read_bytes()


@pytest.fixture
def lobby():
    """13 guests (two tables once seated), one vault gift per table."""
    party, host_token, _ = party_lobby(13, vault_size=1, vault_gifts=2, name="Office heist")
    return party, host_token


def test_labels_in_the_lobby_one_per_guest_gift_and_vault_gift(tmp_path, lobby):
    party, _ = lobby
    data = command_pdf(tmp_path, party.code, "--only", "labels")
    text = pages_text(data)
    assert len(text) == 1  # 15 labels fit one sheet of 18
    # Cells of 2.5 x 1.75 in, three by six, centred; filled left to right, top down.
    w, h = 2.5 * 72, 1.75 * 72
    left, top = (612 - 3 * w) / 2, (792 - 6 * h) / 2
    with open_pdf(data) as pdf:
        page = pdf.pages[0]
        cells = [
            page.crop((left + c * w, top + r * h, left + (c + 1) * w, top + (r + 1) * h)).extract_text().splitlines()
            for r in range(6)
            for c in range(3)
        ]
    labels = [lines for lines in cells if lines]
    assert [lines[1] for lines in labels] == [str(n) for n in range(1, 14)] + ["V1", "V2"]
    assert [lines[0] for lines in labels] == ["GIFT"] * 13 + ["VAULT GIFT"] * 2
    # Only the number: no guest's name, no description on a wrapped gift.
    assert "Guest 1" not in text[0] and "secret gift" not in text[0]
    assert_fonts_embedded(data)


def test_tents_need_seating(tmp_path, lobby):
    party, _ = lobby
    with pytest.raises(CommandError, match="seated"):
        command_pdf(tmp_path, party.code, "--only", "tents")


def test_the_join_poster_qr_code_scans_to_the_join_link(tmp_path, lobby):
    party, _ = lobby
    data = command_pdf(tmp_path, party.code, "--only", "poster")
    text = pages_text(data)[0]
    url = f"http://partybox.local:8000/j/{party.code}/"
    assert url in text and " ".join(party.code) in text and "Office heist" in text
    image = render_png(data, 0, "party-poster", scale=2.0)
    decoded = [r.text for r in zxingcpp.read_barcodes(image)]
    assert decoded == [url]


def test_every_kind_once_seated(tmp_path, lobby):
    party, _ = lobby
    services.party_seat(party_id=party.pk)
    guests = list(Guest.objects.filter(party=party).select_related("table"))
    data = command_pdf(tmp_path, party.code)
    assert_fonts_embedded(data)
    text = pages_text(data)
    # poster, labels, 2 tents, slips (13 name + 13 seat slips on one sheet of 32), 2 scorecards
    assert len(text) == 1 + 1 + 2 + 1 + 2
    slips, scorecards = text[4], text[5:7]
    with open_pdf(data) as pdf:  # a tent's lower half reads upright (the upper is upside down)
        tents = [pdf.pages[i].crop((0, 396, 612, 792)).extract_text() for i in (2, 3)]
    for letter, tent, card in zip("AB", tents, scorecards, strict=False):
        seated = sorted((g for g in guests if g.table.letter == letter), key=lambda g: g.seat)
        captain = next(g for g in seated if g.is_captain)
        assert f"TABLE {letter}" in tent and f"Captain: {captain.name}" in tent
        assert f"table {letter}" in card and "ring A → B → A" in card
        for g in seated:
            assert re.search(rf"(^| ){g.seat + 1} {g.name} takes gift \d+( |$)", tent, flags=re.M), (g.name, tent)
            assert re.search(rf"^{g.seat + 1} {g.name} {g.gift_number} \d+$", card, flags=re.M), (g.name, card)
        for r in ("R1 THE SNOOP", "R2 THE SCRAMBLE", "R3 THE DOUBLE-CROSS", "R4 LAST CALL"):
            assert r in card
        assert "Leaves with" in card and "Relay" in card
    # the relay's seat slips: one per seat of each table; a name slip per guest
    assert len(re.findall(r"\bSEAT \d+\b", slips)) == 13
    for letter in "AB":
        size = sum(1 for g in guests if g.table.letter == letter)
        assert slips.count(f"TABLE {letter} · RELAY") == size
        assert slips.count(f"TABLE {letter} · START HERE?") == size
    for g in guests:
        assert g.name in slips
    render_png(data, 2, "party-tent-A")
    render_png(data, 5, "party-scorecard-A")


def test_the_tents_take_gift_matches_the_deal(tmp_path, lobby):
    """'takes gift N' on the tent is the gift the engine dealt to that seat."""
    from games.yankee import Game

    party, _ = lobby
    services.party_seat(party_id=party.pk)
    with open_pdf(command_pdf(tmp_path, party.code, "--only", "tents")) as pdf:
        tent = pdf.pages[0].crop((0, 396, 612, 792)).extract_text()
    table = party.tables.get(letter="A")
    game = Game.from_dict(table.state)
    for seat, entry in enumerate(table.roster):
        assert f"{seat + 1} {entry['name']} takes gift {game.gifts[seat]}" in tent


def test_the_host_downloads_them_with_the_host_secret(client, lobby):
    party, host_token = lobby
    url = f"/api/parties/{party.code}/printables/all.pdf"
    assert client.get(url).status_code == 403
    assert client.get(url, HTTP_AUTHORIZATION="Bearer nope").status_code == 403
    ok = client.get(url, HTTP_AUTHORIZATION=f"Bearer {host_token}")
    assert ok.status_code == 200 and ok["Content-Type"] == "application/pdf"
    assert ok.content.startswith(b"%PDF")
    assert "attachment" in ok["Content-Disposition"]
    # Before seating, "all" leaves out the tents; asking for tents alone says why.
    assert len(pages_text(ok.content)) == 1 + 1 + 1 + 1  # poster, labels, blank slips, blank scorecard
    tents = client.get(f"/api/parties/{party.code}/printables/tents.pdf", HTTP_AUTHORIZATION=f"Bearer {host_token}")
    assert tents.status_code == 409 and tents.json()["error"] == "not_seated"
    bad = client.get(f"/api/parties/{party.code}/printables/menu.pdf", HTTP_AUTHORIZATION=f"Bearer {host_token}")
    assert bad.status_code == 404
    # A code no party has answers as a real one without the host's secret (issue 29).
    assert client.get("/api/parties/ZZZZZZ/printables/all.pdf").status_code == 403
    for kind in kinds_of(party.game)[:2]:
        one = client.get(f"/api/parties/{party.code}/printables/{kind}.pdf", HTTP_AUTHORIZATION=f"Bearer {host_token}")
        assert one.status_code == 200
    # The poster's link is the address the host's browser used.
    poster = client.get(f"/api/parties/{party.code}/printables/poster.pdf", HTTP_AUTHORIZATION=f"Bearer {host_token}")
    assert f"http://testserver/j/{party.code}/" in pages_text(poster.content)[0]


def test_the_deck_is_a_public_download(client):
    r = client.get("/printables/yankee/deck.pdf")
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    assert r["Content-Disposition"] == 'attachment; filename="yankee-heist-deck.pdf"'
    with open_pdf(r.content) as pdf:
        assert len(pdf.pages) == 8
    # A game that prints no deck, a paper the deck is not drawn for, a game nobody registered.
    assert client.get("/printables/royal/deck.pdf").status_code == 404
    assert client.get("/printables/yankee/deck.pdf?paper=a4").status_code == 404
    assert client.get("/printables/nosuchgame/deck.pdf").status_code == 404


def test_bad_command_input_is_a_clear_error(tmp_path, lobby):
    party, _ = lobby
    with pytest.raises(CommandError, match="no party"):
        command_pdf(tmp_path, "ZZZZZZ")
    with pytest.raises(CommandError, match="--only"):
        command_pdf(tmp_path, party.code, "--only", "menus")
    with pytest.raises(CommandError, match="--code"):
        call_command("printables", "party", "--out", str(tmp_path / "x.pdf"))
    assert not (tmp_path / "x.pdf").exists() and not (tmp_path / "party.pdf").exists()


def test_the_tent_prints_the_tablet_pairing_qr_code(tmp_path, lobby):
    """Each table tent carries the QR code of the party's tablet page, where a
    captain's tablet pairs with the host's one-time code (issue 29: the hook
    captain_pairing_url returned None after pairing existed, so no tent had one)."""
    party, _ = lobby
    services.party_seat(party_id=party.pk)
    tents = command_pdf(tmp_path, party.code, "--only", "tents")
    for page, letter in ((0, "A"), (1, "B")):
        found = [r.text for r in zxingcpp.read_barcodes(render_png(tents, page, f"party-tent-{letter}", scale=2.0))]
        assert f"http://partybox.local:8000/t/{party.code}/" in found, (letter, found)
    assert "Captain's tablet: scan to pair" in pages_text(tents)[1]
