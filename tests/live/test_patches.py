"""Screens that say `patches` in their hello (static/heist/live.js does) get each table
update as the changes since the version before (tables/broadcast.py). Over real
sockets: every socket's view stays exactly the database's at every action, and a patch,
expanded, is exactly the whole message a socket without patches gets."""

from __future__ import annotations

import json
import random

import pytest

from games.yankee import Phase
from games.yankee.views import TableCopy
from tests.live.clients import Phone
from tests.live.tables import connect, game_of, play_over_sockets, seated, socket_step

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


async def test_screens_on_patches_stay_in_step_with_the_database_at_every_action():
    s = await connect(await seated(5, seed=11), patches=True)
    try:
        start = await game_of(s.table_id)
        g = await play_over_sockets(s, random.Random(11), stop=lambda g: g.version >= start.version + 30)
        assert g.version >= start.version + 30 and g.phase is not Phase.OVER
        for p in s.all():
            raws = [m for m in p.raw_tables if m["version"] > start.version]
            assert raws and all("patch" in m and m["base"] == m["version"] - 1 for m in raws), "patches only"
            assert all("roster" not in m["table"] and m["table"]["roster_tag"] for m in raws)
            assert not p.patch_misses
    finally:
        await s.close()


async def test_a_patch_expanded_is_the_whole_message_and_smaller():
    s = await connect(await seated(6, seed=3), patches=True)
    whole_host = await Phone(s.code).connect()
    await whole_host.hello("host", s.host_token)
    whole_seat = await Phone(s.code).connect()
    await whole_seat.hello("guest", s.tokens[2])
    try:
        start = await game_of(s.table_id)
        g = await play_over_sockets(s, random.Random(3), stop=lambda g: g.version >= start.version + 20)
        await whole_host.at_version(g.version)
        await whole_seat.at_version(g.version)
        for patched, whole in ((s.host, whole_host), (s.phones[2], whole_seat)):
            expanded = [m for m in patched.tables() if m["version"] > start.version]
            plain = [m for m in whole.tables() if m["version"] > start.version]
            own = [m["version"] for m in expanded if ("you" in m["view"]) == (patched is not s.host)]
            assert own == list(range(start.version + 1, g.version + 1))  # (a captain also gets the public view)
            assert expanded == plain
            sent = sum(len(json.dumps(m)) for m in patched.raw_tables if m["version"] > start.version)
            full = sum(len(json.dumps(m)) for m in whole.raw_tables if m["version"] > start.version)
            assert sent < 0.75 * full, (sent, full)
    finally:
        await whole_host.close()
        await whole_seat.close()
        await s.close()


async def test_a_patch_on_a_version_the_screen_lacks_is_not_applied():
    """A screen that missed an update holds no base for the next patch: it takes
    nothing (live.js then resyncs) instead of patching the wrong version; after its
    resync's snapshot, patches apply again."""
    s = await connect(await seated(4, seed=8), patches=True)
    r = random.Random(8)
    try:
        start = await game_of(s.table_id)
        phone = s.phones[1]
        phone.copies.streams[(s.table_id, "seat")] = TableCopy()  # as if it had lost what it held
        await socket_step(s, r)
        await phone.until(lambda m: m.get("type") == "table_patch_missed")
        assert [m["base"] for m in phone.patch_misses] == [start.version]
        assert phone.table["version"] == start.version, "the screen shows what it had"
        await phone.send({"type": "resync", "re": "r1"})
        snap = await phone.reply("r1")
        assert snap["type"] == "snapshot" and snap["table"]["version"] == start.version + 1
        await socket_step(s, r)
        mine = await phone.at_version(start.version + 2)
        assert mine["view"]["you"] == 1 and len(phone.patch_misses) == 1
    finally:
        await s.close()
