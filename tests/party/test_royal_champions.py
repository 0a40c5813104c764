"""Two guests tied on the best Royal Heist total are both the party's champions: in the
result (events/party/selectors.py `party_result`), the host's CSV, the join page and the
story's result. A tie is rare in play, so the finished party's stored banks are set to
one, once its game-by-game scores (a replay of the action log, which the edited state
no longer matches) are cached, as they are for every finished party."""

from __future__ import annotations

import csv
import io

import pytest
from django.template.loader import render_to_string
from django.test import Client

from events.party.selectors import party_result
from games.royal import ROYAL
from tables.models import Table
from tests.party.test_royal_result import _royal_party

pytestmark = pytest.mark.django_db


def _tie(table: Table, banks: list[int]) -> None:
    """The table's stored game with these running totals (one game: its banks). The
    party's result was read once before: its replayed scores are cached."""
    state = dict(table.state)
    state["totals"], state["banks"] = [0] * len(banks), banks
    assert ROYAL.from_dict(state).running_totals() == banks
    Table.objects.filter(pk=table.pk).update(state=state)


def test_two_guests_tied_on_the_best_total_at_two_tables_are_both_champions():
    party, host_token, _ = _royal_party(11, games=1)
    party_result(party)  # caches the replayed scores
    first, last = Table.objects.filter(party=party).order_by("letter")
    _tie(first, [3, 9, 1, 0, 2, 5][: len(first.roster)])
    _tie(last, [4, 2, 9, 8, 0, 1][: len(last.roster)])
    result = party_result(party)
    best = [r for r in result["ranking"] if r["total"] == 9]
    assert [(r["table"], r["seat"]) for r in best] == [("A", 1), ("B", 2)]
    names = [r["guest"] for r in best]
    assert result["champions"] == names
    assert [r["guest"] for r in result["ranking"] if r["champion"]] == names
    assert all(r["rank"] == 1 for r in best)
    assert sorted(r["rank"] for r in result["ranking"])[2] == 3  # the next total is third
    res = Client().get(f"/api/parties/{party.code}/result.csv", HTTP_AUTHORIZATION=f"Bearer {host_token}")
    rows = list(csv.DictReader(io.StringIO(res.content.decode("utf-8-sig"))))
    assert sorted(r["name"] for r in rows if r["champion"] == "yes") == sorted(names)
    assert {r["rank"] for r in rows if r["name"] in names} == {"1"}
    said = f"Champions: {', '.join(names)}"
    assert said in Client().get(f"/j/{party.code}/").content.decode()
    assert said in render_to_string("story/_result.html", {"result": result})  # the story's end


def test_two_guests_tied_at_one_table_are_both_its_winners_and_the_champions():
    party, _, _ = _royal_party(5, games=1)
    party_result(party)
    (table,) = Table.objects.filter(party=party)
    _tie(table, [7, 2, 7, 1, 0])
    result = party_result(party)
    names = [r["guest"] for r in result["ranking"] if r["total"] == 7]
    assert len(names) == 2 and result["champions"] == names
    (told,) = result["tables"]
    assert told["winners"] == names


def test_a_guests_phone_gets_the_champions_and_their_rank_at_the_end_even_after_leaving():
    """Issue 40.8: the Royal end screen on a phone names the champions and the guest's
    rank; G0 left half-way (Lena played the seat on), and their phone still gets it."""
    from events.models import Guest
    from events.party.roles import Actor, Role
    from events.party.selectors import snapshot_for

    party, _, _ = _royal_party(11, games=1)
    result = party_result(party)
    for guest in Guest.objects.filter(party=party, name__in=["G0", "G5"]):
        snap = snapshot_for(Actor(Role.GUEST, party.pk, guest_id=guest.pk, game="royal"))
        (row,) = [r for r in result["ranking"] if r["guest_id"] == guest.pk]
        assert snap["standing"] == {
            "rank": row["rank"],
            "of": 11,
            "total": row["total"],
            "champion": row["champion"],
            "champions": result["champions"],
        }
    lena = Guest.objects.get(party=party, name="Lena")
    snap = snapshot_for(Actor(Role.GUEST, party.pk, guest_id=lena.pk, game="royal"))
    assert snap["standing"] is None  # she played G0's seat: the rank is G0's
