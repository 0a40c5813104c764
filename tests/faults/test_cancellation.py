"""The process's long-lived loops end when cancelled, even when a library swallowed the
cancellation (Python 3.11's `asyncio.wait_for` returns the inner result if it finished
just as the outer task was cancelled). An event loop's teardown cancels every task and
waits for all of them: a loop that went on once hung the whole test suite."""

from __future__ import annotations

import asyncio

from config.patches.channels_redis import ResilientPubSubChannelLayer
from events.broadcast import fanout


class SwallowingLayer:
    """A layer whose receive loses one cancellation, as a wait_for around it can."""

    def __init__(self) -> None:
        self.calls = 0
        self.swallowed = 0
        self.waiting = asyncio.Event()  # the loop is inside receive(): a cancel lands there

    async def receive(self, channel):
        self.calls += 1
        self.waiting.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            if self.swallowed:
                raise
            self.swallowed += 1
            return {"type": "fan", "table": 0}  # the result "won": the cancel is gone


async def test_the_fanout_receiver_ends_when_its_cancellation_was_swallowed():
    fan = fanout.LocalFanout()
    layer = fan.layer = SwallowingLayer()
    task = asyncio.ensure_future(fan._receive("fan.x"))
    await layer.waiting.wait()
    task.cancel()
    done, _ = await asyncio.wait([task], timeout=2)
    assert done == {task} and task.cancelled()
    assert layer.swallowed == 1 and layer.calls == 1  # it did not wait on the layer again


class SwallowingPubSub:
    subscribed = True

    def __init__(self) -> None:
        self.calls = 0
        self.swallowed = 0
        self.waiting = asyncio.Event()  # the reader is inside get_message(): a cancel lands there

    async def get_message(self, ignore_subscribe_messages=True, timeout=0.1):
        self.calls += 1
        self.waiting.set()
        try:
            await asyncio.sleep(timeout)
        except asyncio.CancelledError:
            if self.swallowed:
                raise
            self.swallowed += 1
        return None


async def test_the_channel_layer_reader_ends_when_its_cancellation_was_swallowed():
    layer = ResilientPubSubChannelLayer(hosts=["redis://127.0.0.1:6379/"], prefix="heist-test-cancel")
    shard = layer._get_layer()._shards[0]
    pubsub = shard._pubsub = SwallowingPubSub()
    shard._probe_sent = None
    shard._probe_last = asyncio.get_running_loop().time() + 3600  # no probe in this test
    shard._subscribed_to = {shard.probe_channel}
    task = asyncio.ensure_future(shard._do_receiving())
    await pubsub.waiting.wait()
    task.cancel()
    done, _ = await asyncio.wait([task], timeout=2)
    assert done == {task} and task.cancelled()
    assert pubsub.swallowed == 1
    # The reader's task has ended, so its count of laps is final: the one the cancel
    # landed in, and no lap after it (nothing else here starts a reader).
    assert pubsub.calls == 1
