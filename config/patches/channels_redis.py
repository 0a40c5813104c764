"""channels-redis 4.3.0, patched: its pub/sub channel layer, made to survive a Redis restart.

channels-redis 4.3.0 leaves reconnection to redis-py's PubSub, whose reconnect path
(re-subscribe from a connect callback, on the same Connection object the reader task is
using) sometimes ends with a live connection that carries no subscription: after a
Redis restart no broadcast reaches the process again, and nothing logs it
(tests/faults/test_redis_restart.py passed 1 run in 6). Here each shard's reader owns
recovery instead:

- any error on the subscriber connection throws the whole PubSub away; a fresh one
  subscribes, in one SUBSCRIBE, to every channel and group this process wants (the
  layer's own registry, not what redis-py remembers), retried with backoff until Redis
  answers;
- a subscribe that fails while Redis is down is not an error for the caller (a socket
  opening during an outage must still open): the name stays registered and the
  recovery above subscribes it;
- a probe: every PROBE_EVERY seconds the reader publishes to a channel of its own and
  expects it back within PROBE_GRACE; if it doesn't come back the subscriber is
  rebuilt, whatever the cause (the failure above logged nothing).

Messages published while a process is not subscribed are lost, as before; screens
notice by version gaps or by the versions in `pong` (docs/PROTOCOL.md) and resync.
Settings name it as `config.patches.channels_redis.ResilientPubSubChannelLayer`, with
channels-redis's own CONFIG. The shard connection overrides channels-redis's private
methods and reads its private state (`_pubsub`, `_redis`, `_lock`, `_subscribed_to`,
`_receive_task`, the loop layer's `_shards`), so the whole layer lives here, with the
pin of what it was written against; importing this module refuses (PatchRefused) when
channels-redis differs, so any process that names the layer stops at its first use.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any, cast

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _close_redis, _wrap_close

from config.patches.pins import Pin, refuse
from events.broadcast.looping import raise_if_cancelling

PIN = Pin(
    library="channels-redis",
    version="4.3.0",
    patch="config/patches/channels_redis.py",
    sources={
        # overridden
        "channels_redis.pubsub:RedisSingleShardConnection.__init__": "9c8f408acb4c2d7b",
        "channels_redis.pubsub:RedisSingleShardConnection.subscribe": "173a8f40b17e4e28",
        "channels_redis.pubsub:RedisSingleShardConnection.unsubscribe": "e2b9f0f1ff880674",
        "channels_redis.pubsub:RedisSingleShardConnection._do_receiving": "a822736dcb875e43",
        "channels_redis.pubsub:RedisSingleShardConnection._receive_message": "2f5f46af28e8ed76",
        "channels_redis.pubsub:RedisSingleShardConnection._ensure_receiver": "dd56277da120f858",
        "channels_redis.pubsub:RedisPubSubLoopLayer.__init__": "fd9d37e275298a58",
        "channels_redis.pubsub:RedisPubSubChannelLayer._get_layer": "1862b87a25ac72b2",
        # relied on: they share the shard's private state, or are called by name
        "channels_redis.pubsub:RedisSingleShardConnection.publish": "5a18093dbcb440f5",
        "channels_redis.pubsub:RedisSingleShardConnection.flush": "d122fe3f4578cb1c",
        "channels_redis.pubsub:RedisSingleShardConnection._ensure_redis": "ba228d3cee7116dc",
        "channels_redis.pubsub:RedisPubSubLoopLayer._get_shard": "9c655ee12ccbc91e",
        "channels_redis.utils:_close_redis": "43dd22ff14690901",
        "channels_redis.utils:_wrap_close": "3d610af1683772a9",
    },
)

logger = logging.getLogger(__name__)

PROBE_EVERY = 1.0  # seconds between probes of the subscriber connection
PROBE_GRACE = 3.0  # a probe not back after this long: the subscription is broken
RETRY_MIN = 0.05
RETRY_MAX = 0.5  # Redis is polled at least twice a second while it is down
CLOSE_TIMEOUT = 1.0


class ResilientShardConnection(RedisSingleShardConnection):
    # channels-redis's own state (RedisSingleShardConnection.__init__), as used here
    _redis: Any
    _pubsub: Any
    _receive_task: asyncio.Future[None] | None
    _subscribed_to: set[str]
    _lock: asyncio.Lock

    def __init__(self, host: Any, channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        self.broken = False
        self.rebuilds = 0  # for tests and logs
        self.probe_channel = f"{channel_layer.prefix}__probe__{uuid.uuid4().hex}"
        self._probe_sent: float | None = None  # when the probe in flight was published
        self._probe_last = 0.0
        self._probe_seen = 0.0

    # --- what callers see -------------------------------------------------------------

    async def subscribe(self, channel: str) -> None:
        try:
            await super().subscribe(channel)
        except Exception:
            # Still wanted (it is in the layer's registry): the reader subscribes it
            # with everything else once Redis answers.
            logger.warning("subscribe %s failed; retried when Redis answers", channel, exc_info=True)
            self.broken = True
        self._ensure_receiver()

    async def unsubscribe(self, channel: str) -> None:
        try:
            await super().unsubscribe(channel)
        except Exception:
            # A rebuilt subscriber subscribes only what is still wanted.
            logger.warning("unsubscribe %s failed", channel, exc_info=True)
            self.broken = True
            self._subscribed_to.discard(channel)

    def _ensure_receiver(self) -> None:
        if self._receive_task is None or self._receive_task.done():
            self._receive_task = asyncio.ensure_future(self._do_receiving())

    # --- the reader ---------------------------------------------------------------------

    async def _do_receiving(self) -> None:
        delay = RETRY_MIN
        while True:
            raise_if_cancelling()
            try:
                if self.broken:
                    await self._rebuild()
                    delay = RETRY_MIN
                elif self._pubsub is not None and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
                    self._receive_message(message)
                    await self._probe()
                elif self._subscribed_to:
                    raise ConnectionError("the subscriber lost its subscriptions")
                else:
                    await asyncio.sleep(0.1)
            except (asyncio.CancelledError, GeneratorExit):
                raise
            except Exception as exc:
                # TimeoutError included: the parent class re-raised it, which ended the
                # reader for good.
                if not self.broken:
                    logger.warning("channel layer subscriber lost (%r); resubscribing", exc)
                self.broken = True
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MAX)

    def _wanted(self) -> set[str]:
        layer = self.channel_layer
        names = {*layer.channels, *layer.groups}
        return {n for n in names if layer._get_shard(n) is self} | {self.probe_channel}

    async def _rebuild(self) -> None:
        """A fresh connection subscribed to everything wanted; raises if Redis is down."""
        async with self._lock:
            old_redis, old_pubsub = self._redis, self._pubsub
            self._redis = self._pubsub = None
            self._subscribed_to = set()
            await _close_quietly(old_pubsub, old_redis)
            self._ensure_redis()
            wanted = self._wanted()
            await self._pubsub.subscribe(*sorted(wanted))
            self._subscribed_to = wanted
            self._probe_sent = None
            self.broken = False
            self.rebuilds += 1
        logger.warning("channel layer subscriber restored: %d channels", len(wanted))

    async def _probe(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        if self.probe_channel not in self._subscribed_to:
            await super().subscribe(self.probe_channel)  # first use
        if self._probe_sent is not None:
            if self._probe_seen >= self._probe_sent:
                self._probe_sent = None
            elif now - self._probe_sent > PROBE_GRACE:
                raise ConnectionError("the probe did not come back: the subscription is gone")
            return
        if now - self._probe_last < PROBE_EVERY:
            return
        self._probe_last = now
        async with asyncio.timeout(PROBE_GRACE):
            await self._redis.publish(self.probe_channel, b"probe")
        self._probe_sent = now

    def _receive_message(self, message: dict[str, Any] | None) -> None:
        if message is not None:
            name = message["channel"]
            if isinstance(name, bytes):
                name = name.decode()
            if name == self.probe_channel:
                self._probe_seen = asyncio.get_running_loop().time()
                return
        super()._receive_message(message)


async def _close_quietly(pubsub: Any, redis: Any) -> None:
    closing: list[Any] = []
    if pubsub is not None:
        closing.append(pubsub.aclose())
    if redis is not None:
        closing.append(_close_redis(redis))  # and its pool, made for this shard only
    for step in closing:
        try:
            async with asyncio.timeout(CLOSE_TIMEOUT):
                await step
        except Exception:
            pass  # it is being replaced because it failed


class ResilientPubSubLoopLayer(RedisPubSubLoopLayer):
    _shards: list[ResilientShardConnection]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shards = [ResilientShardConnection(shard.host, self) for shard in self._shards]


class ResilientPubSubChannelLayer(RedisPubSubChannelLayer):
    def _get_layer(self) -> ResilientPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        if loop not in self._layers:
            self._layers[loop] = ResilientPubSubLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        # Only this method fills `_layers` (channels_redis.utils._wrap_close empties it),
        # so every layer in it is one of ours; the stub types the parent's dict.
        return cast(ResilientPubSubLoopLayer, self._layers[loop])


# The layer exists only through this import: a process that names it refuses to go on
# with a channels-redis it was not written for.
refuse(PIN.problems())
