"""The snapshots a socket is sent: the last one kept to answer a flood of resyncs, the
one a `resubscribe` promised (its pongs leave out the versions meanwhile), and each
one's replay of the table updates sent since it was read (events/broadcast/fanout.py)."""

from __future__ import annotations

import json
import math
import time
from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext_lazy

from events.broadcast import fanout
from events.live.socket.db import in_db_thread
from events.live.socket.handshake import Refused
from events.live.socket.standing import Standing
from events.live.socket_limits import TokenBucket
from events.party.roles import Actor
from events.party.selectors import snapshot_for
from tables import write
from tables.errors import ErrorCode

# At most this long after a `resubscribe`, pongs wait for its snapshot rather than tell
# the screen it is behind (events/live/socket/liveness.py): should the snapshot never come,
# the screen's safety net is late by this much, never gone.
SNAPSHOT_DUE_SECONDS = 10.0
# The expiry sweep deleted the party under the socket.
GONE = Refused(ErrorCode.NO_PARTY, gettext_lazy("this party no longer exists"), 4404)


class Snapshots:
    def __init__(self) -> None:
        self.last: dict[str, Any] | None = None
        self.at = 0.0  # when it was read (the read ended)
        self.read_at = 0.0  # when its read began
        self.resyncs = TokenBucket(1 / settings.RESYNC_RATE[1], settings.RESYNC_RATE[0])
        # Since when a `resubscribe` has promised this socket a snapshot it has not yet
        # been sent.
        self.due: float | None = None

    def promise(self) -> None:
        """A `resubscribe` arrived: a snapshot is on its way."""
        if self.due is None:
            self.due = time.monotonic()

    def awaited(self) -> bool:
        """A promised snapshot is still on its way (for at most SNAPSHOT_DUE_SECONDS)."""
        return self.due is not None and time.monotonic() - self.due < SNAPSHOT_DUE_SECONDS

    def cached(self, received_at: float | None) -> dict[str, Any] | None:
        """A client's resync, arrived at `received_at`: the snapshot to answer it with
        instead of a new read, if any. Beyond RESYNC_RATE, a flood of them gets the last
        one sent, never older than the bucket's refill period, so a phone that is really
        behind catches up within it. A snapshot whose read began after the resync arrived
        is as new as it asks for: resyncs piled up behind a slow read (a gap, then a
        pong, then another) are answered by that read, not each by one more."""
        fresh_enough = time.monotonic() - self.at < settings.RESYNC_RATE[1]
        newer = self.read_at >= (math.inf if received_at is None else received_at)
        if self.last is not None and fresh_enough and (newer or not self.resyncs.take()):
            return self.last
        return None

    async def answer(self, socket: Standing, received_at: float | None, re: str | None) -> None:
        """A client's resync, arrived at `received_at`: a flood of them is answered from
        the snapshot this socket was last sent."""
        if not await self.answer_from_cache(socket, received_at, re):
            await self.resync(socket, re)

    async def resync(self, socket: Standing, re: str | None) -> None:
        """A new snapshot read and sent, after the socket joined its groups."""
        read_at = self.reading(socket)
        try:
            # Who this socket is was just read from the database (`seat_revoked` before
            # every frame and `resubscribe`, actor_for at hello), so a seating or captain
            # change whose broadcast was lost (Redis down) is already taken; join the
            # groups that go with it, retrying any a Redis outage left out.
            await socket.subscribe()
            snapshot = await in_db_thread(read)(socket.hello_actor())
        except ObjectDoesNotExist:
            await socket.refuse(re, GONE)
            return
        await self.send(socket, snapshot, read_at, re)

    async def answer_from_cache(self, socket: fanout.Listener, received_at: float | None, re: str | None) -> bool:
        """A client's resync answered with the cached snapshot and its replay (while the
        recording since its read is whole); False: it needs a new read."""
        cached = self.cached(received_at)
        if cached is None:
            return False
        since = fanout.local().recorded(socket)
        if since is None:
            return False
        await self._send(socket, {**cached, "re": re, "cached": True}, since)
        return True

    def reading(self, socket: fanout.Listener) -> float:
        """A snapshot's read begins now: what the socket is sent from now on is recorded."""
        fanout.local().record(socket)
        return time.monotonic()

    async def send(self, socket: fanout.Listener, snapshot: dict[str, Any], read_at: float, re: str | None) -> None:
        """A snapshot read from `read_at`: cached, sent with its replay, and a promise
        older than it kept."""
        fan = fanout.local()
        self.last, self.at, self.read_at = snapshot, time.monotonic(), read_at
        fan.keep(socket, settings.RESYNC_RATE[1])  # as long as the snapshot is cached
        await self._send(socket, {**snapshot, "re": re} if re is not None else snapshot, fan.recorded(socket) or [])
        if self.due is not None and read_at >= self.due:
            self.due = None  # read after the seating (or captain change) that promised it

    @staticmethod
    async def _send(socket: fanout.Listener, snapshot: dict[str, Any], since: list[str]) -> None:
        """The snapshot, then the table updates this socket was sent since it was read:
        one committed during the read reached the screen first, and the older snapshot
        would take the screen back (events/broadcast/fanout.py). The screen drops what it has."""
        fan = fanout.local()
        fan.hold(socket)  # nothing new between the snapshot and its replay
        try:
            await socket.send(text_data=json.dumps(snapshot, separators=(",", ":")))
            for text in since:
                await socket.send(text_data=text)
        finally:
            fan.release(socket)


def read(actor: Actor) -> dict[str, Any]:
    """What this screen is sent, and this process's copy of the screen's table row
    taken if it has none (write.warm): the table's first action is then decided on the
    copy and written from the loop, like every other."""
    snapshot: dict[str, Any] = snapshot_for(actor)
    if actor.table_id is not None:
        write.warm(table_id=actor.table_id, party_id=actor.party_id)
    return snapshot
