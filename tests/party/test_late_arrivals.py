"""Issue 28.4: nobody is turned away. After the deal a latecomer registers (name and
gift) as a late arrival; the host may seat one in place of a guest who leaves, who
plays that seat for the leaver; a late gift never goes into a vault (every table's
vault holds the same number of gifts, set before play). Everyone who brought a gift
leaves with exactly one: the leaver the seat's gift, the late arrival their own
(docs/RULES.md, "Late arrivals")."""

from __future__ import annotations

import csv
import io
import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from events.models import Guest, Party, SeatHandOver
from events.party import services
from events.party.roles import Actor, Role
from events.party.selectors import party_result, snapshot_for
from games.yankee import Game
from games.yankee.party.story.inputs import story_replay
from tables.errors import ServiceError
from tables.models import Table
from tests import shorthand
from tests.live.clients import Phone
from tests.story.record import party_play

pytestmark = pytest.mark.django_db(transaction=True)


def _join(client: Client, code: str, name: str, description: str):
    return client.post(
        f"/api/parties/{code}/guests", json.dumps({"name": name, "description": description}), "application/json"
    )


def test_after_the_deal_a_latecomer_registers_as_a_late_arrival_over_http():
    party, _, _ = shorthand.party_seated(name="Late", guests=4)
    client = Client()
    page = client.get(f"/j/{party.code}/")
    assert b"already playing" in page.content and b"late arrival" in page.content
    assert b"registration for this party is closed" not in page.content.lower()
    res = _join(client, party.code, "Lena", "a teapot")
    assert res.status_code == 201, res.content
    body = res.json()
    late = Guest.objects.get(pk=body["guest"])
    assert late.late and late.table_id is None and late.gift_number == 5
    # Nothing changed at the table: a late gift is not in play, no vault grew.
    table = Table.objects.get(party=party)
    assert len(table.roster) == 4 and late.gift_number not in Game.from_dict(table.state).gifts
    me = snapshot_for(Actor(Role.GUEST, party.pk, guest_id=late.pk))["me"]
    assert me["late"] is True and me["seat"] is None and me["playing_for"] is None
    # Bad input: a clear error, nothing made.
    bad = _join(client, party.code, "", "a mug")
    assert bad.status_code == 400 and Guest.objects.filter(party=party).count() == 5


def test_a_host_who_closed_the_door_before_the_deal_still_keeps_it_closed():
    party, _host_token = shorthand.party_create(name="Door")
    services.party_set_registration(party_id=party.pk, open_=False)
    with pytest.raises(ServiceError) as err:
        shorthand.guest_join(code=party.code, name="Lena", description="a teapot")
    assert err.value.code == "closed"


def test_a_late_arrival_plays_a_leavers_seat_and_everyone_leaves_with_one_gift():
    party, host_token, _ = shorthand.party_seated(name="Late seat", guests=4)
    table = Table.objects.get(party=party)
    leaver = Guest.objects.get(table=table, seat=2)
    hand = Game.from_dict(table.state).hands[2]
    late, _late_token, _ = shorthand.guest_join(code=party.code, name="Lena", description="a teapot")
    idle, _, _ = shorthand.guest_join(code=party.code, name="Ike", description="a kite")

    # Refused: not a late arrival, a late arrival for nobody, twice.
    with pytest.raises(ServiceError):
        services.late_guest_seat(party_id=party.pk, late_guest_id=leaver.pk, guest_id=leaver.pk)
    with pytest.raises(ServiceError):
        services.late_guest_seat(party_id=party.pk, late_guest_id=late.pk, guest_id=idle.pk)
    out = services.late_guest_seat(party_id=party.pk, late_guest_id=late.pk, guest_id=leaver.pk)
    assert out.data == {"guest": late.pk, "table": "A", "seat": 2}
    with pytest.raises(ServiceError) as again:
        services.late_guest_seat(party_id=party.pk, late_guest_id=late.pk, guest_id=leaver.pk)
    assert again.value.code == "seated"

    late.refresh_from_db()
    leaver.refresh_from_db()
    assert (late.table_id, late.seat) == (table.pk, 2) and leaver.table_id is None
    table.refresh_from_db()
    assert table.roster[2]["guest"] == late.pk and table.roster[2]["name"] == "Lena"
    assert table.roster[2]["played_for"] == leaver.name  # the table's screens say whose the gift is
    assert table.roster[2]["gift_number"] == leaver.gift_number  # the seat still goes home as the leaver's
    assert Game.from_dict(table.state).hands[2] == hand  # the whole game state, unchanged
    record = SeatHandOver.objects.get(party=party)
    assert (record.leaving_name, record.claimed_by, record.substitute_id) == (leaver.name, "Lena", late.pk)
    # The late arrival's secret now opens the seat; the leaver's phone sees who plays for them.
    assert snapshot_for(Actor(Role.GUEST, party.pk, guest_id=late.pk))["me"]["playing_for"] == leaver.name
    assert snapshot_for(Actor(Role.GUEST, party.pk, guest_id=leaver.pk))["me"]["played_by"] == "Lena"

    party_play(party, seed=3)
    services.party_end(party_id=party.pk)
    party.refresh_from_db()
    result = party_result(party)
    # Everyone who brought a gift takes exactly one home, and every gift goes once.
    home = {r["guest"]: r["gift"] for r in result["keeps"]} | {r["guest"]: r["gift"] for r in result["late"]}
    bringers = Guest.objects.filter(party=party).values_list("name", flat=True)
    assert sorted(home) == sorted(bringers) and len(set(home.values())) == len(home) == 6
    assert home["Lena"] == str(late.gift_number) and home["Ike"] == str(idle.gift_number)
    assert "Lena" not in [r["guest"] for r in result["keeps"]]
    seat = next(r for r in result["keeps"] if r["seat"] == 2)
    assert seat["guest"] == leaver.name and seat["played_by"] == [leaver.name, "Lena"]

    res = Client().get(f"/api/parties/{party.code}/result.csv", HTTP_AUTHORIZATION=f"Bearer {host_token}")
    rows = list(csv.DictReader(io.StringIO(res.content.decode("utf-8-sig"))))
    late_rows = {r["name"]: r for r in rows if r["kind"] == "late arrival keeps own gift"}
    assert late_rows["Ike"]["gift"] == str(idle.gift_number) and late_rows["Ike"]["played by"] == ""
    assert late_rows["Ike"]["description"] == "a kite"
    assert late_rows["Lena"]["played by"] == f"Lena, for {leaver.name}" and late_rows["Lena"]["seat"] == "3"
    story = story_replay(party)
    assert {g["gift"] for g in story["late_gifts"]} == {str(late.gift_number), str(idle.gift_number)}
    assert story["substitutes"][0]["substitute"] == "Lena"


@pytest.mark.stack
async def test_the_late_arrivals_phone_gets_the_seat_and_the_leavers_phone_is_told():
    party, host_token, tokens = await sync_to_async(shorthand.party_seated)(name="Late live", guests=3)
    leaver = await sync_to_async(Guest.objects.get)(party=party, seat=1)
    late, late_token, _ = await sync_to_async(shorthand.guest_join)(
        code=party.code, name="Lena", description="a teapot"
    )
    host = await Phone(party.code).connect()
    await host.hello("host", host_token)
    old = await Phone(party.code).connect()
    await old.hello("guest", tokens[leaver.pk])
    new = await Phone(party.code).connect()
    hello = await new.hello("guest", late_token)
    assert hello["me"]["late"] is True and hello["table"] is None
    reply = await host.command("seat_late_guest", late_guest=late.pk, guest=leaver.pk)
    assert reply["type"] == "ok", reply
    seated = await new.until(lambda m: m.get("type") == "snapshot" and m.get("table"))
    assert seated["me"]["seat"] == 1 and seated["table"]["view"]["you"] == 1
    told = await old.until(lambda m: m.get("type") == "snapshot" and m["me"].get("played_by"))
    assert told["me"]["played_by"] == "Lena" and told["table"] is None
    # A guest cannot seat anyone.
    refused = await old.command("seat_late_guest", late_guest=late.pk, guest=leaver.pk)
    assert refused["type"] == "error" and refused["code"] == "forbidden"
    for p in (host, old, new):
        await p.close()
    assert (await sync_to_async(Party.objects.get)(pk=party.pk)).status == "playing"


@pytest.mark.parametrize("game", ["yankee", "royal"])
def test_the_join_page_speaks_of_gifts_only_for_a_game_with_gifts(game):
    """Issue 38: a Royal Heist latecomer read of the late-gifts shelf and of taking their
    own gift home, and a substitute of taking over "their seat and cards"; the join page
    says the gift sentences only for a game with the party's gifts (its features)."""
    from games.registry import game_named

    party, _ = shorthand.party_create(name="Late", game=game)
    for i in range(4):
        shorthand.guest_join(code=party.code, name=f"G{i}", description=f"gift {i}")
    services.party_seat(party_id=party.pk)
    page = Client().get(f"/j/{party.code}/").content.decode()
    assert "already playing" in page and "late arrival" in page
    gifts = game_named(game).features.gifts
    assert ("late-gifts shelf" in page) is gifts
    assert ("gift in front of it" in page) is gifts
    assert ("Secretly describe the gift you brought" in page) is gifts
    claim = page.split('id="claim-form"')[1].split("</form>")[0]
    assert "take over their seat and play it for them" in claim and "cards" not in claim
