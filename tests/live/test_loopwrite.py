"""A table action's optimistic statement sent from the event loop (tables/loopwrite.py):
the same one statement as on the threads, decided on this process's copy of the row and
written only while the row is exactly that copy and the guest still holds the seat;
anything else writes nothing there and is decided on the row, the long way."""

from __future__ import annotations

import asyncio
import dataclasses
import random

import psycopg
import psycopg.conninfo
import pytest
from channels.db import database_sync_to_async
from django.db import connection

from events.live import lanes
from events.party import play, services
from events.party.commands import act_request
from games.yankee import Phase
from games.yankee.actions import parse_action
from tables import loopwrite, write
from tables.models import TableAction
from tables.services import ActRequest, table_persist_on_loop
from tests import shorthand

from .tables import (
    assert_in_sync,
    bot_move,
    bot_step,
    connect,
    game_of,
    play_over_sockets,
    seated,
    seated_table,
    socket_step,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


@pytest.fixture
def acts_on_threads(monkeypatch):
    """Counts the acts that went to the acts' threads (events/live/lanes.py)."""
    calls = []
    real = lanes.run_in

    def counting(lane, fn):
        if lane == "acts":
            calls.append(fn.__name__)
        return real(lane, fn)

    monkeypatch.setattr(lanes, "run_in", counting)
    return calls


async def _step(s, r):
    """One bot action through its socket, and every screen at its version."""
    g = await game_of(s.table_id)
    await socket_step(s, r, g)
    return await assert_in_sync(s, g.version + 1)


def _count(table_id: int) -> int:
    return TableAction.objects.filter(table_id=table_id).count()


async def test_acts_over_sockets_are_written_from_the_loop_and_every_screen_follows(acts_on_threads):
    s = await connect(await seated(5, seed=11))
    r = random.Random(11)
    before = dict(write.stats)
    start = (await game_of(s.table_id)).version
    logged = await database_sync_to_async(_count)(s.table_id)
    g = await play_over_sockets(
        s, r, stop=lambda g: g.version >= start + 20 or g.phase in (Phase.REVEAL, Phase.GATE, Phase.OVER)
    )
    steps = g.version - start
    assert steps >= 10, g.phase
    on_loop = write.stats["on_loop"] - before["on_loop"]
    # The first one too: the sockets' hellos took this process's copy of the row that
    # seating wrote (write.warm). None of them went to the threads.
    assert on_loop == steps, (on_loop, steps, acts_on_threads)
    assert acts_on_threads == [], acts_on_threads
    assert await database_sync_to_async(_count)(s.table_id) == logged + steps, "one log row per version"
    assert loopwrite.lender().opened >= 1
    await s.close()


async def test_a_stale_copy_writes_nothing_from_the_loop_and_is_decided_on_the_row(acts_on_threads):
    s = await connect(await seated(4, seed=5))
    r = random.Random(5)
    await _step(s, r)
    stale = write._hot[s.table_id]
    g = await _step(s, r)
    assert g.version == stale.version + 1
    write._hot[s.table_id] = stale  # as if another process had written the last version
    before = dict(write.stats)
    acts_on_threads.clear()
    await socket_step(s, r, g)
    await assert_in_sync(s, stale.version + 2)
    assert write.stats["on_loop"] == before["on_loop"], "nothing written from the stale copy"
    assert acts_on_threads, "decided on the threads, on the row"
    versions = await database_sync_to_async(
        lambda: list(TableAction.objects.filter(table_id=s.table_id).values_list("version", flat=True))
    )()
    assert sorted(versions) == sorted(set(versions)) and max(versions) == stale.version + 2, versions
    await s.close()


async def test_a_copy_that_is_not_the_row_is_refused_by_the_statement_itself(acts_on_threads):
    """The copy's game and version are the row's, but another writer's transaction wrote
    the row last (its xmin differs): the statement's guard writes nothing."""
    s = await connect(await seated(4, seed=7))
    r = random.Random(7)
    await _step(s, r)
    g = await _step(s, r)
    hot = write._hot[s.table_id]
    assert hot.version == g.version
    write._hot[s.table_id] = dataclasses.replace(hot, xmin=str(int(hot.xmin) + 1))
    before = dict(write.stats)
    acts_on_threads.clear()
    await socket_step(s, r, g)
    await assert_in_sync(s, g.version + 1)
    assert write.stats["conflict"] == before["conflict"] + 1, "the loop's statement found another row"
    assert write.stats["on_loop"] == before["on_loop"]
    assert acts_on_threads, "then decided on the row"
    await s.close()


async def test_a_seat_handed_over_under_a_socket_with_a_warm_copy_is_not_played_from_it():
    """The hand-over's notice to the old device is lost; the table's copy is warm (the
    leaving guest has just acted from the loop): the old socket's next act must not be
    written, on the loop or anywhere."""
    s = await connect(await seated(4, seed=2))
    r = random.Random(2)
    g = await _step(s, r)
    while g.phase is not Phase.ACTION:  # a turn to take, with the copy warm
        g = await _step(s, r)
    assert s.table_id in write._hot and write._hot[s.table_id].version == g.version
    seat = g.active

    def hand_over():
        code = services.seat_hand_over(party_id=s.party_id, guest_id=s.guests[seat], requested_by="host").data["claim"]
        shorthand.seat_claim(code=s.code, claim=code, name="Substitute")  # its messages: lost

    await database_sync_to_async(hand_over)()
    before = dict(write.stats)
    old = s.phones[seat]
    await old.send({"type": "act", "re": "old", "version": g.version, "action": {"type": "regroup", "cards": []}})
    code = await old.closed()
    assert code == 4401, code
    assert write.stats["on_loop"] == before["on_loop"]
    assert (await game_of(s.table_id)).version == g.version, "the old device played nothing"
    s.phones[seat] = None
    await s.close()


async def test_a_connection_the_server_ended_is_not_lent_again():
    s = await connect(await seated(4, seed=3))
    r = random.Random(3)
    await _step(s, r)
    await _step(s, r)  # from the loop: its connection is open and idle now
    lender = loopwrite.lender()
    assert lender.idle, "the loop's connection is kept"
    opened = lender.opened

    def end_backends():
        with connection.cursor() as cur:
            cur.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = 'heist-acts-on-loop' AND datname = current_database()"
            )
            return cur.rowcount

    assert await database_sync_to_async(end_backends)() >= 1
    await asyncio.sleep(0.2)  # the server's goodbye reaches the idle socket
    before = dict(write.stats)
    version = (await game_of(s.table_id)).version
    await _step(s, r)
    await assert_in_sync(s, version + 1)
    assert write.stats["on_loop"] == before["on_loop"] + 1, "written from the loop on a fresh connection"
    assert lender.opened == opened + 1
    await s.close()


async def test_no_connection_to_be_had_sends_the_act_the_long_way(monkeypatch, acts_on_threads):
    s = await connect(await seated(4, seed=4))
    r = random.Random(4)
    await _step(s, r)
    lender = loopwrite.lender()
    lender.close()  # no idle connection left: the next act must open one
    monkeypatch.setattr(
        lender, "conninfo", psycopg.conninfo.make_conninfo(lender.conninfo, dbname="heist_no_such_database")
    )
    before = dict(write.stats)
    acts_on_threads.clear()
    version = (await game_of(s.table_id)).version
    await _step(s, r)
    await assert_in_sync(s, version + 1)
    assert write.stats["on_loop"] == before["on_loop"]
    assert acts_on_threads, "the threads wrote it"
    await s.close()


def _warm_table():
    """A seated table whose copy this process holds, the bot's next action's game, who
    sends it and its wire action."""
    table = seated_table(4, "Loop")
    r = random.Random(8)
    bot_step(table.pk, r)  # the threads' path leaves the hot copy
    g, actor, wire = bot_move(table.pk, r)
    return table, g, actor, wire


async def test_an_error_once_the_statement_is_sent_is_never_retried(monkeypatch, acts_on_threads):
    table, g, actor, wire = await database_sync_to_async(_warm_table)()
    assert table.pk in write._hot

    async def broken(self, *args, **kwargs):
        raise psycopg.OperationalError("the server closed the connection unexpectedly")

    monkeypatch.setattr(psycopg.AsyncConnection, "execute", broken)
    frame = {"type": "act", "table": table.pk, "action": wire, "re": "sent-once", "version": g.version}
    with pytest.raises(psycopg.OperationalError):
        await play.table_act_on_loop(act_request(actor, frame))
    assert not acts_on_threads, "not tried again on the threads: it may have committed"
    assert (await game_of(table.pk)).version == g.version


async def test_an_action_the_party_must_answer_in_the_database_is_not_written_from_the_loop():
    table, g, actor, wire = await database_sync_to_async(_warm_table)()
    before = dict(write.stats)
    request = ActRequest(
        party_id=table.party_id,
        table_id=table.pk,
        action=parse_action({**wire, **({"seat": actor.seat} if actor.seat is not None else {})}),
        actor_label="x",
    )
    persisted = await table_persist_on_loop(
        request, dataclasses.replace(play.PARTY_RULES, settles_alone=lambda table, new: False)
    )
    assert persisted is None and write.stats == before  # not sent: no statement, no conflict
    assert (await game_of(table.pk)).version == g.version
    # The party's phases: the gate and the end are answered through the threads.
    assert not play._needs_nothing_more(table, g.__class__.from_dict({**g.to_dict(), "phase": Phase.GATE.value}))
    assert not play._needs_nothing_more(table, g.__class__.from_dict({**g.to_dict(), "phase": Phase.OVER.value}))
    assert play._needs_nothing_more(table, g)


async def test_a_frame_the_loop_refuses_is_answered_by_the_long_path(acts_on_threads):
    """A refusal on the copy is never the answer: the threads decide it on the row, and
    their error is the reply."""
    s = await connect(await seated(4, seed=6))
    r = random.Random(6)
    await _step(s, r)
    g = await game_of(s.table_id)
    idle = next(seat for seat in range(4) if seat != g.active)
    acts_on_threads.clear()
    phone = s.phones[idle]
    await phone.send({"type": "act", "re": "nope", "version": g.version, "action": {"type": "regroup", "cards": []}})
    reply = await phone.reply("nope")
    assert reply["type"] == "error" and reply["code"].startswith("illegal."), reply
    assert acts_on_threads, "decided on the row"
    assert (await game_of(s.table_id)).version == g.version
    await s.close()


async def test_a_loop_never_holds_more_connections_than_its_share(settings):
    """Ten acts at once on one loop share its connections: never more than
    ACTS_ON_LOOP_CONNECTIONS are opened, and each is lent to one act at a time."""
    lender = loopwrite.Lender(loopwrite._params(), 2)
    busy: set[int] = set()
    overlaps = []

    async def one_act():
        async with lender.lend() as conn:
            overlaps.append(id(conn) in busy)
            busy.add(id(conn))
            await (await conn.execute("SELECT pg_sleep(0.05)")).fetchone()
            busy.discard(id(conn))

    await asyncio.gather(*(one_act() for _ in range(10)))
    assert lender.opened == 2 and len(lender.idle) == 2
    assert not any(overlaps), "a connection lent to two acts at once"
    lender.close()


async def test_two_answers_at_once_are_both_written_from_the_loop_one_after_the_other(acts_on_threads):
    """Both players a SWITCHEROO threatens pass in the same instant. Each answer waits
    for the table's action in flight on this loop (loopwrite.table_turn) and is decided
    on the copy its commit left: neither goes the long way, to a thread and a row lock
    (the second used to, its statement finding the row changed under its copy)."""
    from games.yankee import Card

    from .tables import arrange, ids

    s = await seated(4, seed=5)
    g0 = await game_of(s.table_id)
    a = g0.active
    b, c = (a + 1) % 4, (a + 2) % 4
    g0 = await arrange(s.table_id, {a: [Card.SWITCHEROO, Card.INSIDE_MAN], b: [Card.SNATCH], c: [Card.SNATCH]})
    await connect(s)
    v = g0.version
    card = ids(g0, a, Card.SWITCHEROO)[0]
    assert (await s.phones[a].act({"type": "play", "card": card, "targets": [b, c]}, version=v))["type"] == "ok"
    await assert_in_sync(s, v + 1)
    before = dict(write.stats)
    acts_on_threads.clear()
    rb, rc = await asyncio.gather(
        s.phones[b].act({"type": "react", "card": None}), s.phones[c].act({"type": "react", "card": None})
    )
    assert rb["type"] == rc["type"] == "ok", (rb, rc)
    assert {rb["version"], rc["version"]} == {v + 2, v + 3}
    assert write.stats["on_loop"] - before["on_loop"] == 2, "both written from the loop"
    assert write.stats["conflict"] == before["conflict"], "neither found the row changed under its copy"
    assert acts_on_threads == [], acts_on_threads
    g = await assert_in_sync(s, v + 3)
    assert g.gifts[b] == g0.gifts[c] and g.gifts[c] == g0.gifts[b]
    assert loopwrite._turns.get(asyncio.get_running_loop(), {}) == {}, "no lock kept for a quiet table"
    await s.close()


async def test_a_hello_takes_the_copy_only_when_there_is_none():
    """write.warm: a socket's hello takes its table's row as this process's copy (its
    xmin and game read in one statement) when the process has none, and never replaces
    a copy already there (an action's, which may be newer)."""
    s = await seated(4, seed=9)
    write.forget(s.table_id)
    await connect(s)
    hot = write._hot[s.table_id]
    row = await database_sync_to_async(_row_now)(s.table_id)
    assert (hot.xmin, hot.version) == row, "the row as it is"
    assert hot.game.to_dict() == (await game_of(s.table_id)).to_dict()
    assert not await database_sync_to_async(write.warm)(table_id=s.table_id, party_id=s.party_id)
    assert write._hot[s.table_id] is hot, "an existing copy is kept"
    await s.close()


def _row_now(table_id: int) -> tuple[str, int]:
    with connection.cursor() as cur:
        cur.execute("SELECT xmin::text, version FROM tables_table WHERE id = %s", [table_id])
        return cur.fetchone()
