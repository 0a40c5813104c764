"""Issue 31: a Royal Heist party's result ranks every guest's banked jewels across all
tables (the running total of the table's games), with each table's winners and the
party's champions, each guest's banks game by game, and the seat's guest named even
when a late arrival played it; the CSV has one row per guest."""

from __future__ import annotations

import csv
import io
import random

import pytest
from django.test import Client

from events.models import Guest, Party
from events.party import services
from events.party.selectors import party_result
from games.royal import ROYAL
from tables.models import Table
from tests import shorthand
from tests.party.played import play_to_the_end, play_until

pytestmark = pytest.mark.django_db


def _royal_party(guests: int, *, games: int = 2) -> tuple[Party, str, Guest]:
    """A Royal Heist party of `guests` played to its end, G0's seat played by Lena, a
    late arrival seated for them half-way through the first game."""
    party, host_token = shorthand.party_create(name="Royal night", game="royal", games=games)
    for i in range(guests):
        shorthand.guest_join(code=party.code, name=f"G{i}", description="")
    services.party_seat(party_id=party.pk)
    r = random.Random(guests)
    g0 = Guest.objects.get(party=party, name="G0")
    lena, _, _ = shorthand.guest_join(code=party.code, name="Lena", description="")
    services.late_guest_seat(party_id=party.pk, late_guest_id=lena.pk, guest_id=g0.pk)
    play_to_the_end(party, r)
    return party, host_token, g0


def test_a_royal_party_ranks_every_guest_across_the_tables_with_winners_and_champions():
    party, _, g0 = _royal_party(11)
    result = party_result(party)
    ranking = result["ranking"]
    tables = {t.letter: t for t in Table.objects.filter(party=party)}
    assert len(tables) == 2 and len(ranking) == 11  # every seated guest, once
    totals = {}
    for letter, table in tables.items():
        game = ROYAL.from_dict(table.state)
        for seat, total in enumerate(game.running_totals()):
            totals[(letter, seat)] = total
    assert {(r["table"], r["seat"]): r["total"] for r in ranking} == totals
    # One ranking across the tables: best first, tied totals share a rank.
    assert [r["total"] for r in ranking] == sorted(totals.values(), reverse=True)
    for r in ranking:
        assert r["rank"] == 1 + sum(1 for t in totals.values() if t > r["total"])
    best = max(totals.values())
    assert result["champions"] == [r["guest"] for r in ranking if r["total"] == best]
    assert all(r["champion"] == (r["total"] == best) for r in ranking)
    for t in result["tables"]:
        table_best = max(r["total"] for r in ranking if r["table"] == t["table"])
        assert t["winners"] == [r["guest"] for r in ranking if r["table"] == t["table"] and r["total"] == table_best]
    # Game by game: the two games' banks add up to the total, and differ from it for
    # someone (the second game started from empty banks).
    assert all(len(r["games"]) == 2 and sum(r["games"]) == r["total"] for r in ranking)
    assert any(r["games"][1] != r["total"] for r in ranking)
    # G0's seat is G0's, Lena played it for them.
    (mine,) = [r for r in ranking if r["guest_id"] == g0.pk]
    assert mine["guest"] == "G0" and mine["played_by"] == ["G0", "Lena"]
    assert all(r["played_by"] == [r["guest"]] for r in ranking if r is not mine)


def test_a_royal_partys_csv_has_one_row_per_guest_with_the_totals_and_the_champion():
    party, host_token, _ = _royal_party(6, games=2)
    res = Client().get(f"/api/parties/{party.code}/result.csv", HTTP_AUTHORIZATION=f"Bearer {host_token}")
    assert res.status_code == 200
    assert f"royal-heist-{party.code}.csv" in res["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(res.content.decode("utf-8-sig"))))
    (table,) = Table.objects.filter(party=party)
    totals = ROYAL.from_dict(table.state).running_totals()
    names = [e["name"] for e in table.roster]
    assert len(rows) == 6
    assert {(r["name"], r["table"], r["seat"]): r["total"] for r in rows} == {
        # Lena played G0's seat: the row is G0's
        ("G0" if names[seat] == "Lena" else names[seat], "A", str(seat + 1)): str(t)
        for seat, t in enumerate(totals)
    }
    assert all(int(r["game 1"]) + int(r["game 2"]) == int(r["total"]) for r in rows)
    best = max(totals)
    assert {r["name"] for r in rows if r["champion"] == "yes"} == {r["name"] for r in rows if int(r["total"]) == best}
    # One table: its winners are the party's champions.
    assert all(r["table winner"] == r["champion"] for r in rows)
    assert [int(r["rank"]) for r in rows] == sorted(int(r["rank"]) for r in rows)
    (g0,) = [r for r in rows if r["name"] == "G0"]
    assert g0["played by"] == "G0, then Lena"


def test_the_public_page_of_a_finished_royal_party_shows_the_ranking_and_the_champion():
    party, _, _ = _royal_party(5, games=1)
    page = Client().get(f"/j/{party.code}/").content.decode()
    result = party_result(party)
    assert "This party is over" in page and "took a gift home" not in page  # no gift-swap words
    champions = ", ".join(result["champions"])
    assert f"Champion{'s' if len(result['champions']) > 1 else ''}: {champions}" in page
    assert page.count("<tr") == 1 + 5  # the head and a row per guest
    for r in result["ranking"]:
        assert f'<td>{r["rank"]}</td><th scope="row">{r["guest"]}' in page
    assert "(played by G0, then Lena)" in page
    assert f'href="/story/{party.code}/"' in page  # the story, heist by heist


@pytest.mark.parametrize(("games", "finished"), [(2, 1), (3, 2)])
def test_mid_party_each_guests_games_are_the_finished_ones_and_the_one_being_played(games, finished):
    # Two tables stop at the gate half-way through their heists: after game 1 of two
    # (between the games: nothing of game 2 yet), or in game 2 of three.
    party, _ = shorthand.party_create(name="Royal night", game="royal", games=games)
    for i in range(11):
        shorthand.guest_join(code=party.code, name=f"G{i}", description="")
    services.party_seat(party_id=party.pk)
    play_until(party, random.Random(games), gate=True)
    ranking = party_result(party)["ranking"]
    assert len(ranking) == 11
    assert all(len(r["games"]) == finished and sum(r["games"]) == r["total"] for r in ranking)
