"""A Word Heist party's story tells each table round by round from the replay of its
stored actions (games/word/party/story.py): who wrote what and what it scored, the
"Halt!" moments, the winners, with the guests' names; the page in its own words and the
story's JSON (issue 39)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from games.registry import game_named
from games.word.party.story import STORY
from tables.models import Table
from tests.party.test_word_result import word_party

pytestmark = pytest.mark.django_db

WORD = game_named("word")


def test_the_story_of_a_word_party_adds_up_to_its_tables_points_round_by_round():
    party, _ = word_party(8)
    story = STORY.tell(party)
    tables = {t.letter: t for t in Table.objects.filter(party=party)}
    assert [t["table"] for t in story["tables"]] == sorted(tables)
    moments = 0
    for told in story["tables"]:
        table = tables[told["table"]]
        game = WORD.from_dict(table.state)
        names = [e["name"] for e in table.roster]
        assert [r["round"] for r in told["rounds"]] == [1, 2, 3]
        assert [r["final"] for r in told["rounds"]] == [False, False, True]
        points = [0] * len(names)
        for r in told["rounds"]:
            for w in r["words"]:
                assert w["name"] == names[w["seat"]]
                points[w["seat"]] += w["points"]
                if w["points"]:  # a word scores only valid, unique and never halted
                    assert w["valid"] and not w["matched"] and not w["halted_by"]
            for h in r["halts"]:
                points[h["seat"]] += h["points"]
                for c in h["caught"]:  # a "Halt!" names a word another seat wrote
                    (caught,) = [w for w in r["words"] if w["seat"] == c["seat"]]
                    assert caught["word"] == h["word"] and c["name"] == names[c["seat"]]
            moments += r["halt_moments"]
        assert points == game.scores
        assert [s["score"] for s in told["seats"]] == game.scores
        assert {w["name"] for w in told["winners"]} == {names[s.seat] for s in WORD.standings(game) if s.winner}
    assert moments > 0, "the bots halt words that fit the clues: some Halt! moments"
    assert story["result"]["champions"]


def test_the_story_page_of_a_word_party_tells_the_rounds_in_its_own_words():
    party, _ = word_party(5)
    cache.clear()
    client = Client()
    page = client.get(f"/story/{party.code}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Table by table, round by round" in text and "Round 3 (points doubled)" in text
    told = text.split('id="story-tables"')[1].split("</section>")[0]
    table = Table.objects.get(party=party)
    for word in (w["word"] for r in STORY.tell(party)["tables"][0]["rounds"] for w in r["words"] if w["word"]):
        assert word in told
    assert any(e["name"] in told for e in table.roster)
    for other in ("jewel", "Heist 1", "gift"):
        assert other not in told
    data = client.get(f"/story/{party.code}/story.json")
    assert data.status_code == 200 and data.json()["tables"][0]["table"] == "A"
    assert f"word-heist-{party.code}-story.json" in data["Content-Disposition"]
