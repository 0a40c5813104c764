"""The channel layer of the laptop stack (bin/serve: one process, no Redis).

Channels' InMemoryChannelLayer walks every channel and every group membership to drop
expired entries on every `group_send` and every `receive`, deep-copies each message
per recipient, and starts a task per recipient of a group send: the cost of one
delivery grew with the party (0.31 ms at 11 sockets, 1.51 ms at 330; bench/README.md).
This one keeps its semantics (a message or membership older than its expiry is dropped,
a full channel refuses more) but:

- cleans expired entries at most once per CLEAN_EVERY seconds, not on every call;
- hands each recipient a shallow copy of the message (our messages hold only strings,
  numbers and lists nobody changes: events/broadcast/groups.py `encode`, events/broadcast/fanout.py);
- puts a group message straight into each member's queue, with no task per member;
- never caps the process-wide fan-out channel (events/broadcast/fanout.py, names "fan.…"): a
  table update dropped for a full queue would reach none of that process's sockets.

Settings name it as `events.broadcast.locallayer.LocalChannelLayer`. It relies on channels'
private state: config/patches/channels.py pins the channels it was written for.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

CLEAN_EVERY = 1.0


class LocalChannelLayer(InMemoryChannelLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._cleaned = 0.0

    def get_capacity(self, channel: str) -> int:
        if channel.startswith("fan."):
            return 0  # asyncio.Queue(maxsize=0): unbounded
        return super().get_capacity(channel)

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned < CLEAN_EVERY:
            return
        self._cleaned = now
        super()._clean_expired()

    def _put(self, channel: str, message: dict[str, Any]) -> None:
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        try:
            queue.put_nowait((time.time() + self.expiry, dict(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        self._put(channel, message)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            try:
                self._put(channel, message)
            except ChannelFull:
                pass  # as InMemoryChannelLayer: a full member misses a group message
