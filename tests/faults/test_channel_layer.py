"""The channel layer (config/patches/channels_redis.py) against a private Redis that dies and returns.

channels-redis 4.3.0's pub/sub layer sometimes came back from a Redis restart with a
subscriber connection that held no subscription, silently: no broadcast reached the
process again. These tests make that state on purpose (redis-py's resubscribe skipped,
then the subscriber connection killed), and the other outage cases, and require every
subscribed name to receive again within a few seconds of Redis answering."""

from __future__ import annotations

import asyncio
import random
import subprocess

import pytest

from config.patches.channels_redis import PROBE_EVERY, PROBE_GRACE, ResilientPubSubChannelLayer

pytestmark = [pytest.mark.stack]

LAYER = ResilientPubSubChannelLayer


async def _delivered(layer, group: str, channels: list[str], within: float) -> float:
    """Publish to `group` until every channel received one; seconds it took."""
    queues = layer._get_layer().channels
    for ch in channels:  # count only what arrives from now on
        while ch in queues and not queues[ch].empty():
            queues[ch].get_nowait()
    loop = asyncio.get_running_loop()
    start = loop.time()
    waiting = set(channels)
    while waiting:
        assert loop.time() - start < within, f"{len(waiting)} of {len(channels)} channels received nothing in {within}s"
        try:
            await layer.group_send(group, {"type": "x"})
        except Exception:  # Redis still starting
            pass
        await asyncio.sleep(0.2)
        for ch in list(waiting):
            # The queue itself: a receive() cancelled by a timeout unsubscribes its channel.
            if not queues[ch].empty():
                queues[ch].get_nowait()
                waiting.discard(ch)
    return loop.time() - start


async def _layer_with_channels(redis, n: int = 3):
    layer = LAYER(hosts=[redis.url], prefix="layer-test")
    channels = [await layer.new_channel() for _ in range(n)]
    for ch in channels:
        await layer.group_add("everyone", ch)
    await _delivered(layer, "everyone", channels, 5)
    return layer, channels


async def test_a_subscriber_reconnected_without_its_subscriptions_is_rebuilt(private_redis):
    layer, channels = await _layer_with_channels(private_redis)
    try:
        pubsub = layer._get_layer()._shards[0]._pubsub

        # The failure seen after Redis restarts: redis-py reconnects the subscriber but
        # the resubscription never happens, and nothing raises.
        pubsub.connection.deregister_connect_callback(pubsub.on_connect)
        out = subprocess.run(
            ["redis-cli", "-p", str(private_redis.port), "client", "kill", "type", "pubsub"],
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.strip() == "1", out
        took = await _delivered(layer, "everyone", channels, PROBE_GRACE + 4)
        print(f"\nreconnect without resubscribe repaired in {took:.1f}s")
    finally:
        if pubsub.connection is not None:  # for its __del__
            pubsub.connection.register_connect_callback(pubsub.on_connect)
        await layer.flush()


async def test_a_subscription_lost_without_any_error_is_noticed_by_the_probe(private_redis):
    layer, channels = await _layer_with_channels(private_redis)
    try:
        pubsub = layer._get_layer()._shards[0]._pubsub
        # Redis drops every subscription of the connection, and redis-py still believes
        # in them (it forgets only names it asked to drop): no error anywhere, no message.
        await pubsub.connection.send_command("UNSUBSCRIBE")
        took = await _delivered(layer, "everyone", channels, PROBE_EVERY + PROBE_GRACE + 5)
        assert took > 1, "repaired before the probe could have noticed: the loss was not silent"
        print(f"\nsilent loss noticed by the probe and repaired in {took:.1f}s")
    finally:
        await layer.flush()


async def test_sockets_subscribed_while_redis_is_down_receive_once_it_returns(private_redis):
    layer, channels = await _layer_with_channels(private_redis, 1)
    try:
        private_redis.kill9()
        # A socket opening during the outage: its channel and group are registered, not refused.
        late = await layer.new_channel()
        await layer.group_add("everyone", late)
        await layer.group_add("late-only", late)
        await asyncio.sleep(0.3)
        private_redis.start()
        took = await _delivered(layer, "everyone", [*channels, late], 5)
        await _delivered(layer, "late-only", [late], 5)
        print(f"\nafter the outage, delivering again in {took:.1f}s")
    finally:
        await layer.flush()


async def test_every_redis_restart_is_survived_within_five_seconds(private_redis):
    rand = random.Random(7)
    layer, channels = await _layer_with_channels(private_redis, 4)
    try:
        for _ in range(4):
            private_redis.kill9()
            for _ in range(rand.randint(0, 4)):  # broadcasts during the outage fail
                with pytest.raises(Exception):
                    await layer.group_send("everyone", {"type": "lost"})
                await asyncio.sleep(rand.uniform(0, 0.4))
            private_redis.start()
            await _delivered(layer, "everyone", channels, 5)
    finally:
        await layer.flush()
