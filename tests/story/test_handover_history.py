"""Issue 28.6: a hand-over keeps history. After a guest hands her seat to a substitute
mid-game, the result, the CSV and the story still say she brought her gift, she takes
home the seat's gift (the substitute played it for her: docs/RULES.md), and both are
named; the story names her for what happened before the hand-over and the substitute
after it."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from events.models import Guest, Party, SeatHandOver
from events.party import services
from events.party.selectors import party_result
from games.yankee import Game, Phase, gift_label
from games.yankee.party.story.inputs import story_replay
from tables.models import Table
from tests.story.record import party_lobby, party_play

pytestmark = pytest.mark.django_db


@pytest.fixture
def handed_over():
    """Eleven guests (two tables), played to the gate; then the first guest of table A
    hands her seat to "Sub Sam", and the party plays to the end."""
    party, host_token, _ = party_lobby(11)
    Party.objects.filter(pk=party.pk).update(seed=5)
    services.party_seat(party_id=party.pk)
    party_play(party, seed=5, until=Phase.GATE)
    table = Table.objects.get(party=party, letter="A")
    leaver = Guest.objects.get(table=table, seat=1)
    name, gift = leaver.name, leaver.gift_number
    at_version = table.version
    claim = services.seat_hand_over(party_id=party.pk, guest_id=leaver.pk, requested_by="host").data["claim"]
    services.seat_claim(code=party.code, claim=claim, name="Sub Sam")
    party_play(party, seed=6)
    services.party_end(party_id=party.pk)
    party.refresh_from_db()
    return party, host_token, table, name, gift, at_version


def test_the_result_and_csv_keep_who_brought_the_gift_and_both_players(handed_over):
    party, host_token, _table, name, gift, at_version = handed_over
    assert SeatHandOver.objects.get(party=party).table_version == at_version
    result = party_result(party)
    seat = next(r for r in result["keeps"] if r["table"] == "A" and r["seat"] == 1)
    assert seat["guest"] == name and seat["played_by"] == [name, "Sub Sam"]
    sources = [r["source"] for r in result["keeps"] + result["vault_returns"] if r["gift"] == gift_label(gift)]
    assert sources == [f"brought by {name}"]
    assert not any("Sub Sam" in r["source"] for r in result["keeps"])

    res = Client().get(f"/api/parties/{party.code}/result.csv", HTTP_AUTHORIZATION=f"Bearer {host_token}")
    rows = list(csv.DictReader(io.StringIO(res.content.decode("utf-8-sig"))))
    mine = [r for r in rows if r["table"] == "A" and r["seat"] == "2"]
    assert len(mine) == 1 and mine[0]["name"] == name and mine[0]["played by"] == f"{name}, then Sub Sam"
    assert [r["source"] for r in rows if r["gift"] == gift_label(gift)] == [f"brought by {name}"]
    # Everyone who brought a gift takes exactly one home, the leaver included.
    keepers = [r["name"] for r in rows if r["kind"] == "keeps"]
    assert len(keepers) == len(set(keepers)) == 11 and name in keepers and "Sub Sam" not in keepers


def test_the_story_names_the_leaver_before_the_hand_over_and_the_substitute_after(handed_over):
    party, _, table, name, gift, _at_version = handed_over
    story = story_replay(party)
    told = {g["gift"]: g for g in story["gifts"]}
    assert told[gift_label(gift)]["brought_by"] == name
    assert not any(g["brought_by"] == "Sub Sam" for g in story["gifts"])
    assert story["substitutes"] == [
        {"table": "A", "seat": 1, "round": 2, "leaver": name, "substitute": "Sub Sam"},
    ]
    at_seat = next(g for g in story["gifts"] if g["table"] == "A" and g["seat"] == 1)
    assert at_seat["home_with"] == name and at_seat["played_by"] == [name, "Sub Sam"]
    lines = next(t for t in story["tables"] if t["table"] == "A")["entries"]
    texts = [e["text"] for e in lines]
    took = texts.index(f"Sub Sam took over seat 2 from {name}.")
    before, after = " ".join(texts[:took]), " ".join(texts[took + 1 :])
    assert name in before and "Sub Sam" not in before  # history is not rewritten
    assert "Sub Sam" in after
    assert Game.from_dict(Table.objects.get(pk=table.pk).state).phase is Phase.OVER
    journeys = [j for g in story["gifts"] for j in g["journey"] if j["what"] == "dealt" and j["table"] == "A"]
    assert any(j["to"] == name for j in journeys) and not any(j["to"] == "Sub Sam" for j in journeys)
