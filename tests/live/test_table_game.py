"""A whole 4-player table over real sockets (Redis pub/sub layer, PostgreSQL): bots
choose from the stored game, every action goes through the socket of the seat that
must act, and every socket is checked against the database after every action."""

import random

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from events.models import Guest, Party
from games.yankee import Phase
from tests.live.clients import fresh_application, sent_until_now
from tests.live.tables import (
    assert_in_sync,
    connect,
    drive,
    game_of,
    gifts_of,
    hand_ids,
    party_row,
    play_over_sockets,
    seated,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


def assert_no_gaps(versions: list[int], first: int, last: int) -> None:
    """Every version from `first` to `last` exactly once, in order: +1, no gap."""
    assert versions == list(range(first, last + 1)), versions


async def test_four_players_play_to_the_end_over_sockets():
    s = await connect(await seated(4, seed=11))
    try:
        start = await game_of(s.table_id)
        gifts = gifts_of(start)
        final = await play_over_sockets(s, random.Random(11))
        assert final.phase is Phase.OVER and final.round == 4
        assert gifts_of(final) == gifts  # every gift still in exactly one place
        assert final.version > start.version + 16  # at least one action per turn, plus the reveal

        # Every socket saw every version once, in order, from the deal to the end.
        assert_no_gaps(s.host.versions, start.version + 1, final.version)
        for p in s.phones:
            assert_no_gaps(p.versions, start.version + 1, final.version)
        assert_no_gaps(s.phones[s.captain].public_versions, start.version + 1, final.version)

        # Every phone (and the host) sees the game over and the same result.
        for p in s.all():
            assert p.table["view"]["phase"] == "over"
            assert p.table["view"]["result"] == final.gifts
        for seat, p in enumerate(s.phones):
            assert p.table["view"]["gift"] == final.gifts[seat]
        party = await party_row(s.party_id)
        assert party.status == Party.Status.OVER and party.ended_at is not None
        # Nothing more arrives for the table once it is over.
        for got in await sent_until_now(s.all(), s.table_id):
            assert not [m for m in got if m["type"] == "table"]
    finally:
        await s.close()


async def test_server_restart_mid_window_then_the_game_finishes():
    """All state is in PostgreSQL: a restarted process (a fresh ASGI app, a fresh channel
    layer connection) serves the same game, and it plays on to the end."""
    s = await seated(4, seed=23)
    r = random.Random(23)
    start = await game_of(s.table_id)
    await drive(s.table_id, lambda g: g.round >= 3, seed=23)  # rounds 1-2 without sockets
    await connect(s)
    try:
        mid = await play_over_sockets(s, r, stop=lambda g: g.phase is Phase.REACTION)
        assert mid.phase is Phase.REACTION and mid.round >= 3
        seen = {seat: p.table for seat, p in enumerate(s.phones)}
    finally:
        await s.close()
    # The process dies: every socket goes, and with it the layer's subscriptions.
    await get_channel_layer().flush()
    online = await database_sync_to_async(
        lambda: list(Guest.objects.filter(party_id=s.party_id).values_list("sockets", flat=True))
    )()
    assert online == [0, 0, 0, 0]

    app = fresh_application()
    await connect(s, app=app)
    try:
        g = await game_of(s.table_id)
        assert g.version == mid.version  # nothing was lost or replayed
        assert s.host.table["version"] == mid.version
        waiting = set(mid.pending.window.waiting())
        for seat, p in enumerate(s.phones):
            view = p.snapshot["table"]["view"]
            assert p.snapshot["table"]["version"] == mid.version
            assert hand_ids(view) == list(g.hands[seat]) == hand_ids(seen[seat]["view"])
            assert view["asked"] == (seat in waiting)
            assert view["window"] == seen[seat]["view"]["window"]
        await assert_in_sync(s, mid.version)
        final = await play_over_sockets(s, r)
        assert final.phase is Phase.OVER
        assert gifts_of(final) == gifts_of(start)
        for p in s.phones:
            assert_no_gaps(p.versions, mid.version + 1, final.version)
            assert p.table["view"]["result"] == final.gifts
        assert_no_gaps(s.host.versions, mid.version + 1, final.version)
    finally:
        await s.close()
