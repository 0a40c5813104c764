"""Channels 4.3.2's in-memory layer, as events/broadcast/locallayer.py overrides it.

The laptop stack's channel layer (`events.broadcast.locallayer.LocalChannelLayer`, named there
by the embedded and bench settings and by the import-linter layers) subclasses
`InMemoryChannelLayer`: it overrides the private `_clean_expired` and replaces `send`
and `group_send` with versions that put `(expiry, message)` tuples straight into the
layer's own `channels` queues, which channels' `receive`, `group_add`, `group_discard`
and `_remove_from_groups` then read. Its code stays where settings name it; this module
holds the pin of what it was written against, checked by `config.patches.apply()`.
"""

from __future__ import annotations

from config.patches.pins import Pin

PIN = Pin(
    library="channels",
    version="4.3.2",
    patch="config/patches/channels.py (events/broadcast/locallayer.py)",
    sources={
        # overridden
        "channels.layers:InMemoryChannelLayer._clean_expired": "604032dae1cc01d2",
        "channels.layers:InMemoryChannelLayer.send": "a4dab1cd8aff886e",
        "channels.layers:InMemoryChannelLayer.group_send": "693c3172deb6431b",
        "channels.layers:BaseChannelLayer.get_capacity": "6f88311db659c94f",
        # relied on: they share the layer's queues and groups
        "channels.layers:InMemoryChannelLayer.__init__": "a868dc26b1c1947d",
        "channels.layers:InMemoryChannelLayer.receive": "e615f8ae40b60e12",
        "channels.layers:InMemoryChannelLayer.group_add": "7c4f2ffd2d8f7a91",
        "channels.layers:InMemoryChannelLayer.group_discard": "bf83f0ac1f55405d",
        "channels.layers:InMemoryChannelLayer._remove_from_groups": "791d451199f668ed",
    },
)


def problems() -> list[str]:
    return PIN.problems()
