"""A Canary Heist party through the real socket: the host creates it, 13 guests join and
are seated 7 + 6, every seat draws from its own phone, and the party's ranking, CSV and
story (the host's fallback: the game brings none) say who drew highest."""

from __future__ import annotations

import csv
import io

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.test import Client

from story.game import FALLBACK_TEMPLATE
from tests.canary.canary.definition import DEFINITION as CANARY
from tests.live.seated_party import phones_by_table, seated_party, tables_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


async def test_a_canary_party_of_13_plays_both_tables_to_the_end_through_the_socket():
    party, host_token, host, phones = await seated_party(13, name="Canary night", game="canary")
    assert party.game == "canary"
    tables = await tables_of(party)
    assert sorted(len(t.roster) for t in tables) == [6, 7]
    by_table = await phones_by_table(phones)
    for table_id, at_table in by_table.items():
        seat = {id(p): p.snapshot["me"]["seat"] for p in at_table}
        for turn in range(len(at_table)):
            (drawer,) = [p for p in at_table if seat[id(p)] == turn]
            for other in at_table:  # only the seat whose turn it is may draw
                assert other.table["view"]["can_draw"] == (other is drawer)
                assert other.table["view"]["you"] == seat[id(other)]
            if turn + 1 < len(at_table):
                (early,) = [p for p in at_table if seat[id(p)] == turn + 1]
                refused = await early.act({"type": "draw", "seat": turn + 1})
                assert refused["type"] == "error", refused
            res = await drawer.act({"type": "draw", "seat": turn})
            assert res["type"] == "ok", res
            for p in at_table:
                await p.at_version(res["version"])
        view = at_table[0].table["view"]
        assert view["over"] and None not in view["cards"], (table_id, view)
        assert view["winners"] == [view["cards"].index(max(view["cards"]))]

    over = await host.until(lambda m: m.get("type") == "party" and m["party"].get("status") == "over")
    result = over["party"]["result"]
    assert sorted(len(t["standings"]) for t in result["tables"]) == [6, 7]
    # The party's ranking: every guest, by the card they drew (two tables' decks may give
    # two guests the same card: they share a rank, listed by table and seat); the highest
    # card of all makes the champions.
    drawn, place = {}, {}
    for table in await tables_of(party):
        state = CANARY.from_dict(table.state)
        for seat, entry in enumerate(table.roster):
            drawn[entry["name"]] = state.cards[seat]
            place[entry["name"]] = (table.letter, seat)
    ranking = result["ranking"]
    assert [row["guest"] for row in ranking] == sorted(drawn, key=lambda name: (-drawn[name], place[name]))
    assert [row["rank"] for row in ranking] == [
        1 + sum(c > drawn[row["guest"]] for c in drawn.values()) for row in ranking
    ]
    best = max(drawn.values())
    assert set(result["champions"]) == {name for name, card in drawn.items() if card == best}
    for p in [*phones, host]:
        await p.close()

    client = Client()
    res = await sync_to_async(client.get)(
        f"/api/parties/{party.code}/result.csv", HTTP_AUTHORIZATION=f"Bearer {host_token}"
    )
    assert res.status_code == 200
    assert f"canary-heist-{party.code}.csv" in res["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(res.content.decode("utf-8-sig"))))
    assert {r["name"]: int(r["total"]) for r in rows} == drawn
    assert {r["name"] for r in rows if r["champion"] == "yes"} == set(result["champions"])

    # No story of its own: the host's fallback page, titled with the game, and no JSON.
    await sync_to_async(cache.clear)()
    page = await sync_to_async(client.get)(f"/story/{party.code}/")
    assert page.status_code == 200 and page.templates[0].name == FALLBACK_TEMPLATE
    text = page.content.decode()
    assert "Canary Heist" in text.split("<title>")[1].split("</title>")[0]
    told = text.split('id="story"')[1].split("<script")[0]
    assert "Champion" in told and result["champions"][0] in told
    missing = await sync_to_async(client.get)(f"/story/{party.code}/story.json")
    assert missing.status_code == 404 and missing.json()["error"] == "no_story"

    # No page fragments of its own either: a latecomer's join page ends the party with
    # the host's (every guest's total), the tablet's page pairs with the host's words.
    late = await sync_to_async(client.get)(f"/j/{party.code}/")
    assert "events/fragments/late_result.html" in [t.name for t in late.templates]
    ended = late.content.decode().split('class="late-result"')[1].split("</section>")[0]
    assert all(f"{name}: {card}" in ended for name, card in drawn.items()), ended
    tablet = await sync_to_async(client.get)(f"/t/{party.code}/")
    assert "events/fragments/pair_help.html" in [t.name for t in tablet.templates]
