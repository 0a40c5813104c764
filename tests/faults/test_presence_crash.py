"""Presence after a kill -9: the dead process never closed its sockets. A counter
(+1 on hello, -1 on close) stayed high, so a guest who came back and then left still
showed online, and one who never came back showed online until their marks expired.
Presence is one row per socket (events/live/presence.py): the restarted process drops the
rows of the dead one on its address."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from events.models import Guest

from .party import LiveParty, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack, pytest.mark.slow]


@sync_to_async
def sockets_by_guest(party_id: int) -> dict[int, int]:
    return dict(Guest.objects.filter(party_id=party_id).values_list("pk", "sockets"))


async def test_after_kill9_guests_who_left_show_offline_and_the_counts_are_right(server):
    lp = await LiveParty.create(server, 3, seed=8)
    await lp.connect()
    try:
        gids = list(lp.phones)
        assert await sockets_by_guest(lp.party.pk) == {g: 1 for g in gids}

        server.kill9()
        await asyncio.wait_for(asyncio.gather(*(p.closed.wait() for p in lp.all())), 10)
        server.start()
        # The host and two guests come back; the third guest's phone never does.
        back, never = gids[:2], gids[2]
        await lp.host.reconnect()
        for g in back:
            await lp.phones[g].reconnect()
        assert await sockets_by_guest(lp.party.pk) == {back[0]: 1, back[1]: 1, never: 0}

        # One who came back leaves: offline at once, for the host and in the database.
        await lp.phones[back[0]].close()
        await wait_for(
            lambda: any(
                m.get("type") == "presence" and m["guest"] == back[0] and m["online"] is False for m in lp.host.inbox
            ),
            "the host hears guest left",
        )
        assert await sockets_by_guest(lp.party.pk) == {back[0]: 0, back[1]: 1, never: 0}
        snap = await lp.host.request({"type": "resync"})
        online = {g["id"]: g["online"] for g in snap["party"]["guests"]}
        assert online == {back[0]: False, back[1]: True, never: False}, online
    finally:
        await lp.close()
