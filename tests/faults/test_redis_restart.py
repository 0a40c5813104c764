"""Redis (the channel layer and the rate-limit cache) dies mid-party and comes back
empty. PostgreSQL holds the game, so nothing accepted may be lost; broadcasts sent while
it was down are lost, and the phones must notice (a version gap) and resync."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from events.models import Guest
from games.yankee import Phase
from tables.models import TableAction
from tests import shorthand

from .party import LiveParty, assert_replays
from .server import LivePhone

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack, pytest.mark.slow]


async def test_redis_restart_mid_party_loses_no_action_and_every_phone_converges(daphne, private_redis):
    server = daphne(redis_url=private_redis.url)
    # The host's dashboard on another process (production runs two behind nginx): the
    # table's updates reach it only through Redis, while the phones, on the process that
    # commits the actions, get them from it directly (events/broadcast/fanout.py).
    watcher = daphne(redis_url=private_redis.url)
    lp = await LiveParty.create(server, 4, seed=21)
    other, _ = await sync_to_async(shorthand.party_create)(name="Next door")
    await lp.connect(host_server=watcher)
    try:
        (table,) = await lp.seat()
        for _ in range(6):
            await lp.step(table.pk, surely=True)
        await lp.assert_phones_match_db()

        private_redis.kill9()
        # Actions while Redis is down: every reply arrives, on the same socket.
        for _ in range(3):
            await lp.step(table.pk, surely=True)
        # The sockets are still up (a ping is answered) ...
        for p in lp.all():
            assert (await p.ping())["type"] == "pong"
        # ... and a join elsewhere works: it needs PostgreSQL, not Redis.
        status, joined = await asyncio.to_thread(
            server.http, "POST", f"/api/parties/{other.code}/guests", {"name": "Late", "description": "socks"}
        )
        assert status == 201, (status, joined)

        private_redis.start()
        # Every phone converges within 5 s of Redis returning, in every run: the layer
        # resubscribes (config/patches/channels_redis.py), and a phone whose broadcasts were lost sees
        # newer versions in its next pong (a beat a second here) and resyncs.
        for p in lp.all():
            p.start_heartbeat(1.0)
        await lp.step(table.pk, surely=True)
        await lp.assert_phones_match_db(timeout=5)
        await lp.play_until(table.pk, {Phase.OVER}, surely=True)

        versions = await sync_to_async(list)(
            TableAction.objects.filter(table_id=table.pk).values_list("version", flat=True)
        )
        assert sorted(versions) == sorted(lp.acked[table.pk]), "acknowledged actions and recorded actions differ"
        await assert_replays(table.pk)
        await lp.assert_phones_match_db()
        # The host, on the other process, missed the broadcasts of the outage: it saw a
        # gap or a newer pong and resynced. No socket was lost.
        assert lp.host.resyncs + lp.host.pong_resyncs >= 1
        assert [p.connects for p in lp.all()] == [1] * len(lp.all()), [p.connects for p in lp.all()]
        late = LivePhone(server, other.code, "guest", joined["token"])
        snap = await late.open()
        assert snap["type"] == "snapshot" and snap["me"]["name"] == "Late"
        await late.close()
        assert await sync_to_async(Guest.objects.filter(party=other).count)() == 1
        print(
            f"\nredis outage: gaps {[p.gaps for p in lp.all()]} resyncs {[p.resyncs for p in lp.all()]}"
            f" after a pong {[p.pong_resyncs for p in lp.all()]}"
        )
    finally:
        await lp.close()
