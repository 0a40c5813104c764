"""Canary Heist brings no printables and no simulator: the host's fallback poster and
tents carry its title, the deck and rules card are not there, and `manage.py simulate`
refuses it, saying which games have a simulator."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from events.party import services
from printables.game import FALLBACK, printables_of
from printables.party import HOST_KINDS, kinds_of
from printables.services import party_printables
from tables.simulate.hook import simulator_of
from tests import shorthand
from tests.printables.pdfcheck import open_pdf

pytestmark = pytest.mark.django_db


def _text(data: bytes) -> list[str]:
    with open_pdf(data) as pdf:
        return [page.extract_text() for page in pdf.pages]


def test_the_hosts_poster_and_tents_carry_canary_heist():
    assert printables_of("canary") is FALLBACK
    party, _ = shorthand.party_create(name="Canary night", game="canary")
    for i in range(13):
        shorthand.guest_join(code=party.code, name=f"Guest {i + 1}", description="")
    services.party_seat(party_id=party.pk)
    party.refresh_from_db()
    assert set(kinds_of("canary")) == {"poster", "tents"} and set(kinds_of("canary")) <= set(HOST_KINDS)
    poster = _text(party_printables(party=party, base_url="http://partybox.local:8000", kinds=("poster",)))
    assert all("CANARY HEIST" in page.upper() for page in poster), poster
    tents = _text(party_printables(party=party, base_url="http://partybox.local:8000", kinds=("tents",)))
    assert len(tents) == 2  # one tent per table: 7 + 6
    for page in tents:  # the title on both halves, one of them upside down
        header = "Canary night · CANARY HEIST"
        assert page.count(header) == page[::-1].count(header) == 1, page


def test_simulate_refuses_canary_and_names_the_games_that_have_a_simulator():
    assert simulator_of("canary") is None
    with pytest.raises(CommandError, match=r"the game 'canary' has no simulator .*games with one: (\w+)") as refused:
        call_command("simulate", "--game", "canary", stdout=io.StringIO(), stderr=io.StringIO())
    assert "canary" not in str(refused.value).split("games with one:")[1]
