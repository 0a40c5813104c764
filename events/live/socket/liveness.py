"""A socket's signs of life: its heartbeat (each ping's pong, with the versions of what
it reads), its guest's presence row (events/live/presence.py), and its close when it
went silent (events/live/stalls.py)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone

from events.broadcast import groups
from events.live import heartbeat, stalls
from events.live.presence import guest_socket_closed, guest_socket_seen
from events.live.socket.db import in_db_thread
from events.live.socket.queue import RequestQueue
from events.live.socket.snapshots import Snapshots
from events.live.socket.standing import Standing
from events.party.roles import Actor, Role

logger = logging.getLogger(__name__)

SEEN_EVERY_SECONDS = 20  # how often a guest's presence row is refreshed by its pings


async def pong(actor: Actor | None, *, versions: bool) -> dict[str, Any]:
    """The reply to a ping carries the versions of what this socket reads (its party's
    revision, its tables' versions): a screen that missed broadcasts sees it is behind
    within one heartbeat and resyncs, whatever the channel layer did. `versions`: False
    leaves them out (no actor, a revoked socket, a snapshot on its way)."""
    out: dict[str, Any] = {"type": "pong", "server_time": timezone.now().timestamp()}
    if actor is not None and versions:
        try:
            # At most heartbeat.PONG_WAIT for the database; without the versions, the
            # pong still says the socket is alive, and the next one carries them.
            read = heartbeat.fresh_versions(actor) or await heartbeat.versions_within(actor)
        except ObjectDoesNotExist:
            read = None  # the party is gone; the next request says so
        if read is not None:
            out.update(read)
    return out


class Presence:
    """A guest socket's presence row, refreshed in the background as it pings."""

    def __init__(self) -> None:
        self.last_seen_write = 0.0
        self.touching: asyncio.Task[None] | None = None

    def touch(self, actor: Actor | None, channel: str) -> None:
        """Refresh this guest's presence row (every SEEN_EVERY_SECONDS), in the
        background: the pong has gone, and nothing on this socket waits for the write."""
        if actor is None or actor.role is not Role.GUEST or actor.guest_id is None:
            return
        if self.touching is not None and not self.touching.done():
            return
        now = timezone.now().timestamp()
        if now - self.last_seen_write > SEEN_EVERY_SECONDS:
            self.last_seen_write = now
            self.touching = asyncio.ensure_future(self._write_seen(actor.guest_id, channel))

    async def _write_seen(self, guest_id: int, channel: str) -> None:
        try:
            await in_db_thread(guest_socket_seen)(guest_id=guest_id, channel=channel)
        except asyncio.CancelledError:
            raise
        except Exception:  # the next ping tries again; ONLINE_GRACE covers a few misses
            self.last_seen_write = 0.0
            logger.warning("presence refresh failed", exc_info=True)

    def stop(self) -> None:
        if self.touching is not None:
            self.touching.cancel()

    @staticmethod
    async def closed(actor: Actor | None, channel: str) -> None:
        """The guest's socket closed (or went silent): its presence count, in PostgreSQL
        first (it must not depend on Redis), then told to the room."""
        if actor is None or actor.role is not Role.GUEST or actor.guest_id is None:
            return
        gone = await in_db_thread(guest_socket_closed)(
            party_id=actor.party_id, guest_id=actor.guest_id, channel=channel
        )
        await groups.send_safely(gone.messages)


class Heartbeat:
    """A socket's pings, each answered at once, never behind its requests (the
    consumer's `receive`), and what they keep: its groups, its presence row, its watch
    for silence (events/live/stalls.py watches this object, for its `stalled`)."""

    def __init__(self, socket: Standing, snapshots: Snapshots, queue: RequestQueue) -> None:
        self.socket = socket
        self.snapshots = snapshots
        self.queue = queue
        self.presence = Presence()

    async def ping(self) -> None:
        """The heartbeat: answered now, even while this socket's requests wait for the
        database. A phone that hears nothing for 4 s drops its socket and opens another,
        whose hello costs more database work: in a join burst of 1,000 phones, pings
        queued behind hellos set off a storm of reconnects."""
        socket = self.socket
        # A seating makes one process read a snapshot for each of a party's sockets at
        # once (a party's sockets share a daphne: deploy/nginx.conf); a pong that told a
        # screen of the new revision before its snapshot came made it resync, one more
        # read each (bench/party.py: 47-157 resyncs at seating in ten 100-guest parties).
        # The snapshot on its way brings the screen up to date; until it is sent,
        # pongs go without versions, as when the read is slow.
        current = socket.actor is not None and not socket.seat.revoked and not self.snapshots.awaited()
        payload = await pong(socket.actor, versions=current)
        subs = socket.subscriptions
        if current and not subs.subscribed and not subs.resubscribing:
            subs.resubscribing = True
            self.queue.put(socket.resubscribe)
        await socket.send_frame(payload)
        self.presence.touch(socket.actor, socket.channel_name)
        if socket.actor is not None and socket.actor.role is Role.GUEST:
            # A screen that pings keeps pinging (every 2 s): gone quiet, it is dead.
            # One that never pinged (a script, a bot) is not held to it.
            stalls.pinged(self)

    async def closed(self) -> None:
        """The socket closed: its presence row no longer refreshed, and its count told."""
        self.presence.stop()
        await self.presence.closed(self.socket.actor, self.socket.channel_name)

    async def stalled(self) -> None:
        """No frame for stalls.STALL_SECONDS or more (a phone pings every 2 s): the line is
        dead though the socket looks open. The host sees the guest offline now, not when
        daphne's own ping gives up (37-45 s); the phone has already opened another
        socket, or will when its line comes back."""
        socket = self.socket
        if socket.closing or socket.actor is None:
            return
        logger.info("guest %s: socket silent for %.0f s, closed", socket.actor.guest_id, stalls.STALL_SECONDS)
        try:
            await self.presence.closed(socket.actor, socket.channel_name)
        finally:
            await socket.close(code=4408)  # disconnect() then says the same again: harmless
