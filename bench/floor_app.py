"""The bare ASGI app of bench/floor.py: what daphne alone costs for a table's traffic.

No Django, no Channels, no database, no channel layer: a socket at /ws/<table>/ joins
its table (in this process); every text frame a socket sends is answered with an `ok`
to it and a `table` message of FLOOR_BYTES bytes to every socket of its table, as the
party host does for an accepted action (the reply, then the table's update to every
screen). Whatever this costs per move is a floor under the real host's cost on the
same server.
"""

from __future__ import annotations

import json
import os

PAD = int(os.environ.get("FLOOR_BYTES", "2300"))
_tables: dict[str, list] = {}
_versions: dict[str, int] = {}


async def application(scope, receive, send):
    if scope["type"] != "websocket":
        return
    table = scope["path"].strip("/").split("/")[-1]
    members = _tables.setdefault(table, [])
    while True:
        message = await receive()
        kind = message["type"]
        if kind == "websocket.connect":
            await send({"type": "websocket.accept"})
            members.append(send)
        elif kind == "websocket.receive":
            frame = json.loads(message["text"])
            version = _versions[table] = _versions.get(table, 0) + 1
            await send({"type": "websocket.send", "text": json.dumps({"type": "ok", "re": frame.get("re")})})
            head = json.dumps({"type": "table", "version": version, "seat": frame.get("seat")})
            text = head[:-1] + ',"pad":"' + "x" * max(0, PAD - len(head) - 9) + '"}'
            for member in list(members):
                await member({"type": "websocket.send", "text": text})
        elif kind == "websocket.disconnect":
            members.remove(send)
            return
