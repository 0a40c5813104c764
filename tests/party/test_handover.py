"""A leaving guest hands their seat, with its whole game state, to a substitute."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from events.models import Guest
from tests.live.clients import Phone
from tests.party.drive import PartyBots

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


async def test_captain_hands_a_seat_to_a_substitute():
    bots = await PartyBots.create(4, seed=3)
    await bots.connect()
    try:
        assert (await bots.host.command("seat"))["type"] == "ok"
        guests = await sync_to_async(lambda: list(Guest.objects.filter(party=bots.party).order_by("seat")))()
        captain = next(g for g in guests if g.is_captain)
        leaving = next(g for g in guests if not g.is_captain)
        other = next(g for g in guests if not g.is_captain and g.pk != leaving.pk)
        for p in bots.phones.values():
            await p.until(lambda m: m.get("type") == "snapshot" and m.get("table"))
        hand_before = bots.phones[leaving.pk].snapshot["table"]["view"]["hand"]

        # A guest who is not captain cannot start a hand-over; the captain can.
        refused = await bots.phones[other.pk].command("hand_over_seat", guest=leaving.pk)
        assert refused["type"] == "error" and refused["code"] == "forbidden"
        # The leaving guest's phone is open: the captain needs their offer first.
        in_use = await bots.phones[captain.pk].command("hand_over_seat", guest=leaving.pk)
        assert in_use["type"] == "error" and in_use["code"] == "seat_in_use"
        assert (await bots.phones[leaving.pk].command("offer_seat"))["type"] == "ok"
        ok = await bots.phones[captain.pk].command("hand_over_seat", guest=leaving.pk)
        assert ok["type"] == "ok" and len(ok["claim"]) == 8

        client = Client()
        bad = await sync_to_async(client.post)(
            f"/api/parties/{bots.party.code}/claim",
            json.dumps({"claim": "WRONGCOD", "name": "Sub"}),
            "application/json",
        )
        assert bad.status_code == 400 and bad.json()["error"] == "bad_claim"
        res = await sync_to_async(client.post)(
            f"/api/parties/{bots.party.code}/claim",
            json.dumps({"claim": ok["claim"].lower(), "name": "Substitute Sam"}),
            "application/json",
        )
        assert res.status_code == 201, res.content
        body = res.json()
        assert body["guest"] == leaving.pk and "token" in body and body["token"] not in body["play_url"]

        # The leaving device is told and closed; its old secret opens nothing now.
        gone = await bots.phones[leaving.pk].until(lambda m: m.get("type") == "removed")
        assert "substitute" in gone["message"]
        stale = await Phone(bots.party.code).connect()
        assert (await stale.hello("guest", bots.tokens[leaving.pk]))["code"] == "bad_secret"
        # The substitute gets the same seat with the same hand; the code works once.
        sub = await Phone(bots.party.code).connect()
        snap = await sub.hello("guest", body["token"])
        assert snap["me"]["seat"] == leaving.seat and snap["me"]["name"] == "Substitute Sam"
        assert snap["table"]["view"]["hand"] == hand_before
        assert snap["table"]["table"]["roster"][leaving.seat]["name"] == "Substitute Sam"
        again = await sync_to_async(client.post)(
            f"/api/parties/{bots.party.code}/claim", json.dumps({"claim": ok["claim"], "name": "X"}), "application/json"
        )
        assert again.status_code == 400
        await sub.close()
    finally:
        await bots.close()
