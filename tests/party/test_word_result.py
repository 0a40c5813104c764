"""A Word Heist party at the party's result: tables play in the party's language, every
guest is ranked across the tables by points, the champions are the party's best
(ties shared), and the CSV has one row per guest (issue 39)."""

from __future__ import annotations

import csv
import io
import random

import pytest
from django.test import Client

from events.models import Party
from events.party import services
from events.party.selectors import party_result
from games.registry import game_named
from tables.models import Table
from tests import shorthand
from tests.party.played import play_to_the_end

pytestmark = pytest.mark.django_db

WORD = game_named("word")


def word_party(guests: int, *, language: str = "en") -> tuple[Party, str]:
    """A Word Heist party of `guests` in `language`, played to its end by the bots."""
    party, host_token = shorthand.party_create(name="Word night", game="word", language=language)
    for i in range(guests):
        shorthand.guest_join(code=party.code, name=f"G{i}", description="")
    services.party_seat(party_id=party.pk)
    r = random.Random(guests)
    play_to_the_end(party, r)
    return party, host_token


def test_a_word_party_of_13_plays_in_its_language_and_ranks_every_guest_across_its_tables():
    party, _ = word_party(13, language="es")
    tables = {t.letter: t for t in Table.objects.filter(party=party)}
    # balanced tables of at most six: 5 + 4 + 4
    assert sorted(len(t.roster) for t in tables.values()) == [4, 4, 5]
    for table in tables.values():
        assert table.setup["options"] == {"language": "es"}
        assert WORD.from_dict(table.state).language == "es"
    result = party_result(party)
    ranking = result["ranking"]
    assert len(ranking) == 13
    scores = {(letter, s): score for letter, t in tables.items() for s, score in enumerate(t.state["scores"])}
    assert {(r["table"], r["seat"]): r["total"] for r in ranking} == scores
    assert [r["total"] for r in ranking] == sorted(scores.values(), reverse=True)
    best = max(scores.values())
    assert all(r["champion"] == (r["total"] == best) for r in ranking)


def test_a_word_partys_csv_has_one_row_per_guest_with_the_points_and_the_table_winners():
    party, host_token = word_party(7)
    res = Client().get(f"/api/parties/{party.code}/result.csv", HTTP_AUTHORIZATION=f"Bearer {host_token}")
    assert res.status_code == 200
    assert f"word-heist-{party.code}.csv" in res["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(res.content.decode("utf-8-sig"))))
    assert len(rows) == 7
    for table in Table.objects.filter(party=party):
        game = WORD.from_dict(table.state)
        winners = {s.seat for s in WORD.standings(game) if s.winner}
        for seat, entry in enumerate(table.roster):
            (row,) = [r for r in rows if r["name"] == entry["name"]]
            assert (row["table"], row["seat"], row["total"]) == (table.letter, str(seat + 1), str(game.scores[seat]))
            assert (row["table winner"] == "yes") == (seat in winners)
