"""A socket's heartbeat never waits behind its own requests or the database.

A phone that hears nothing for 4 s (static/heist/live.js DEAD_AFTER_MS) drops its socket
and opens another, whose hello costs more database work. Ten 100-guest parties joining
at once (bench/party.py --parties 10) queued each socket's pings behind its hello in the
database threads' queue, and the reconnects fed the queue: a storm. Here the database is
made slow on purpose and the pongs must still come at once."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from asgiref.sync import sync_to_async

from events.live import act, consumers, heartbeat
from events.live.socket import hello, queue, snapshots
from events.models import Party
from games.yankee.actions import ConfirmReveal, action_to_dict
from games.yankee.bots import bot_action
from tests import shorthand
from tests.live.clients import Phone
from tests.live.tables import connect, game_of, seated

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]

SLOW = 2.0  # seconds each slowed database call takes: half the phones' dead-socket limit


async def _until_type(phone: Phone, kind: str, timeout: float) -> dict:
    return await phone.until(lambda m: m.get("type") == kind, timeout=timeout)


class Signal:
    """Set from a database thread (a slowed call has begun, or ended), awaited on the
    test's loop: the request is in hand, rather than probably, after a sleep."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.event = asyncio.Event()

    def set(self) -> None:
        self.loop.call_soon_threadsafe(self.event.set)

    async def wait(self, timeout: float = 5) -> None:
        await asyncio.wait_for(self.event.wait(), timeout)


async def test_a_ping_is_answered_while_the_hello_waits_for_the_database(monkeypatch):
    party, _ = await sync_to_async(shorthand.party_create)(name="Burst")
    _, token, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Ana", description="socks")
    real = hello.identify

    def slow_identify(*args):
        time.sleep(SLOW)  # the database, busy with 500 other phones' hellos
        return real(*args)

    monkeypatch.setattr(hello, "identify", slow_identify)
    phone = await Phone(party.code).connect()
    await phone.send({"type": "hello", "role": "guest", "token": token, "re": "h"})
    await asyncio.sleep(0.05)
    sent = time.monotonic()
    await phone.send({"type": "ping"})
    pong = await phone.recv(timeout=SLOW)
    assert pong["type"] == "pong", pong
    assert time.monotonic() - sent < SLOW / 2  # not behind the hello
    assert "tables" not in pong  # no actor yet: nothing to compare
    snap = await _until_type(phone, "snapshot", timeout=SLOW * 3)  # the hello still completes
    assert snap["re"] == "h" and snap["role"] == "guest"
    await phone.close()


async def test_a_pong_waits_for_a_slow_versions_read_at_most_pong_wait(monkeypatch):
    party, _ = await sync_to_async(shorthand.party_create)(name="Slow reads")
    _, token, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Bo", description="mug")
    phone = await Phone(party.code).connect()
    await phone.hello("guest", token)
    real = heartbeat._read_party
    reads = []

    def slow_read(party_id):
        reads.append(party_id)
        time.sleep(SLOW)
        return real(party_id)

    monkeypatch.setattr(heartbeat, "_read_party", slow_read)
    heartbeat._versions.clear()
    sent = time.monotonic()
    await phone.send({"type": "ping"})
    pong = await _until_type(phone, "pong", timeout=SLOW)
    waited = time.monotonic() - sent
    assert heartbeat.PONG_WAIT <= waited < heartbeat.PONG_WAIT + 0.5, waited
    assert "revision" not in pong, pong  # went without versions rather than late
    for _ in range(100):  # the read went on, and serves the next pong
        if party.pk in heartbeat._versions:
            break
        await asyncio.sleep(0.05)
    await phone.send({"type": "ping"})
    pong = await _until_type(phone, "pong", timeout=1)
    revision = await sync_to_async(lambda: Party.objects.get(pk=party.pk).revision)()
    assert pong["revision"] == revision, pong
    await phone.close()


async def test_requests_keep_their_order_and_a_ping_overtakes_them(monkeypatch):
    """Frames of one socket are handled in the order sent (a resync after an act sees the
    act); only the heartbeat goes ahead of them."""
    party, host_token = await sync_to_async(shorthand.party_create)(name="Order")
    real = snapshots.snapshot_for

    def slow_snapshot(actor):
        time.sleep(0.5)
        return real(actor)

    phone = await Phone(party.code).connect()
    await phone.hello("host", host_token)
    monkeypatch.setattr(snapshots, "snapshot_for", slow_snapshot)
    await phone.send({"type": "resync", "re": "r1"})
    await phone.send({"type": "party", "re": "c1", "command": "close_registration"})
    await phone.send({"type": "resync", "re": "r2"})
    await phone.send({"type": "ping"})
    seen = []
    while len([m for m in seen if m.get("re") in ("r1", "c1", "r2")]) < 3:
        msg = await phone.recv(timeout=5)
        seen.append(msg)
    kinds = [m.get("re") or m["type"] for m in seen if m["type"] != "party"]
    assert kinds.index("pong") < kinds.index("r1"), kinds  # the ping went ahead
    assert [k for k in kinds if k in ("r1", "c1", "r2")] == ["r1", "c1", "r2"], kinds
    r2 = next(m for m in seen if m.get("re") == "r2")
    assert r2["party"]["registration_open"] is False  # the resync saw the command before it
    await phone.close()


async def _first_move(name: str):
    """A seated table of four on sockets, its game, and the first move's socket and frame
    (seed 1's first move is a seat's)."""
    s = await connect(await seated(4, name=name))
    g = await game_of(s.table_id)
    action = bot_action(g, random.Random(3))
    wire = action_to_dict(action)
    assert not isinstance(action, ConfirmReveal)
    return s, g, s.phones[wire.pop("seat")], wire


async def test_a_socket_that_drops_mid_action_still_announces_the_commit(monkeypatch):
    """The phone closes while its act is in the database: the act commits, and the
    table still hears of it (the socket's close waits for the request in hand)."""
    s, g, phone, wire = await _first_move("Drop")
    real = act._seat_then_act

    def slow_act(*args):
        time.sleep(0.5)
        return real(*args)

    monkeypatch.setattr(act, "_seat_then_act", slow_act)
    await phone.send({"type": "act", "re": "gone", "action": wire, "version": g.version})
    await asyncio.sleep(0.1)
    await phone.close()  # the phone is gone before its act has committed
    update = await s.host.at_version(g.version + 1, timeout=5)
    assert update["version"] == g.version + 1
    assert (await game_of(s.table_id)).version == g.version + 1
    for p in s.all():
        if p is not phone:
            await p.close()


async def test_a_phone_gone_before_its_pong_still_gets_its_socket_cleaned_up(monkeypatch):
    """daphne raises when a reply goes to a phone that has just closed (its disconnect
    is still queued): the consumer must not end on it, or disconnect() never runs and
    the guest stays online with its groups and fan-out entries."""
    from autobahn.exception import Disconnected
    from channels.consumer import AsyncConsumer

    from events.models import GuestSocket

    party, _ = await sync_to_async(shorthand.party_create)(name="Gone")
    guest, token, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Cy", description="tea")
    phone = await Phone(party.code).connect()
    await phone.hello("guest", token)
    assert await sync_to_async(GuestSocket.objects.filter(guest_id=guest.pk).count)() == 1
    real = AsyncConsumer.send
    refused = []

    async def gone(self, message):
        if message.get("type") == "websocket.send" and '"pong"' in message.get("text", ""):
            refused.append(message)
            raise Disconnected("Attempt to send on a closed protocol")
        await real(self, message)

    monkeypatch.setattr(AsyncConsumer, "send", gone)
    await phone.send({"type": "ping"})
    # The disconnect reaches the consumer behind the ping, on the same input: it is
    # handled only after the failed pong. A consumer that ended on that pong never
    # reads it: close() re-raises the Disconnected, and the row below stays.
    await phone.close()
    assert len(refused) == 1  # the pong was sent, and refused
    assert phone.comm.future.done() and not phone.comm.future.cancelled()
    assert phone.comm.future.exception() is None  # it ended by the disconnect, not on the pong
    assert await sync_to_async(GuestSocket.objects.filter(guest_id=guest.pk).count)() == 0


async def test_a_closing_socket_gives_up_on_a_stuck_request_and_still_cleans_up(monkeypatch):
    """daphne cancels a consumer still running 10 s after its phone left: the close waits
    for the request in hand at most FINISH_SECONDS, then cleans up regardless."""
    from events.models import GuestSocket

    monkeypatch.setattr(queue, "FINISH_SECONDS", 0.3)
    party, _ = await sync_to_async(shorthand.party_create)(name="Stuck")
    guest, token, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Di", description="pen")
    phone = await Phone(party.code).connect()
    await phone.hello("guest", token)
    real = snapshots.snapshot_for
    began_read, ended_read = Signal(), Signal()

    def stuck_snapshot(actor):
        began_read.set()
        try:
            time.sleep(SLOW)
            return real(actor)
        finally:
            ended_read.set()

    monkeypatch.setattr(snapshots, "snapshot_for", stuck_snapshot)
    await phone.send({"type": "resync", "re": "r"})
    await began_read.wait()  # the request in hand is stuck in the database
    began = time.monotonic()
    await phone.close()
    assert time.monotonic() - began < SLOW / 2  # did not wait for the stuck read
    assert await sync_to_async(GuestSocket.objects.filter(guest_id=guest.pk).count)() == 0
    await ended_read.wait(SLOW * 3)  # the abandoned read finishes before the test ends


async def test_a_hello_that_finishes_after_the_phone_left_holds_no_seat_slot(monkeypatch):
    """The close waits for the hello in hand; the seat slot that hello took is given
    back too, or the per-seat cap would count a socket that is gone."""
    from events.live import socket_limits
    from events.models import GuestSocket

    party, _ = await sync_to_async(shorthand.party_create)(name="Late hello")
    guest, token, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Ed", description="hat")
    real = hello.identify
    identifying = Signal()

    def slow_identify(*args):
        identifying.set()
        time.sleep(0.8)
        return real(*args)

    monkeypatch.setattr(hello, "identify", slow_identify)
    phone = await Phone(party.code).connect()
    await phone.send({"type": "hello", "role": "guest", "token": token, "re": "h"})
    await identifying.wait()
    await phone.close()  # the hello is still in the database
    assert socket_limits.seats.count(guest.pk) == 0
    assert await sync_to_async(GuestSocket.objects.filter(guest_id=guest.pk).count)() == 0


async def test_an_act_is_answered_while_hellos_fill_the_sockets_threads(monkeypatch):
    """A table playing while other guests still join: its acts run on threads of their
    own (events/live/lanes.py), not behind the newcomers' hellos in the loop's pool."""
    s, g, phone, wire = await _first_move("Busy")
    real = hello.identify

    def slow_identify(*args):
        time.sleep(SLOW)  # the database, busy with a join burst
        return real(*args)

    monkeypatch.setattr(hello, "identify", slow_identify)
    newcomers = [await Phone(s.code).connect() for _ in range(8)]  # more than the loop's pool
    try:
        for i, p in enumerate(newcomers):
            await p.send({"type": "hello", "role": "host", "token": s.host_token, "re": f"h{i}"})
        await asyncio.sleep(0.1)  # every thread of the loop's pool is in a hello now
        sent = time.monotonic()
        reply = await phone.act(wire, version=g.version)
        assert reply["type"] == "ok" and reply["version"] == g.version + 1, reply
        assert time.monotonic() - sent < SLOW / 2, "the act waited behind the hellos"
        for i, p in enumerate(newcomers):  # and the hellos still complete
            assert (await p.reply(f"h{i}", timeout=SLOW * 4))["type"] == "snapshot"
    finally:
        for p in newcomers:
            await p.close()
        await s.close()


async def test_resyncs_piled_up_behind_a_slow_request_are_answered_by_one_read(monkeypatch):
    """Resyncs that arrived before a snapshot's read began are answered by that read
    (with what was sent since): a phone that kept asking while its socket was busy
    costs one read, not one per ask."""
    party, host_token = await sync_to_async(shorthand.party_create)(name="Pile")
    phone = await Phone(party.code).connect()
    await phone.hello("host", host_token)
    real_dispatch, real_snapshot = consumers.dispatch, snapshots.snapshot_for
    reads = []

    def slow_dispatch(*args, **kwargs):
        time.sleep(0.5)  # the socket's request in hand waits for the database
        return real_dispatch(*args, **kwargs)

    def counted_snapshot(actor):
        reads.append(actor)
        return real_snapshot(actor)

    monkeypatch.setattr(consumers, "dispatch", slow_dispatch)
    monkeypatch.setattr(snapshots, "snapshot_for", counted_snapshot)
    await phone.send({"type": "party", "re": "c1", "command": "close_registration"})
    for i in range(3):
        await phone.send({"type": "resync", "re": f"r{i}", "_received_at": 1e12})  # a forged time is ignored
    replies = [await phone.reply(f"r{i}", timeout=5) for i in range(3)]
    assert len(reads) == 1, "one read for the three"
    assert "cached" not in replies[0] and all(r.get("cached") is True for r in replies[1:])
    assert all(r["party"]["registration_open"] is False for r in replies)  # after the command
    await phone.send({"type": "resync", "re": "later"})  # asked after that read: a read of its own
    assert "cached" not in await phone.reply("later", timeout=5) and len(reads) == 2
    await phone.close()


async def test_a_pong_waits_for_the_seatings_snapshot_rather_than_set_off_a_resync(monkeypatch):
    """A seating makes every socket of the party read a snapshot at once, in one process
    (a party's sockets share a daphne). A pong that told a screen of the new revision
    before its snapshot came made it resync: one more read each. Until that snapshot is
    sent, a pong goes without versions; after it, they are back."""
    party, host_token = await sync_to_async(shorthand.party_create)(name="Seating")
    tokens = []
    guests = []
    for name in ("Ana", "Bo", "Cy"):
        guest, token, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name=name, description="socks")
        guests.append(guest)
        tokens.append(token)
    host = await Phone(party.code).connect()
    await host.hello("host", host_token)
    phone = await Phone(party.code).connect()
    await phone.hello("guest", tokens[0])
    real = snapshots.snapshot_for
    reading = Signal()

    def slow_snapshot(actor):
        if actor.guest_id == guests[0].pk:
            reading.set()
        time.sleep(SLOW)  # the database, reading a hundred sockets' snapshots
        return real(actor)

    monkeypatch.setattr(snapshots, "snapshot_for", slow_snapshot)
    await host.send({"type": "party", "re": "seat", "command": "seat"})
    assert (await host.reply("seat"))["type"] == "ok"
    await reading.wait()  # the seating's `resubscribe` reached the phone's socket: its snapshot is being read
    revision = await sync_to_async(lambda: Party.objects.get(pk=party.pk).revision)()
    heartbeat._versions.clear()
    await phone.send({"type": "ping"})
    pong = await _until_type(phone, "pong", timeout=1)
    assert "revision" not in pong and "tables" not in pong, pong  # its snapshot is on its way
    snap = await _until_type(phone, "snapshot", timeout=SLOW * 3)
    assert snap["table"] is not None  # seated, at the new revision
    assert snap["party"]["revision"] == revision
    await phone.send({"type": "ping"})
    pong = await _until_type(phone, "pong", timeout=SLOW)
    assert pong["revision"] == revision and pong["tables"], pong
    await phone.close()
    await host.close()
