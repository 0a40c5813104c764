"""Before the round-1 reveal no host view or file carries a wrapped gift's description
(item 6 of issue 8): the result CSV, the host's snapshot and party messages."""

from __future__ import annotations

import csv
import io
import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from events.models import Party
from events.party import services
from games.yankee import Game
from tables.models import Table
from tests import shorthand
from tests.live.clients import Phone

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]

DESCRIPTIONS = [f"secret gift number {i} xyzzy" for i in range(5)]


def _party():
    party, host_token = shorthand.party_create(name="Wrapped", vault_size=1)
    for i, d in enumerate(DESCRIPTIONS):
        shorthand.guest_join(code=party.code, name=f"W{i}", description=d)
    services.vault_gift_add(party_id=party.pk, contributor="Aunt", description="vault secret xyzzy")
    services.party_seat(party_id=party.pk)
    return party, host_token


def _csv(party, token) -> str:
    got = Client().get(f"/api/parties/{party.code}/result.csv", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert got.status_code == 200
    return got.content.decode("utf-8-sig")


async def test_no_host_view_or_file_carries_a_wrapped_description_in_round_one():
    party, host_token = await sync_to_async(_party)()
    table = await sync_to_async(Table.objects.get)(party=party)
    game = Game.from_dict(table.state)
    assert not set(game.gifts) & set(game.open), "round 1 starts with every gift wrapped"
    text = await sync_to_async(_csv)(party, host_token)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 6 and "xyzzy" not in text, text
    assert {r["description"] for r in rows} == {"(wrapped)"}
    host = await Phone(party.code).connect()
    snap = await host.hello("host", host_token)
    assert "xyzzy" not in json.dumps(snap)
    await host.close()


def test_the_csv_shows_a_description_once_the_gift_is_unwrapped():
    party, host_token = _party()
    table = Table.objects.get(party=party)
    state = dict(table.state)
    gift = state["gifts"][0]
    state["open"] = sorted({*state["open"], gift})  # that gift was unwrapped at the reveal
    Table.objects.filter(pk=table.pk).update(state=state)
    rows = list(csv.DictReader(io.StringIO(_csv(party, host_token))))
    shown = [r["description"] for r in rows if r["description"] != "(wrapped)"]
    assert len(shown) == 1 and shown[0] in DESCRIPTIONS
    # At the end every gift is the result: all descriptions.
    Party.objects.filter(pk=party.pk).update(status=Party.Status.OVER)
    text = _csv(party, host_token)
    assert all(d in text for d in DESCRIPTIONS) and "vault secret xyzzy" in text
