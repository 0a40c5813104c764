"""Issue 38: each game's printables name their own game, never another's ("Royal table
tents print YANKEE HEIST"), and a game with no printables of its own gets the host's:
the poster and the tents with its title, no deck, no rules card."""

import re

import pytest

from events.models import Party
from printables.game import FALLBACK, printables_of
from printables.party import HOST_KINDS, kinds_of
from printables.services import party_printables
from tests import shorthand
from tests.bare_game import register
from tests.printables.pdfcheck import open_pdf

pytestmark = pytest.mark.django_db

BASE = "http://partybox.local:8000"
TITLES = {"yankee": "Yankee Heist", "royal": "Royal Heist", "word": "Word Heist", "bare": "Bare Caper"}


@pytest.fixture
def bare(monkeypatch):
    """The test-only game (tests/bare_game), registered for this test alone."""
    return register(monkeypatch)


def seated_party(game: str, guests: int = 11) -> Party:
    kwargs = {"game": game} if game != "yankee" else {}
    party, _ = shorthand.party_create(name="Office night", **kwargs)
    for i in range(guests):
        shorthand.guest_join(code=party.code, name=f"Guest {i + 1}", description=f"secret gift #{i + 1}")
    from events.party import services

    services.party_seat(party_id=party.pk)
    party.refresh_from_db()
    assert party.tables.count() >= 2
    return party


def pages(data: bytes) -> list[str]:
    with open_pdf(data) as pdf:
        return [p.extract_text() for p in pdf.pages]


def names_a_game(text: str, game: str) -> bool:
    """Read upright or upside down (a tent's upper half extracts reversed)."""
    return any(re.search(re.escape(TITLES[game]), t, flags=re.IGNORECASE) for t in (text, text[::-1]))


@pytest.mark.parametrize("game", ["yankee", "royal", "word", "bare"])
def test_every_page_names_its_own_game_and_no_other(game, request):
    if game == "bare":
        request.getfixturevalue("bare")
    party = seated_party(game)
    for kind in kinds_of(game):
        text = pages(party_printables(party=party, base_url=BASE, kinds=(kind,)))
        if kind in HOST_KINDS:  # the host's pages name the game on every page (a slip may not)
            assert all(names_a_game(page, game) for page in text), (kind, text)
        for other in TITLES.keys() - {game}:
            assert not any(names_a_game(page, other) for page in text), (kind, other)
        if kind == "tents":  # the title on every tent, both halves (one of them upside down)
            assert len(text) == party.tables.count()
            for page in text:
                header = f"Office night · {TITLES[game].upper()}"
                assert page.count(header) == page[::-1].count(header) == 1, page
    with open_pdf(party_printables(party=party, base_url=BASE)) as pdf:  # the document's metadata too
        assert pdf.metadata["Author"] == TITLES[game]
        assert TITLES[game] in pdf.metadata["Title"]


def test_royal_tents_and_poster_say_nothing_of_gifts():
    party = seated_party("royal", guests=9)
    assert kinds_of("royal") == ("poster", "tents")  # no gift labels, no Yankee scorecards
    tents = "\n".join(pages(party_printables(party=party, base_url=BASE, kinds=("tents",))))
    assert "Guest 1" in tents and "takes gift" not in tents and "Vault" not in tents
    poster = pages(party_printables(party=party, base_url=BASE, kinds=("poster",)))[0]
    assert "ROYAL HEIST" in poster and "joke gifts" not in poster.lower() and "wrapped gift" not in poster


def test_a_game_without_printables_gets_the_hosts(bare, client):
    assert printables_of(bare) is FALLBACK
    assert kinds_of(bare) == ("poster", "tents")
    party = seated_party(bare)
    poster = " ".join(pages(party_printables(party=party, base_url=BASE, kinds=("poster",)))[0].split())
    assert "BARE CAPER" in poster and "Your phone shows your table and your seat" in poster
    for what in ("deck", "rules"):
        missing = client.get(f"/printables/{bare}/{what}.pdf")
        assert missing.status_code == 404 and missing.json()["error"] == "invalid"


def test_the_host_menu_offers_what_the_party_s_game_prints(client):
    """The dashboard's panel: the kinds of the party's game, its deck or rules card."""
    from django.template import Context, Template

    menu = Template("{% load printables_menu %}{% printables_menu party %}")
    for game, kinds, links in (
        ("yankee", ["all", "poster", "labels", "tents", "slips", "scorecard"], ["/printables/yankee/deck.pdf"]),
        ("royal", ["all", "poster", "tents"], ["/printables/royal/rules.pdf"]),
    ):
        party, _ = shorthand.party_create(name="Menu night", **({"game": game} if game != "yankee" else {}))
        html = menu.render(Context({"party": party}))
        assert re.findall(r'"kind": "(\w+)"', html) == kinds
        assert re.findall(r'href="(/printables/[^"]+)"', html) == links
        assert f'data-slug="{TITLES[game].lower().replace(" ", "-")}"' in html
        for link in links:
            assert client.get(link).status_code == 200


def test_a_game_s_sheet_never_takes_a_host_kind_s_name(monkeypatch):
    """A game's 'tents' would silently replace the host's tents (and their title)."""
    import printables.party
    from printables.game import PartySheet, Printables

    for kinds in (("tents",), ("all",), ("scorecard", "scorecard")):
        clash = Printables(poster_steps="", sheets=tuple(PartySheet(k, k, lambda c, d: None) for k in kinds))
        monkeypatch.setattr(printables.party, "printables_of", lambda game, clash=clash: clash)
        with pytest.raises(ValueError, match="twice or the host's"):
            kinds_of("yankee")


def test_the_command_refuses_what_a_game_does_not_print(tmp_path):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    out = tmp_path / "x.pdf"
    with pytest.raises(CommandError, match="royal prints no deck"):
        call_command("printables", "deck", "--game", "royal", "--out", str(out))
    with pytest.raises(CommandError, match="not 'a4'"):
        call_command("printables", "deck", "--game", "yankee", "--paper", "a4", "--out", str(out))
    assert not out.exists()
