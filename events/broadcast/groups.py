"""Channel group names and the one way services hand messages to sockets.

Every socket joins only the groups whose messages it may read: a seat's group carries
that seat's private view, a table's public group the view with no hand in it.
Services return (group, payload) pairs; they are sent only after the transaction that
produced them commits, so no screen ever shows a state the database does not hold.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

# A table's groups are named by the table layer (a table addresses its own screens);
# the party's groups below. Both are imported from here by the party's code.
from tables.groups import Message, seat_group, table_group
from tables.words import SAID

__all__ = [
    "Message",
    "encode",
    "guest_group",
    "host_group",
    "party_group",
    "seat_group",
    "send",
    "send_on_commit",
    "send_safely",
    "table_group",
    "tablet_group",
]

logger = logging.getLogger(__name__)


def party_group(party_id: int) -> str:
    return f"p{party_id}"


def host_group(party_id: int) -> str:
    return f"p{party_id}.host"


def guest_group(guest_id: int) -> str:
    return f"g{guest_id}"


def tablet_group(tablet_id: int) -> str:
    return f"tab{tablet_id}"


def encode(payload: dict[str, Any]) -> dict[str, Any]:
    """The channel-layer message for one screen payload: its JSON text, encoded once
    here rather than by every receiving socket (and cheaper for msgpack to carry than
    the nested dict), with its `kind` for the consumer to act on. A table's update
    (events/broadcast/fanout.py) is already its layer message."""
    if payload.get("type") == "fan":
        return payload
    carried = payload.get(SAID)
    if carried is None:
        return {"type": "deliver", "kind": payload.get("type"), "text": json.dumps(payload, separators=(",", ":"))}
    # A text each socket says in its own language (tables/words.py `said`): the JSON
    # holds the English, `said` what the consumer needs to render it.
    payload = {k: v for k, v in payload.items() if k != SAID}
    text = json.dumps(payload, separators=(",", ":"))
    return {"type": "deliver", "kind": payload.get("type"), "text": text, "said": carried}


async def send(messages: list[Message]) -> None:
    """Publish the messages, groups in parallel: one action fans out to a message per
    seat plus the public view, and awaiting each Redis round trip in turn made the
    last phone at a table wait for all the others. Messages to the same group keep
    their order (sent one after another)."""
    layer = get_channel_layer()
    by_group: dict[str, list[dict[str, Any]]] = {}
    for group, payload in messages:
        by_group.setdefault(group, []).append(payload)

    async def to_group(group: str, payloads: list[dict[str, Any]]) -> None:
        for payload in payloads:
            await layer.group_send(group, encode(payload))

    results = await asyncio.gather(*(to_group(g, p) for g, p in by_group.items()), return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            raise result


async def send_safely(messages: list[Message]) -> None:
    """`send`, after a commit that already happened: if the channel layer (Redis) is
    down, the broadcasts are lost but the request succeeded and its socket lives on.
    Every screen notices what it missed by the gap in table versions (or its next
    snapshot) and resyncs from PostgreSQL."""
    try:
        await send(messages)
    except Exception:
        logger.warning("channel layer unavailable: %d broadcasts lost", len(messages), exc_info=True)


def send_on_commit(messages: list[Message]) -> None:
    """For callers outside a consumer (HTTP views, Celery tasks)."""
    if messages:
        transaction.on_commit(lambda: async_to_sync(send_safely)(messages))
