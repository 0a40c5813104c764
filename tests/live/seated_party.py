"""A party of any game seated through the real socket, as the socket tests of a whole
party start: the host creates it, the guests join, every one connects from their own
phone and the host seats them; then each seat's phone reads its snapshot."""

from __future__ import annotations

import json
from typing import NamedTuple

from asgiref.sync import sync_to_async

from events.models import Party
from games.patch import merge_plain_private
from tables.models import Table
from tests import shorthand
from tests.live.clients import Phone


class MergedPhone(Phone):
    """A seat's phone of a game whose private part is plain keys on top of the public view:
    its table updates merged as the game's screens merge them (games/patch.py
    merge_plain_private), each kept as sent in `raw_tables`."""

    def _note_raw(self, text: str) -> dict:
        raw = json.loads(text)
        if raw.get("type") != "table":
            return raw
        self.raw_tables.append(raw)
        return merge_plain_private(raw)


class Seated(NamedTuple):
    party: Party
    host_token: str
    host: MergedPhone
    phones: list[MergedPhone]  # the guests', in the order they joined


async def seated_party(guests: int, *, description: str = "", **fields) -> Seated:
    """A party created with `fields` (services.party_create), `guests` guests G0, G1, ...
    joined with `description`, each on their own socket, and the host's phone; seated by
    the host (its "seat" command answered ok)."""
    party, host_token = await sync_to_async(shorthand.party_create)(**fields)
    tokens = []
    for i in range(guests):
        _, token, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name=f"G{i}", description=description)
        tokens.append(token)
    host = await MergedPhone(party.code).connect()
    await host.hello("host", host_token)
    phones = [await MergedPhone(party.code).connect() for _ in tokens]
    for phone, token in zip(phones, tokens, strict=True):
        await phone.hello("guest", token)
    seated = await host.command("seat")
    assert seated["type"] == "ok", seated
    return Seated(party, host_token, host, phones)


async def phones_by_table(phones: list[MergedPhone]) -> dict[int, list[MergedPhone]]:
    """Once every phone has its seat's snapshot: table id -> the phones seated there."""
    for phone in phones:
        await phone.until(lambda m: m.get("type") == "snapshot" and m.get("table"))
    by_table: dict[int, list[MergedPhone]] = {}
    for phone in phones:
        by_table.setdefault(phone.table["table"]["id"], []).append(phone)
    return by_table


@sync_to_async
def tables_of(party: Party) -> list[Table]:
    """The party's tables, by letter."""
    return list(Table.objects.filter(party=party).order_by("letter"))
