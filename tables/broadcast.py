"""A table's update as one channel-layer message: the public part once, each seat's
private part once (events/fanout.py splits it per socket in each process).

The public part is the `table` message as public screens get it, JSON-encoded once; a
seat's private part is what `seat_view` adds to the public view (tables/engine/views.py
`seat_private`) and, when they differ, the action's events as that seat may see them.
"""

from __future__ import annotations

from typing import Any

import orjson

from tables.engine import Game, public_view
from tables.engine.views import seat_private

from .groups import Message

OPTS = orjson.OPT_NON_STR_KEYS


def fan_group(table_id: int) -> str:
    """The group only each process's fan-out channel joins (events/fanout.py)."""
    return f"t{table_id}.fan"


def dumps(value: Any) -> str:
    return orjson.dumps(value, option=OPTS).decode()


def table_message(table_id: int, game: Game, events, meta: dict) -> Message:
    """The one channel-layer message of a table at this version: (group, message)."""
    public_events = [v for v in (e.view(None) for e in events) if v is not None]
    head = dumps(
        {"type": "table", "version": game.version, "table": meta, "view": public_view(game), "events": public_events}
    )
    private = []
    for seat in range(game.players):
        part = seat_private(game, seat)
        seen = [v for v in (e.view(seat) for e in events) if v is not None]
        if seen != public_events:
            part["events"] = seen
        private.append(dumps(part))
    return fan_group(table_id), {"type": "fan", "table": table_id, "head": head[:-1], "private": private}


def texts(message: dict) -> tuple[str, list[str]]:
    """The public text and each seat's text of a fan message."""
    head = message["head"]
    return head + "}", [f'{head},"private":{part}}}' for part in message["private"]]
