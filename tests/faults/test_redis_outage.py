"""Redis is down at the moment the host seats the party, and phones connect during the
outage. The seating broadcast (`resubscribe`: your table, seat and groups changed) is
lost, so no screen may depend on it: a phone learns it is behind from its next `pong`,
its resync reads who it is from the database, and it can play before Redis returns; a
phone opening during the outage is accepted and works; after Redis returns every screen
gets broadcasts again."""

from __future__ import annotations

import asyncio

import pytest

from games.yankee import Phase
from tests.party.drive import tables_of

from .party import LiveParty, wait_for
from .server import LivePhone

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack, pytest.mark.slow]


async def test_seating_while_redis_is_down_leaves_no_screen_stuck(daphne, private_redis):
    server = daphne(redis_url=private_redis.url)
    lp = await LiveParty.create(server, 4, seed=3)
    await lp.connect()
    extra: LivePhone | None = None
    try:
        private_redis.kill9()
        ok = await lp.host.command("seat")
        assert ok["type"] == "ok", ok
        tables = {t.pk for t in await tables_of(lp.party.pk)}
        (table_id,) = tables
        lp.acked[table_id] = set()

        # No phone got the seating broadcast. One heartbeat tells each it is behind.
        assert all(p.snapshot.get("role") != "guest" or p.snapshot.get("table") is None for p in lp.phones.values())
        for p in lp.all():
            p.start_heartbeat(0.5)
        for gid, p in lp.phones.items():
            await wait_for(lambda p=p: p.snapshot and p.snapshot.get("table"), f"guest {gid} learns its table", 5)
        await wait_for(lambda: len(lp.host.snapshot["tables"]) == 1, "host sees the table", 5)

        # A second device for a guest opens during the outage: accepted, with a snapshot.
        gid, token = next(iter(lp.tokens.items()))
        extra = LivePhone(server, lp.party.code, "guest", token)
        snap = await extra.open()
        assert snap["type"] == "snapshot" and snap["table"]["table"]["id"] == table_id, snap
        extra.start_heartbeat(0.5)

        # Still without Redis: the seated phones play (no "which table?").
        for _ in range(4):
            assert await lp.step(table_id) is not None
        await lp.assert_phones_match_db(timeout=5)

        private_redis.start()
        # Broadcasts reach every screen again (the extra device included), without
        # relying on the heartbeat: stop it and let the versions arrive by broadcast.
        await asyncio.sleep(1.5)  # the layer resubscribes within a second or so
        for p in [*lp.all(), extra]:
            p.stop_heartbeat()
        for _ in range(3):
            await lp.step(table_id)
        await lp.assert_phones_match_db(timeout=5)
        seat_phone = next(p for p in lp.phones.values() if p.token == token)
        await wait_for(
            lambda: extra.version(table_id) == seat_phone.version(table_id), "the extra device follows by broadcast", 5
        )
        await lp.play_until(table_id, {Phase.OVER})
        await lp.assert_phones_match_db()
    finally:
        if extra is not None:
            await extra.close()
        await lp.close()


async def test_a_phone_connecting_while_redis_is_down_is_accepted(daphne, private_redis):
    server = daphne(redis_url=private_redis.url)
    lp = await LiveParty.create(server, 3, seed=4)
    try:
        private_redis.kill9()
        await lp.connect()  # the host and every guest: handshake, hello, snapshot
        assert all(p.snapshot["type"] == "snapshot" for p in lp.all())
        assert "500" not in " ".join(line for line in server.log_text().splitlines() if "WSREJECT" in line)
        ok = await lp.host.command("seat")
        assert ok["type"] == "ok", ok
        for p in lp.all():
            p.start_heartbeat(0.5)
        (table,) = await tables_of(lp.party.pk)
        lp.acked[table.pk] = set()
        for gid, p in lp.phones.items():
            await wait_for(lambda p=p: p.snapshot and p.snapshot.get("table"), f"guest {gid} learns its table", 5)
        private_redis.start()
        await lp.step(table.pk)
        await lp.assert_phones_match_db(timeout=5)
    finally:
        await lp.close()
