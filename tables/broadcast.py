"""A table's update as one channel-layer message: the public part once, each seat's
private part once (events/broadcast/fanout.py splits it per socket in each process).

The public part is the `table` message as public screens get it, JSON-encoded once; a
seat's private part is what `seat_view` adds to the public view (the table's
definition's `seat_private`) and, when they differ, the action's events as that seat may see them.

A screen that said `patches` in its hello gets, instead of the whole public part, what
changed since the version before (`view_patch`) and the table details without the
roster (its `roster_tag` says which roster goes with it): a seat's update is 1.1 kB
instead of 2.3 kB at a table of ten (median, bench/live.py), for the rest repeats what
the screen has. Half the bytes to carry and decode for every phone at every action, on
a venue's crowded Wi-Fi; the server's CPU per action stays the same (the patch is made
once per action; bench/README.md, twelfth session). A screen that does not hold the
version before resyncs, as on any gap.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from games.definition import Definition
from games.event import Event
from games.patch import view_patch

from .groups import Message

OPTS = orjson.OPT_NON_STR_KEYS


def fan_group(table_id: int) -> str:
    """The group only each process's fan-out channel joins (events/broadcast/fanout.py)."""
    return f"t{table_id}.fan"


def dumps(value: Any) -> str:
    return orjson.dumps(value, option=OPTS).decode()


def table_message(
    table_id: int,
    definition: Definition,
    game: Any,
    events: Sequence[Event],
    meta: dict[str, Any],
    before: Any | None = None,
) -> Message:
    """The one channel-layer message of a table at this version: (group, message).
    `before`: the game this version was made from (committed: a locked row, or this
    process's copy of it), for the patch; None (a new roster, a first deal): no patch."""
    public_events = [v for v in (e.view(None) for e in events) if v is not None]
    version = definition.version(game)
    view = definition.public_view(game)
    head = dumps({"type": "table", "version": version, "table": meta, "view": view, "events": public_events})
    patch = None
    if before is not None and definition.version(before) == version - 1:
        patch = dumps(
            {
                "type": "table",
                "version": version,
                "base": version - 1,
                "table": {k: v for k, v in meta.items() if k != "roster"},
                "patch": view_patch(definition.public_view(before), view),
                "events": public_events,
            }
        )[:-1]
    private = []
    for seat in range(game.players):
        part = definition.seat_private(game, seat)
        seen = [v for v in (e.view(seat) for e in events) if v is not None]
        if seen != public_events:
            part["events"] = seen
        private.append(dumps(part))
    fan = {"type": "fan", "table": table_id, "head": head[:-1], "private": private}
    if patch is not None:
        fan["patch"] = patch
    return fan_group(table_id), fan


def texts(message: dict[str, Any], *, patched: bool = False) -> tuple[str, list[str]]:
    """The public text and each seat's text of a fan message: whole, or (`patched`, and
    the message has one) as a patch of the version before."""
    head = message.get("patch") if patched else None
    if head is None:
        head = message["head"]
    return head + "}", [f'{head},"private":{part}}}' for part in message["private"]]
