"""The channel-layer groups a socket has joined: those its actor may read."""

from __future__ import annotations

import logging
from typing import Any

from events.broadcast import fanout
from events.live.socket.db import in_db_thread
from events.party.roles import Actor, Role, groups_for

logger = logging.getLogger(__name__)


class Subscriptions:
    def __init__(self) -> None:
        self.joined: set[str] = set()
        self.subscribed = True  # every group this socket wants is joined
        self.resubscribing = False  # a retry is queued (events/live/socket/liveness.py `Heartbeat.ping`)

    async def follow(self, actor: Actor, layer: Any, channel: str, socket: fanout.Listener) -> None:
        """Join the groups the actor may read, leave the others. A failure (Redis down)
        leaves that group out of `joined`, so the next call (a resync, a ping) retries:
        the socket works for its own requests meanwhile and catches up by versions."""
        if actor.role in (Role.GUEST, Role.TABLET):
            wanted = groups_for(actor)  # from the actor alone: no trip to the database
        else:
            wanted = await in_db_thread(groups_for)(actor)  # the party's tables
        for group in self.joined - wanted:
            try:
                await layer.group_discard(group, channel)
                self.joined.discard(group)
            except Exception:
                logger.warning("group_discard(%s) failed; retried later", group, exc_info=True)
        for group in wanted - self.joined:
            try:
                await layer.group_add(group, channel)
                self.joined.add(group)
            except Exception:
                logger.warning("group_add(%s) failed; retried later", group, exc_info=True)
        self.subscribed = self.joined == wanted
        await fanout.local().track(socket, self.joined)  # table updates: the streams of these groups

    async def leave_all(self, layer: Any, channel: str) -> None:
        for group in list(self.joined):
            try:
                await layer.group_discard(group, channel)
            except Exception:  # Redis is down: its subscriptions die with it anyway
                logger.warning("group_discard(%s) failed", group, exc_info=True)
        self.joined.clear()
