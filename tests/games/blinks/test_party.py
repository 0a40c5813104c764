"""A Blinks Heist party through the real socket: the host's options reach every table,
the teams are drawn balanced across the tables, each throw is recorded on the
thrower's phone and settled by the captain's tap, and the party's result, its CSV and
the host's files add the claims up by team (games.definition.PlaysInGroups)."""

from __future__ import annotations

import csv
import io

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.test import Client
from django.utils import translation

from events.models import Party
from events.party import services
from games.blinks.definition import BLINKS
from games.patch import merge_plain_private
from tables.errors import ServiceError
from tests import shorthand
from tests.live.seated_party import MergedPhone, phones_by_table, seated_party, tables_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


@pytest.mark.parametrize(
    "options",
    [{"vault": 2}, {"vault": 31}, {"vault": True}, {"alternate": 1}, {"gate": True}, ["vault"]],
)
def test_the_host_options_out_of_range_are_refused_and_make_no_party(options):
    before = Party.objects.count()
    with pytest.raises(ServiceError):
        shorthand.party_create(name="Blinks night", game="blinks", options=options)
    assert Party.objects.count() == before


def test_a_game_without_host_options_refuses_any():
    with pytest.raises(ServiceError):
        shorthand.party_create(name="Royal night", game="royal", options={"vault": 5})


def test_the_host_options_are_kept_with_their_defaults():
    party, _ = shorthand.party_create(name="Blinks night", game="blinks", options={"alternate": True})
    assert party.options == {"vault": 10, "alternate": True}


async def test_a_party_of_11_records_every_throw_on_phones_and_adds_the_claims_up_by_team():
    party, host_token, host, phones = await seated_party(
        11, name="Blinks night", game="blinks", options={"vault": 3, "alternate": False}
    )
    tables = await tables_of(party)
    assert sorted(len(t.roster) for t in tables) == [5, 6]
    # the host's vault at every table, and four teams balanced over the party and each table
    every: list[int] = []
    for t in tables:
        state = BLINKS.from_dict(t.state)
        assert state.vault == 3 and not state.alternate
        counts = [state.teams.count(team) for team in range(4)]
        assert max(counts) - min(counts) <= 1
        every += state.teams
    counts = [every.count(team) for team in range(4)]
    assert max(counts) - min(counts) <= 1, counts
    by_table = await phones_by_table(phones)
    for at_table in by_table.values():
        seat = {id(p): p.snapshot["me"]["seat"] for p in at_table}
        (captain,) = [p for p in at_table if p.snapshot["me"]["captain"]]
        while at_table[0].table["view"]["phase"] != "over":
            view = at_table[0].table["view"]
            (thrower,) = [p for p in at_table if seat[id(p)] == view["turn"]]
            hit = next(b["blink"] for b in view["vault"] if b["claimed_by"] is None)
            throw = {"type": "throw", "seat": view["turn"], "throw": view["next_throw"], "hit": hit, "touched": False}
            others = [p for p in at_table if p is not thrower and p is not captain]
            refused = await others[0].act({**throw, "seat": seat[id(others[0])]})
            assert refused["type"] == "error", refused  # not their turn, nor their seat
            res = await thrower.act(throw)
            assert res["type"] == "ok", res
            again = await thrower.act(throw)  # a double tap: the throw counts once
            assert again["type"] == "error", again
            for p in at_table:
                await p.at_version(res["version"])
            assert at_table[0].table["view"]["pending"]["throw"] == throw["throw"]
            # nobody claims a Blink alone: a guest who is not the captain cannot settle it
            if others[0] is not captain:
                assert (await others[0].act({"type": "confirm", "throw": throw["throw"]}))["type"] == "error"
            res = await captain.act({"type": "confirm", "throw": throw["throw"]})
            assert res["type"] == "ok", res
            for p in at_table:
                await p.at_version(res["version"])

    over = await host.until(lambda m: m.get("type") == "party" and m["party"].get("status") == "over")
    result = over["party"]["result"]
    want = [0, 0, 0, 0]
    for t in await tables_of(party):
        state = BLINKS.from_dict(t.state)
        for s, n in enumerate(state.claims()):
            want[state.teams[s]] += n
    assert sum(want) == 6
    assert [g["total"] for g in result["groups"]] == want
    assert [g["name"] for g in result["groups"]] == ["Red", "Blue", "Green", "Yellow"]
    assert {g["group"] for g in result["groups"] if g["winner"]} == {t for t, n in enumerate(want) if n == max(want)}
    for p in [*phones, host]:
        await p.close()

    client = Client()
    res = await sync_to_async(client.get)(
        f"/api/parties/{party.code}/result.csv", HTTP_AUTHORIZATION=f"Bearer {host_token}"
    )
    assert res.status_code == 200
    rows = list(csv.DictReader(io.StringIO(res.content.decode("utf-8-sig"))))
    teams = {r["name"]: int(r["total"]) for r in rows if r["rank"] == "team total"}
    assert teams == dict(zip(["Red", "Blue", "Green", "Yellow"], want, strict=True))
    guests = [r for r in rows if r["rank"] != "team total"]
    assert len(guests) == 11 and {r["team"] for r in guests} <= set(teams)

    # The story: who broke which Blink at each table, and the teams' totals.
    await sync_to_async(cache.clear)()
    told = (await sync_to_async(client.get)(f"/story/{party.code}/story.json")).json()
    breakers = {}
    for t in await tables_of(party):
        state = BLINKS.from_dict(t.state)
        breakers[t.letter] = [(b, t.roster[seat]["name"]) for b, seat in enumerate(state.owner, start=1)]
    assert {t["table"]: sorted((b["blink"], b["name"]) for b in t["blinks"]) for t in told["tables"]} == breakers
    page = await sync_to_async(client.get)(f"/story/{party.code}/")
    assert page.status_code == 200 and page.templates[0].name == "blinks/story.html"
    text = page.content.decode()
    name = breakers["A"][0][1]
    assert f"{name} broke Blink 1" in text


@sync_to_async
def _groups(party: Party) -> tuple[int, dict[int, int | None]]:
    party.refresh_from_db()
    return party.revision, dict(party.guests.values_list("pk", "group"))


async def test_the_host_sets_teams_by_hand_and_the_seating_keeps_them_and_draws_the_rest():
    party, host_token = await sync_to_async(shorthand.party_create)(
        name="Blinks night", game="blinks", options={"vault": 3}
    )
    joined = [
        await sync_to_async(shorthand.guest_join)(code=party.code, name=f"G{i}", description="") for i in range(10)
    ]
    ids = [g.pk for g, _, _ in joined]
    host = await MergedPhone(party.code).connect()
    await host.hello("host", host_token)
    ann = await MergedPhone(party.code).connect()
    await ann.hello("guest", joined[0][1])
    before = await _groups(party)
    # refused, and nothing changes: a guest is not the host, a team that is not one of
    # the four, a guest who is not at this party, an id that is not a number
    refusals = [
        (ann, {"guest": ids[0], "group": 0}),
        (host, {"guest": ids[0], "group": 4}),
        (host, {"guest": ids[0], "group": -1}),
        (host, {"guest": ids[0], "group": True}),
        (host, {"guest": ids[0], "group": "red"}),
        (host, {"guest": 10**9, "group": 0}),
        (host, {"guest": str(ids[0]), "group": 0}),
    ]
    for sender, args in refusals:
        res = await sender.command("set_group", **args)
        assert res["type"] == "error" and res["message"], (args, res)
    assert (await _groups(party)) == before
    # the host's lobby shows a team once set; back to the draw with None
    for guest, team in [(ids[0], 2), (ids[1], 2), (ids[2], 1), (ids[3], 0), (ids[3], None)]:
        assert (await host.command("set_group", guest=guest, group=team))["type"] == "ok"
    await host.until(
        lambda m: (
            m.get("type") == "party"
            and "guests" in m["party"]
            and [{g["id"]: g["group"] for g in m["party"]["guests"]}[i] for i in ids[:4]] == [2, 2, 1, None]
        )
    )
    _, groups = await _groups(party)
    assert [groups[i] for i in ids[:4]] == [2, 2, 1, None]

    assert (await host.command("seat"))["type"] == "ok"
    teams_of: dict[int, int] = {}
    every: list[int] = []
    for t in await tables_of(party):
        state = BLINKS.from_dict(t.state)
        every += state.teams
        for seat, row in enumerate(t.roster):
            teams_of[row["guest"]] = state.teams[seat]
    assert [teams_of[i] for i in ids[:3]] == [2, 2, 1]
    counts = [every.count(team) for team in range(4)]
    assert max(counts) - min(counts) <= 1, counts  # the rest drawn around the host's choices
    # Ann's phone says her team, the one the host set
    seated = await ann.until(lambda m: m.get("type") == "snapshot" and m.get("table"))
    assert merge_plain_private(seated["table"])["view"]["your_team"] == 2
    # seated: the teams are fixed
    revision = (await _groups(party))[0]
    res = await host.command("set_group", guest=ids[4], group=3)
    assert res["type"] == "error" and res["code"] == "seated", res
    assert (await _groups(party))[0] == revision
    for p in (host, ann):
        await p.close()


def test_a_game_without_teams_refuses_a_team_in_any_language():
    party, _ = shorthand.party_create(name="Royal night", game="royal")
    guest, _, _ = shorthand.guest_join(code=party.code, name="Ann", description="")
    with translation.override("de"), pytest.raises(ServiceError) as refused:
        services.party_set_group(party_id=party.pk, guest_id=guest.pk, group=0)
    assert str(refused.value) == "Royal Heist hat keine Teams"
    guest.refresh_from_db()
    assert guest.group is None


def test_a_refused_host_option_is_told_in_the_party_s_language():
    with translation.override("es"), pytest.raises(ServiceError) as refused:
        shorthand.party_create(name="Blinks night", game="blinks", options={"vault": 31})
    assert str(refused.value) == "Blinks de oro en la cámara de cada mesa: un número entero de 3 a 30"
