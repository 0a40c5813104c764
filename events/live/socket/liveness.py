"""A socket's signs of life: its pong (with the versions of what it reads), and its
guest's presence row (events/live/presence.py)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone

from events.broadcast import groups
from events.live import heartbeat
from events.live.presence import guest_socket_closed, guest_socket_seen
from events.live.socket.db import in_db_thread
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
