"""A Word Heist party through the real socket: the host creates it in German, 13 guests
join and are seated 5 + 4 + 4, every seat answers each step from its own phone (its
word, its clues, its halt, its vote, with the version its screen shows), no phone sees
another seat's word before the reveal, the host opens the gate after round 1, and the
party's ranking, CSV and story say who scored what (issue 39)."""

from __future__ import annotations

import csv
import io
import random

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.test import Client

from games.registry import game_named
from games.word.party.rehearsal import choose
from tests.live.seated_party import MergedPhone, phones_by_table, seated_party, tables_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]

WORD = game_named("word")
BEFORE_REVEAL = ("word", "clues", "halt")


async def _play(at_table: list[MergedPhone], r: random.Random, *, until: str) -> None:
    """Every seat the table waits for answers from its phone, until the table's phase is `until`."""
    while at_table[0].table["view"]["phase"] != until:
        asked = [p for p in at_table if p.table["view"]["can_act"]]
        assert asked, at_table[0].table["view"]
        for p in asked:
            view = p.table["view"]
            if not view["can_act"]:
                continue
            sent = choose(view, r)
            assert sent is not None
            res = await p.act(sent, version=view["version"])
            assert res["type"] == "ok", (sent, res)
            for q in at_table:
                await q.at_version(res["version"], timeout=15)


async def test_a_word_party_of_13_in_german_plays_every_table_to_the_end_through_the_socket():
    await sync_to_async(WORD.lexicon)("de")  # read once per process: not on the seating's clock
    party, host_token, host, phones = await seated_party(13, name="Wortabend", game="word", language="de")
    tables = await tables_of(party)
    assert sorted(len(t.roster) for t in tables) == [4, 4, 5]
    assert all(t.setup["options"] == {"language": "de"} for t in tables)
    by_table = await phones_by_table(phones)
    r = random.Random(13)

    for at_table in by_table.values():
        await _play(at_table, r, until="gate")
    opened = await host.command("open_gate")
    assert opened["type"] == "ok", opened
    for at_table in by_table.values():
        # Read until this seat's own view says "word": a captain's phone is also sent its
        # table's public view, which may come first and must not count as the seat's own.
        first = at_table[0]
        await first.until(lambda m, first=first: first.table["view"]["phase"] == "word", timeout=15)
        for p in at_table[1:]:
            await p.at_version(first.table["version"], timeout=15)
        await _play(at_table, r, until="over")

    # No phone was ever sent another seat's word before the reveal, nor its halt.
    for p in phones:
        me = p.table["view"]["you"]
        for raw in p.raw_tables:
            view = raw["view"]
            if view["phase"] in BEFORE_REVEAL:
                assert all(s["word"] is None and s["halt"] is None for s in view["seats"]), view
                assert raw.get("private", {}).get("you", me) == me

    over = await host.until(lambda m: m.get("type") == "party" and m["party"].get("status") == "over", timeout=15)
    result = over["party"]["result"]
    scores, place = {}, {}
    for table in await tables_of(party):
        state = WORD.from_dict(table.state)
        assert WORD.is_over(state) and state.language == "de" and state.round == 3
        for seat, entry in enumerate(table.roster):
            scores[entry["name"]] = state.scores[seat]
            place[entry["name"]] = (table.letter, seat)
    ranking = result["ranking"]
    assert [row["total"] for row in ranking] == sorted(scores.values(), reverse=True)
    assert {row["guest"]: row["total"] for row in ranking} == scores
    best = max(scores.values())
    assert set(result["champions"]) == {name for name, s in scores.items() if s == best}
    for p in [*phones, host]:
        await p.close()

    client = Client()
    res = await sync_to_async(client.get)(
        f"/api/parties/{party.code}/result.csv", HTTP_AUTHORIZATION=f"Bearer {host_token}"
    )
    assert res.status_code == 200
    rows = list(csv.DictReader(io.StringIO(res.content.decode("utf-8-sig"))))
    assert {row["name"]: int(row["total"]) for row in rows} == scores
    await sync_to_async(cache.clear)()
    story = await sync_to_async(client.get)(f"/story/{party.code}/story.json")
    assert story.status_code == 200
    told = story.json()["tables"]
    assert sorted(t["table"] for t in told) == ["A", "B", "C"]
    assert all([x["round"] for x in t["rounds"]] == [1, 2, 3] for t in told)
