"""A table's update: one channel-layer message per action, split per socket locally.

An accepted action used to be published as P + 1 messages (each seat's whole view, and
the public view), each about 2.3 kB, each a Redis PUBLISH, each delivered through the
layer to every socket in its group. Now tables/broadcast.py `table_message` builds one
message: the public
part (the `table` message as public screens get it, JSON-encoded once) and each seat's
small private part (what the seat alone may see and do: the definition's
`seat_private`), also encoded once. It goes to one group per table, `t<id>.fan`, which
only a process-wide channel joins, once per process that has a socket at that table.

That process (`LocalFanout`, one per event loop) keeps which of its sockets read which
stream: the table's public view, or a seat's. The registry is filled from the groups a
socket has joined (`track`, called by the socket after it joined them), so who may
read what stays decided in one place (events.party.roles `groups_for`). A public screen
gets the public part; a seat's screens get the public part and that seat's private part
(`{... "view": <public view>, "events": [...], "private": {...}}`), which the screen
merges (static/heist/live.js, as the game's own merge says). A seat's
private part is never written to another seat's socket.

The process that commits an action writes its update to its own sockets first
(`publish`), then publishes it; when it comes back through the layer, that process
skips it (`origin`). With parties routed to one process by their code (nginx, or
bench/live.py --daphnes), a table's screens then never wait for the Redis round trip
(1.6 ms of the 5.6 ms median at ten tables with 250 ms think), and keep getting updates
while Redis is down.

When no other process has a socket at the table, the update is not published at all:
the Redis round trip, and decoding the process's own message when it comes back, were
a fifth of a daphne's busy time with two daphnes and parties routed by code (py-spy,
bench/live.py --daphnes 2). Each process that subscribes to a table's fan group says so
on that group (`here`), and again every HERE_SECONDS while it stays; a process that
hears a first `here` answers with its own, so a newcomer learns at once of the
processes already there. A process publishes a table's update while it has heard
another one's `here` for that table within REMOTE_SECONDS, and always when it has no
socket at the table itself (it cannot hear anyone there). The one gap: an update
committed in the millisecond between a newcomer's subscription and its `here` arriving
is not sent to it; its screens, like any screen that missed a message (the layer is
at-most-once), see the version in their next pong and resync.

A screen that asked for patches (its hello's `patches`) gets the update as a patch of the
version before when the message has one (tables/broadcast.py), the whole of it otherwise.

A snapshot never takes a screen back. An update committed elsewhere while a socket's
snapshot is read (a hello, a resync) reaches the screen first, and the older snapshot
then replaced it: the screen showed the version before until its next pong
(tests/faults/test_concurrency.py's fifty frames caught a host stuck so). The updates
still flow during the read (holding them made pongs show the screen behind, and their
resyncs held them again: a storm of 10,000 resyncs in bench/party.py --parties 10);
instead the socket has what it is sent from the read on kept (`record`,
`recorded`), and sends it again right after the snapshot (`Snapshots.send` in
events/live/socket/snapshots.py), with `hold`/`release` keeping the socket's new updates behind
that; the screen drops by version what it already has. A cached snapshot
(a flood of resyncs) is followed by the same replay, so it is only sent while its
recording is whole (RECORD_MAX texts, for as long as the socket keeps the cache).

Fan-out sees a socket only as a `Listener` (below; events/live/consumers.py implements it):
whether it takes patches, whether its seat is due a check, the check itself, and `send`.

Before passing a seat's private view on, a socket re-checks at most every
REVALIDATE_SECONDS that its secret still opens the seat (`seat_revoked`, as the group
delivery does; events/live/socket/seat.py). That check may wait for the database: the socket's messages then wait in
its own backlog, in order, while the other sockets are served at once.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
import uuid
import weakref
from dataclasses import dataclass, field
from typing import Any, Protocol

from channels.layers import get_channel_layer

from events.broadcast import groups
from events.broadcast.looping import raise_if_cancelling
from tables.broadcast import fan_group, texts

logger = logging.getLogger(__name__)

_STREAM = re.compile(r"^t(\d+)\.(?:s(\d+)|pub)$")  # events.broadcast.groups.seat_group / table_group
HERE_SECONDS = 10.0  # how often a process says again that it has sockets at a table
REMOTE_SECONDS = 3 * HERE_SECONDS + 5  # another process is counted as there this long after it last said so


RECORD_MAX = 32  # texts a socket's recording keeps; beyond, a cached snapshot is not used


class Listener(Protocol):
    """A socket as fan-out sees it: never the consumer's private parts."""

    @property
    def patches(self) -> bool:
        """The screen takes table updates as patches of the version before."""
        ...

    def fan_check_due(self) -> bool:
        """Must `seat_revoked(cached=True)` run (and maybe wait for the database) before
        this socket is passed its next table update?"""
        ...

    async def seat_revoked(self, *, cached: bool) -> bool:
        """Check the socket's secret still opens its seat; True: the socket was closed."""
        ...

    async def send(self, text_data: str | None = None) -> None:
        """Write one text frame (nothing once the socket is closing)."""
        ...


@dataclass
class Recording:
    """The table updates written to one socket since its snapshot was read."""

    until: float = float("inf")  # monotonic time after which no snapshot needs it (`keep`)
    texts: list[str] = field(default_factory=list)
    overflowed: bool = False


def streams_of(groups: set[str]) -> set[tuple[int, int | None]]:
    """(table id, seat) for each seat group, (table id, None) for each public table group."""
    out = set()
    for name in groups:
        m = _STREAM.match(name)
        if m:
            out.add((int(m.group(1)), int(m.group(2)) if m.group(2) is not None else None))
    return out


class LocalFanout:
    """This process's (this event loop's) sockets by table stream, and the one channel
    that receives the tables' fan messages for all of them."""

    def __init__(self) -> None:
        self.layer = get_channel_layer()
        self.streams: dict[int, dict[int | None, set[Listener]]] = {}  # table -> seat|None -> sockets
        self.keys: dict[Listener, set[tuple[int, int | None]]] = {}  # socket -> its streams
        self.channel: str | None = None
        self.task: asyncio.Task[None] | None = None
        self.lock = asyncio.Lock()
        self.backlogs: dict[Listener, list[str]] = {}
        self.draining: set[asyncio.Task[None]] = set()  # seat checks and `here`s in flight (kept referenced)
        self.delivered = 0  # for tests
        self.origin = uuid.uuid4().hex  # marks the updates this fan-out delivered itself
        self.remote: dict[int, float] = {}  # table -> when another process last said it is there
        self.heres: asyncio.Task[None] | None = None  # says `here` again every HERE_SECONDS
        self.skipped = 0  # updates not published: nobody else was at the table (for tests)
        self.held: set[Listener] = set()  # sockets being sent a snapshot and its replay: their updates wait
        self.drains: dict[Listener, asyncio.Task[None]] = {}  # socket -> the task passing its backlog on
        self.recordings: dict[Listener, Recording] = {}  # socket -> what it was sent since a snapshot read

    async def track(self, consumer: Listener, groups: set[str]) -> None:
        async with self.lock:
            wanted = streams_of(groups)
            had = self.keys.get(consumer, set())
            if wanted == had:
                return
            for table_id, seat in had - wanted:
                self._remove(consumer, table_id, seat)
            new_tables = []
            for table_id, seat in wanted - had:
                by_seat = self.streams.get(table_id)
                if by_seat is None:
                    by_seat = self.streams[table_id] = {}
                    new_tables.append(table_id)
                by_seat.setdefault(seat, set()).add(consumer)
            if wanted:
                self.keys[consumer] = wanted
            else:
                self.keys.pop(consumer, None)
            if new_tables:
                channel = await self._ensure_channel()
                for table_id in new_tables:
                    try:
                        await self.layer.group_add(fan_group(table_id), channel)
                    except Exception:  # Redis down: versions in pongs catch the screen up
                        logger.warning("group_add(%s) failed", fan_group(table_id), exc_info=True)
                        continue
                    self._say_soon(table_id, first=True)
            await self._drop_empty()

    async def untrack(self, consumer: Listener) -> None:
        async with self.lock:
            for table_id, seat in self.keys.pop(consumer, set()):
                self._remove(consumer, table_id, seat)
            self.backlogs.pop(consumer, None)
            self.held.discard(consumer)
            self.recordings.pop(consumer, None)
            await self._drop_empty()

    def _remove(self, consumer: Listener, table_id: int, seat: int | None) -> None:
        by_seat = self.streams.get(table_id)
        if by_seat is None:
            return
        members = by_seat.get(seat)
        if members is not None:
            members.discard(consumer)
            if not members:
                del by_seat[seat]

    async def _drop_empty(self) -> None:
        for table_id in [t for t, by_seat in self.streams.items() if not by_seat]:
            del self.streams[table_id]
            if self.channel is None:  # never subscribed: nothing to leave
                continue
            try:
                await self.layer.group_discard(fan_group(table_id), self.channel)
            except Exception:
                logger.warning("group_discard(%s) failed", fan_group(table_id), exc_info=True)
        if not self.streams and self.task is not None:
            # No socket left here: a later one starts afresh (as after a flushed layer).
            self.task.cancel()
            self.task = self.channel = None
            if self.heres is not None:
                self.heres.cancel()
                self.heres = None

    async def _ensure_channel(self) -> str:
        """This process's fan-out channel, made (and its reader started) if need be."""
        if self.task is None or self.task.done() or self.channel is None:
            self.channel = channel = await self.layer.new_channel("fan.")
            self.task = asyncio.ensure_future(self._receive(channel))
        else:
            channel = self.channel
        if self.heres is None or self.heres.done():
            self.heres = asyncio.ensure_future(self._say_here())
        return channel

    async def _here(self, table_id: int, *, first: bool) -> None:
        """Tell the other processes at this table that this one has sockets there."""
        try:
            await self.layer.group_send(
                fan_group(table_id), {"type": "fan.here", "table": table_id, "origin": self.origin, "first": first}
            )
        except Exception:  # Redis down: said again within HERE_SECONDS
            logger.debug("here(%s) failed", table_id, exc_info=True)

    def _say_soon(self, table_id: int, *, first: bool) -> None:
        """`_here` in a task of its own: neither the registry's lock (every socket's
        hello and close) nor the fan-out's one reader waits for its Redis round trip."""
        task = asyncio.ensure_future(self._here(table_id, first=first))
        self.draining.add(task)
        task.add_done_callback(self.draining.discard)

    async def _say_here(self) -> None:
        while True:
            await asyncio.sleep(HERE_SECONDS)
            for table_id in list(self.streams):
                await self._here(table_id, first=False)

    def others_listen(self, table_id: int) -> bool:
        """Must an update of this table go through the layer: may another process have
        a socket there? Yes unless this process is subscribed to the table and has not
        heard anyone else say `here` for it within REMOTE_SECONDS."""
        if table_id not in self.streams:
            return True
        heard = self.remote.get(table_id)
        return heard is not None and time.monotonic() - heard < REMOTE_SECONDS

    async def deliver_here_first(self, message: dict[str, Any]) -> dict[str, Any]:
        """A table update this process is about to publish: its own sockets get it now,
        not after a round trip through Redis (with parties routed to one process by
        code, that is every socket of the table). Returns the message to publish,
        marked so that this process skips it when it comes back."""
        try:
            await self.deliver(message)
        except Exception:  # the other processes still get it, and so (by versions) do these
            logger.exception("local delivery of a table update failed")
        return {**message, "origin": self.origin}

    async def _receive(self, channel: str) -> None:
        while True:
            raise_if_cancelling()
            try:
                message = await self.layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("fan-out receive failed; retrying", exc_info=True)
                await asyncio.sleep(0.1)
                continue
            try:
                await self.deliver(message)
            except Exception:
                logger.exception("fan-out delivery failed")

    async def deliver(self, message: dict[str, Any]) -> None:
        if message.get("type") == "fan.here" and message.get("origin") != self.origin:
            table_id = message["table"]
            self.remote[table_id] = time.monotonic()
            if message.get("first") and table_id in self.streams:
                self._say_soon(table_id, first=False)  # a newcomer: tell it who is here
            return
        if message.get("type") != "fan" or message.get("origin") == self.origin:
            return  # not a table update, or this process's own, delivered when sent
        by_seat = self.streams.get(message["table"])
        if not by_seat:
            return
        made: dict[bool, tuple[str, list[str]]] = {}  # patched or not -> the texts, made when needed
        for seat, members in list(by_seat.items()):
            for consumer in list(members):
                patched = consumer.patches
                made_texts = made.get(patched)
                if made_texts is None:
                    made_texts = made[patched] = texts(message, patched=patched)
                public_text, seat_texts = made_texts
                if seat is None:
                    text = public_text
                elif seat < len(seat_texts):
                    text = seat_texts[seat]
                else:
                    continue
                await self._to(consumer, text)

    def record(self, consumer: Listener) -> None:
        """Keep what this socket is sent from now on (its snapshot is about to be read);
        a new recording replaces the old."""
        self.recordings[consumer] = Recording()

    def keep(self, consumer: Listener, seconds: float) -> None:
        """The snapshot has been read: it stays in the socket's cache `seconds`, and its
        recording as long."""
        recording = self.recordings.get(consumer)
        if recording is not None:
            recording.until = time.monotonic() + seconds

    def recorded(self, consumer: Listener) -> list[str] | None:
        """What the socket was sent since `record`, or None if that is no longer known
        whole (too much, too long ago, or never recorded)."""
        recording = self.recordings.get(consumer)
        if recording is None or recording.overflowed or time.monotonic() > recording.until:
            return None
        return list(recording.texts)

    def hold(self, consumer: Listener) -> None:
        """This socket's table updates wait until `release` (its snapshot and replay are
        being sent: none may go between them)."""
        self.held.add(consumer)

    def release(self, consumer: Listener) -> None:
        """What waited goes out now, in order."""
        self.held.discard(consumer)
        if self.backlogs.get(consumer) is not None:
            self._start_drain(consumer)

    async def _to(self, consumer: Listener, text: str) -> None:
        backlog = self.backlogs.get(consumer)
        if backlog is not None:
            backlog.append(text)  # behind a check of its seat or a snapshot: keep the order
        elif consumer in self.held or consumer.fan_check_due():
            self.backlogs[consumer] = [text]
            if consumer not in self.held:
                self._start_drain(consumer)
        else:
            await self._write(consumer, text)

    async def _write(self, consumer: Listener, text: str) -> None:
        self.delivered += 1
        recording = self.recordings.get(consumer)
        if recording is not None:
            if time.monotonic() > recording.until:
                del self.recordings[consumer]  # no snapshot will need it any more
            elif len(recording.texts) >= RECORD_MAX:
                recording.overflowed = True
                recording.texts.clear()
            elif not recording.overflowed:
                recording.texts.append(text)
        await consumer.send(text_data=text)

    def _start_drain(self, consumer: Listener) -> None:
        running = self.drains.get(consumer)
        if running is not None and not running.done():
            return  # it goes on to what was added
        task = asyncio.ensure_future(self._drain(consumer))
        self.drains[consumer] = task
        self.draining.add(task)
        task.add_done_callback(self.draining.discard)

    async def _drain(self, consumer: Listener) -> None:
        try:
            try:
                revoked = await consumer.seat_revoked(cached=True)
            except Exception:
                logger.warning("seat check before a delivery failed", exc_info=True)
                revoked = False
            while consumer not in self.held:  # held again: `release` starts another
                backlog = self.backlogs.get(consumer)
                if not backlog:
                    self.backlogs.pop(consumer, None)
                    return
                self.backlogs[consumer] = []
                if not revoked:
                    for text in backlog:
                        await self._write(consumer, text)
        finally:
            if self.drains.get(consumer) is asyncio.current_task():
                del self.drains[consumer]


_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LocalFanout] = weakref.WeakKeyDictionary()


async def publish(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """groups.send_safely for a socket's request: the table updates among `messages`
    reach this process's own sockets first (LocalFanout.deliver_here_first)."""
    fan = local()
    out = []
    for group, payload in messages:
        if payload.get("type") == "fan":
            payload = await fan.deliver_here_first(payload)
            if not fan.others_listen(payload["table"]):
                fan.skipped += 1
                continue  # every socket at this table is this process's own: delivered
        out.append((group, payload))
    await groups.send_safely(out)


def local() -> LocalFanout:
    """This event loop's fan-out (tests run a loop each; daphne has one)."""
    loop = asyncio.get_running_loop()
    fan = _by_loop.get(loop)
    if fan is None:
        fan = _by_loop[loop] = LocalFanout()
    return fan
