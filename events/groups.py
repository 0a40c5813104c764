"""Channel group names and the one way services hand messages to sockets.

Every socket joins only the groups whose messages it may read: a seat's group carries
that seat's private view, a table's public group the view with no hand in it.
Services return (group, payload) pairs; they are sent only after the transaction that
produced them commits, so no screen ever shows a state the database does not hold.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

Message = tuple[str, dict]

logger = logging.getLogger(__name__)


def seat_group(table_id: int, seat: int) -> str:
    return f"t{table_id}.s{seat}"


def table_group(table_id: int) -> str:
    return f"t{table_id}.pub"


def party_group(party_id: int) -> str:
    return f"p{party_id}"


def host_group(party_id: int) -> str:
    return f"p{party_id}.host"


def guest_group(guest_id: int) -> str:
    return f"g{guest_id}"


async def send(messages: list[Message]) -> None:
    layer = get_channel_layer()
    for group, payload in messages:
        await layer.group_send(group, {"type": "deliver", "payload": payload})


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
