"""The laptop stack's channel layer (events/broadcast/locallayer.py): Channels' in-memory layer
without the walk over every channel on every call, the deep copies and the task per
group member; same expiry and capacity rules."""

from __future__ import annotations

import asyncio

import pytest
from channels.exceptions import ChannelFull

from events.broadcast import locallayer
from events.broadcast.locallayer import LocalChannelLayer


async def test_a_group_message_reaches_every_member_once_as_its_own_copy():
    layer = LocalChannelLayer()
    chans = [await layer.new_channel() for _ in range(3)]
    for ch in chans[:2]:
        await layer.group_add("g", ch)
    message = {"type": "deliver", "kind": "table", "text": "{}"}
    await layer.group_send("g", message)
    got = [await asyncio.wait_for(layer.receive(ch), 1) for ch in chans[:2]]
    assert got == [message, message]
    got[0]["text"] = "changed"
    assert got[1]["text"] == "{}" and message["text"] == "{}"
    # Not a member: the next thing its queue holds is a probe sent after the group message.
    await layer.send(chans[2], {"type": "probe"})
    assert await asyncio.wait_for(layer.receive(chans[2]), 1) == {"type": "probe"}
    await layer.group_discard("g", chans[0])
    await layer.group_send("g", {"type": "x"})
    assert await asyncio.wait_for(layer.receive(chans[1]), 1) == {"type": "x"}
    assert layer.channels.get(chans[0]) is None or layer.channels[chans[0]].empty()


async def test_capacity_holds_for_sockets_but_not_for_the_fan_out_channel():
    layer = LocalChannelLayer(capacity=3)
    sock = await layer.new_channel()
    fan = await layer.new_channel("fan.")
    for ch in (sock, fan):
        await layer.group_add("t1.fan", ch)
    for i in range(10):
        await layer.group_send("t1.fan", {"type": "fan", "i": i})  # a full socket misses some
    with pytest.raises(ChannelFull):
        await layer.send(sock, {"type": "x"})
    assert layer.channels[sock].qsize() == 3
    assert [(await layer.receive(fan))["i"] for _ in range(10)] == list(range(10))


async def test_expired_messages_and_their_channels_are_still_cleaned(monkeypatch):
    layer = LocalChannelLayer(expiry=0)
    gone = await layer.new_channel()
    await layer.group_add("g", gone)
    await layer.group_send("g", {"type": "old"})
    monkeypatch.setattr(locallayer, "CLEAN_EVERY", 0.0)
    await asyncio.sleep(0.01)
    await layer.group_send("g", {"type": "new"})  # cleans first: the old one expired
    assert gone not in layer.groups.get("g", {}), "a channel with an expired message leaves its groups"


def test_the_laptop_settings_use_it():
    from config.settings import embedded

    assert embedded.CHANNEL_LAYERS["default"]["BACKEND"] == "events.broadcast.locallayer.LocalChannelLayer"
