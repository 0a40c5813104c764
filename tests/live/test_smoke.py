import pytest
from asgiref.sync import sync_to_async

from games.yankee import Game
from tables.models import Table
from tests import shorthand
from tests.live.clients import Phone

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


async def test_four_guests_seated_and_first_turn():
    party, host_token = await sync_to_async(shorthand.party_create)(name="Smoke")
    tokens = []
    for name in ["Alex", "Bea", "Cam", "Dee"]:
        _, token, _ = await sync_to_async(shorthand.guest_join)(
            code=party.code, name=name, description=f"{name}'s gift"
        )
        tokens.append(token)
    host = await Phone(party.code).connect()
    snap = await host.hello("host", host_token)
    assert snap["type"] == "snapshot" and len(snap["party"]["guests"]) == 4
    phones = [await Phone(party.code).connect() for _ in tokens]
    for p, t in zip(phones, tokens, strict=False):
        s = await p.hello("guest", t)
        assert s["me"]["table"] is None
    ok = await host.command("seat")
    assert ok["type"] == "ok", ok
    table = await sync_to_async(Table.objects.get)(party=party)
    hands = Game.from_dict(table.state).hands
    for p in phones:
        snap = await p.until(lambda m: m.get("type") == "snapshot" and m.get("table"))
        # Each phone shows its own seat's hand as dealt (the active player's has drawn).
        assert len(snap["table"]["view"]["hand"]) == len(hands[snap["me"]["seat"]])
    active = snap["table"]["view"]["active"]
    phone = next(p for p in phones if p.snapshot["me"]["seat"] == active)
    res = await phone.act({"type": "regroup", "cards": []})
    assert res["type"] == "ok", res
    for p in [*phones, host]:
        await p.close()
