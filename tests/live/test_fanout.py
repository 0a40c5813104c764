"""A table's update is one channel-layer message per action (events/broadcast/fanout.py): the
public view once and each seat's private part; each process writes to each of its
sockets the public part plus, for a seat's own sockets only, that seat's private part."""

from __future__ import annotations

import asyncio
import random

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from events.broadcast import fanout
from games.yankee import Phase
from tests.live.tables import bot_step, connect, game_of, play_over_sockets, seated

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


async def until(condition, timeout=5.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_each_socket_gets_only_its_own_private_part_and_one_publish_per_action():
    layer = get_channel_layer()
    sent: list[tuple[str, dict]] = []
    real = layer.group_send

    async def counting(group, message):  # the real layer, counted
        sent.append((group, message))
        await real(group, message)

    s = await connect(await seated(4, seed=5))
    # Another process with a screen at this table (its own fan-out): updates are published.
    elsewhere, screen = fanout.LocalFanout(), FakeSocket()
    await elsewhere.track(screen, {f"t{s.table_id}.pub"})
    await until(lambda: fanout.local().others_listen(s.table_id))
    layer.group_send = counting
    try:
        start = await game_of(s.table_id)
        g = await play_over_sockets(s, random.Random(5), stop=lambda g: g.version >= start.version + 25)
        actions = g.version - start.version
        assert actions >= 25 and g.phase is not Phase.OVER
        table_sends = [m for grp, m in sent if grp.startswith(f"t{s.table_id}.") and m["type"] == "fan"]
        assert len(table_sends) == actions, "one channel-layer message per action"
        await until(lambda: len(screen.got) >= actions)
        assert [int(t.split('"version":')[1].split(",")[0]) for t in screen.got] == list(
            range(start.version + 1, g.version + 1)
        ), "the other process's screen got every update, in order"
        assert all(m["type"] == "fan" and len(m["private"]) == 4 for m in table_sends)
        for seat, phone in enumerate(s.phones):
            raws = [m for m in phone.raw_tables if m["version"] > start.version]
            own = [m for m in raws if "private" in m]
            assert len(own) == actions, (seat, len(own))
            assert {m["private"]["you"] for m in own} == {seat}
            public = [m for m in raws if "private" not in m]
            assert len(public) == (actions if seat == s.captain else 0)  # a captain's public copy
            for m in raws:
                assert "hand" not in m["view"] and "you" not in m["view"], "a private key in the public part"
        for m in s.host.raw_tables:
            assert "private" not in m and "hand" not in m["view"]
    finally:
        layer.group_send = real
        await elsewhere.untrack(screen)
        await s.close()
    assert not fanout.local().streams, "every socket closed: the registry is empty"


async def test_an_update_no_other_process_listens_for_is_not_published():
    """Every socket at the table is on this process (parties routed by code): its
    updates reach them directly and never go through Redis."""
    layer = get_channel_layer()
    sent: list[str] = []
    real = layer.group_send

    async def counting(group, message):
        sent.append(group)
        await real(group, message)

    s = await connect(await seated(4, seed=5))
    layer.group_send = counting
    try:
        start = await game_of(s.table_id)
        skipped = fanout.local().skipped
        g = await play_over_sockets(s, random.Random(7), stop=lambda g: g.version >= start.version + 8)
        want = list(range(start.version + 1, g.version + 1))
        assert [grp for grp in sent if grp.startswith(f"t{s.table_id}.")] == [], "nothing published"
        assert fanout.local().skipped - skipped == len(want)
        for phone in s.phones:
            assert [v for v in phone.versions if v > start.version] == want
        assert [v for v in s.host.versions if v > start.version] == want
    finally:
        layer.group_send = real
        await s.close()


async def test_a_process_that_joins_a_table_later_learns_who_is_there_at_once():
    """Process B already has a screen at the table when process A gets its first one:
    B answers A's `here`, so A publishes from its first update on (not after B's next
    periodic `here`, up to HERE_SECONDS later)."""
    a, b = fanout.LocalFanout(), fanout.LocalFanout()
    on_b, on_a = FakeSocket(), FakeSocket()
    await b.track(on_b, {"t41.pub"})
    assert not b.others_listen(41)
    try:
        # B's subscription is live (its screen gets what is sent to the table) before A comes
        await get_channel_layer().group_send("t41.fan", fan_message(41, 8, 1))
        await until(lambda: on_b.got)
        await a.track(on_a, {"t41.s0"})
        await until(lambda: a.others_listen(41) and b.others_listen(41))
        published = await a.deliver_here_first(fan_message(41, 9, 1))
        assert on_a.got and a.others_listen(published["table"])
        # and once B has gone quiet for REMOTE_SECONDS, A stops publishing
        a.remote[41] -= fanout.REMOTE_SECONDS
        assert not a.others_listen(41)
        # a table A has no socket at: A cannot hear who is there, so it always publishes
        assert a.others_listen(999)
    finally:
        await a.untrack(on_a)
        await b.untrack(on_b)
    assert a.heres is None and b.heres is None


async def test_this_process_delivers_its_own_updates_first_even_with_the_layer_down():
    """An update goes to the committing process's own sockets before it is published
    (and that process skips it when it comes back): with parties routed to one process
    by code, no table update waits for, or depends on, Redis."""
    layer = get_channel_layer()
    real = layer.group_send

    async def down(group, message):
        if group.startswith("t"):
            raise ConnectionError("Redis is down")
        await real(group, message)

    s = await connect(await seated(4, seed=5))
    layer.group_send = down
    try:
        start = await game_of(s.table_id)
        g = await play_over_sockets(s, random.Random(6), stop=lambda g: g.version >= start.version + 6)
        want = list(range(start.version + 1, g.version + 1))
        for phone in s.phones:
            assert [v for v in phone.versions if v > start.version] == want  # each once, in order
        assert [v for v in s.host.versions if v > start.version] == want
    finally:
        layer.group_send = real
        await s.close()


class FakeSocket:
    patches = False  # whole updates, as a screen that did not ask for patches

    def __init__(self, due=False, revoked=False, check_delay=0.0):
        self.got: list[str] = []
        self.due = due
        self.revoked = revoked
        self.check_delay = check_delay
        self.checks = 0

    def fan_check_due(self):
        return self.due

    async def seat_revoked(self, cached=False):
        self.checks += 1
        await asyncio.sleep(self.check_delay)
        self.due = False
        return self.revoked

    async def send(self, text_data=None):
        self.got.append(text_data)


def fan_message(table_id, version, seats):
    head = f'{{"type":"table","version":{version},"view":{{"seats":[]}},"events":[]}}'
    private = [f'{{"you":{s},"hand":["card of {s} at {version}"]}}' for s in range(seats)]
    return {"type": "fan", "table": table_id, "head": head[:-1], "private": private}


async def test_the_registry_writes_each_stream_to_its_own_sockets_only():
    fan = fanout.LocalFanout()
    seat0, seat1, captain1, host = FakeSocket(), FakeSocket(), FakeSocket(), FakeSocket()
    other_table = FakeSocket()
    await fan.track(seat0, {"t7.s0", "g1", "p1"})
    await fan.track(seat1, {"t7.s1", "g2", "p1"})
    await fan.track(captain1, {"t7.s1", "t7.pub", "g2", "p1"})
    await fan.track(host, {"t7.pub", "t8.pub", "p1.host", "p1"})
    await fan.track(other_table, {"t8.s0", "p1"})
    try:
        await fan.deliver(fan_message(7, 3, 2))
        assert seat0.got == [
            '{"type":"table","version":3,"view":{"seats":[]},"events":[],"private":{"you":0,"hand":["card of 0 at 3"]}}'
        ]
        assert seat1.got == [
            '{"type":"table","version":3,"view":{"seats":[]},"events":[],"private":{"you":1,"hand":["card of 1 at 3"]}}'
        ]
        assert sorted(captain1.got) == sorted(
            [*seat1.got, '{"type":"table","version":3,"view":{"seats":[]},"events":[]}']
        )
        assert host.got == ['{"type":"table","version":3,"view":{"seats":[]},"events":[]}']
        assert other_table.got == []
        # a seat moved (seating changed): its socket follows its groups at once
        await fan.track(seat0, {"t8.s1", "g1", "p1"})
        await fan.deliver(fan_message(7, 4, 2))
        assert len(seat0.got) == 1
    finally:
        for sock in (seat0, seat1, captain1, host, other_table):
            await fan.untrack(sock)
    assert fan.streams == {} and fan.task is None


async def test_a_socket_whose_seat_check_is_due_gets_its_updates_in_order_or_none_if_revoked():
    fan = fanout.LocalFanout()
    slow = FakeSocket(due=True, check_delay=0.05)
    gone = FakeSocket(due=True, revoked=True, check_delay=0.02)
    quick = FakeSocket()
    await fan.track(slow, {"t3.s0"})
    await fan.track(gone, {"t3.s1"})
    await fan.track(quick, {"t3.s2"})
    try:
        for v in (5, 6, 7):
            await fan.deliver(fan_message(3, v, 3))
        # the others are not held up by a socket waiting on its check
        assert len(quick.got) == 3 and slow.got == []
        # Every drain in flight has ended: what each socket got is all it will get.
        await until(lambda: not fan.draining)
        assert [t.split('"version":')[1].split(",")[0] for t in slow.got] == ["5", "6", "7"]
        assert slow.checks == 1
        assert gone.got == [], "a seat handed over: nothing more of its private view"
    finally:
        for sock in (slow, gone, quick):
            await fan.untrack(sock)


def _commit_one_bot_action(table_id: int):
    """One bot action at the table, committed in this (database) thread: its outcome."""
    from tables.models import Table

    return bot_step(table_id, random.Random(Table.objects.get(pk=table_id).version))


def _kinds_after(phone, re: str) -> list[tuple[str, int]]:
    """(type, version) of the snapshot answering `re` and of the table messages around it."""
    out = []
    for m in phone.inbox:
        if m.get("type") == "snapshot" and m.get("re") == re:
            out.append(("snapshot", m["tables"][0]["version"]))
        elif m.get("type") == "table":
            out.append(("table", m["version"]))
    return out


async def test_an_update_committed_while_a_snapshot_is_read_arrives_after_it(monkeypatch):
    """A resync's snapshot is read at version v; meanwhile another process commits v+1
    and its update reaches this process, and this screen, at once. The older snapshot
    must not undo it (a host stuck one version behind in tests/faults/
    test_concurrency.py's fifty frames): v+1 follows the snapshot again."""
    from events.live.socket import snapshots

    s = await connect(await seated(4, seed=8))
    loop, fan = asyncio.get_running_loop(), fanout.local()
    real = snapshots.snapshot_for
    raced = []

    def read_then_race(actor):
        snapshot = real(actor)
        if not raced:  # the host's resync below: the read is done, the reply not yet sent
            outcome = _commit_one_bot_action(s.table_id)
            # its update arrives, as from another process, before the reply is sent
            asyncio.run_coroutine_threadsafe(fan.deliver(_fan_of(outcome)), loop).result(5)
            raced.append(outcome)
        return snapshot

    monkeypatch.setattr(snapshots, "snapshot_for", read_then_race)
    try:
        before = (await game_of(s.table_id)).version
        await s.host.drain()
        s.host.inbox.clear()
        await s.host.send({"type": "resync", "re": "race"})
        await s.host.until(lambda m: m.get("type") == "table" and m["version"] == before + 1)
        await s.host.drain()
        assert raced, "the race ran"
        # the update came during the read (as it did), and again after the snapshot
        assert _kinds_after(s.host, "race") == [("table", before + 1), ("snapshot", before), ("table", before + 1)]
        assert s.host.table["version"] == (await game_of(s.table_id)).version == before + 1
    finally:
        await s.close()


def _fan_of(outcome) -> dict:
    (fan,) = [payload for _, payload in outcome.messages if payload.get("type") == "fan"]
    return {**fan, "origin": "another process"}


async def test_a_cached_snapshot_is_followed_by_the_updates_sent_since_it_was_read():
    """Resyncs beyond the rate get the last snapshot again; the table updates this
    socket was sent since that snapshot was read follow it, so it never takes the
    screen back."""
    s = await connect(await seated(4, seed=9))
    try:
        for i in range(8):  # past the burst: the rest are answered from the cache
            await s.host.send({"type": "resync", "re": f"flood{i}"})
            snap = await s.host.reply(f"flood{i}")
        assert snap.get("cached") is True
        cached_version = snap["tables"][0]["version"]
        outcome = await database_sync_to_async(_commit_one_bot_action)(s.table_id)
        await fanout.local().deliver(_fan_of(outcome))
        version = outcome.data["version"]
        assert version == cached_version + 1
        await s.host.at_version(version)
        s.host.inbox.clear()
        await s.host.send({"type": "resync", "re": "after"})
        snap = await s.host.reply("after")
        assert snap.get("cached") is True and snap["tables"][0]["version"] == cached_version
        update = await s.host.until(lambda m: m.get("type") == "table")
        assert update["version"] == version and s.host.table["version"] == version
    finally:
        await s.close()


async def test_a_recording_keeps_what_a_socket_was_sent_and_holding_keeps_the_order():
    fan = fanout.LocalFanout()
    sock, other = FakeSocket(), FakeSocket()
    await fan.track(sock, {"t5.s0"})
    await fan.track(other, {"t5.s1"})
    try:
        assert fan.recorded(sock) is None, "nothing recorded yet"
        fan.record(sock)
        for v in (3, 4):
            await fan.deliver(fan_message(5, v, 2))
        assert [_version(t) for t in fan.recorded(sock)] == [3, 4] and len(sock.got) == 2
        assert fan.recorded(other) is None, "only the socket that asked"
        fan.hold(sock)
        await fan.deliver(fan_message(5, 5, 2))
        assert len(sock.got) == 2 and len(other.got) == 3, "only the held socket waits"
        fan.release(sock)
        await until(lambda: len(sock.got) == 3)
        assert [_version(t) for t in sock.got] == [3, 4, 5]
        assert [_version(t) for t in fan.recorded(sock)] == [3, 4, 5]
        for v in range(6, 6 + fanout.RECORD_MAX):
            await fan.deliver(fan_message(5, v, 2))
        assert fan.recorded(sock) is None, "more than it keeps: no longer whole"
        fan.record(sock)
        fan.keep(sock, 60)
        assert fan.recorded(sock) == []
        fan.keep(sock, -1.0)
        assert fan.recorded(sock) is None, "past its time"
    finally:
        await fan.untrack(sock)
        await fan.untrack(other)
    assert not fan.held and not fan.recordings and not fan.backlogs


def _version(text: str) -> int:
    return int(text.split('"version":')[1].split(",")[0])
