"""What a `pong` carries: the versions of what a socket reads, read from the database
(never from the channel layer), so a screen that missed broadcasts notices within one
heartbeat and resyncs.

Every screen pings every 2 s: a 100-guest party is 50 pings a second per party. Read
per ping, that was 50 queries a second on Channels' one database thread; under load
the pongs came late, phones took their sockets for dead and reconnected, and each
reconnect cost more database work (a hello, a snapshot): the rehearsal saw a whole
party stop. So one read per party serves every pong of that party for PARTY_TTL
seconds, and concurrent misses share it.

The read runs on a thread of its own (one per process), not in the pool where the
sockets' hellos and actions queue: in a join burst of 500 phones per process that
queue was seconds long, and a pong is the phone's proof that its socket is alive. A
pong waits at most PONG_WAIT for the read, then goes without versions.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar

from events.live import lanes
from events.models import Party
from events.party.roles import Actor, Role
from tables.models import Table

# Shorter than a heartbeat (2 s): a pong is never more than this behind the database,
# and screens recheck 0.7 s after a pong before they resync.
PARTY_TTL = 1.0
PONG_WAIT = 0.5  # seconds a pong waits for a read before it goes without versions
_versions: dict[int, tuple[float, dict[str, Any]]] = {}  # party id -> (read at, {revision, tables})
_reading: dict[int, asyncio.Future[dict[str, Any]]] = {}
P = ParamSpec("P")
R = TypeVar("R")


def _read_party(party_id: int) -> dict[str, Any]:
    revision = Party.objects.filter(pk=party_id).values_list("revision", flat=True).first()
    if revision is None:
        raise Party.DoesNotExist
    tables = Table.objects.filter(party_id=party_id).values_list("pk", "version")
    return {"revision": revision, "tables": {str(pk): v for pk, v in tables}}


async def party_versions(party_id: int) -> dict[str, Any]:
    """{revision, tables: {id: version}} of a party, at most PARTY_TTL old."""
    hit = _fresh(party_id)
    if hit is not None:
        return hit
    pending = _reading.get(party_id)
    if pending is not None:
        return await asyncio.shield(pending)
    future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    _reading[party_id] = future
    try:
        data = await _in_heartbeat_thread(_read_party)(party_id)
    except BaseException as exc:
        future.set_exception(exc)
        future.exception()  # retrieved: no "never retrieved" warning when nobody waits
        raise
    finally:
        _reading.pop(party_id, None)
    future.set_result(data)
    _versions[party_id] = (time.monotonic(), data)
    if len(_versions) > 256:  # parties come and go: forget the ones nobody asked about lately
        for pid, (at, _) in list(_versions.items()):
            if time.monotonic() - at > 60:
                del _versions[pid]
    return data


def _in_heartbeat_thread(fn: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """`fn` on the heartbeat's own thread (events/live/lanes.py)."""
    return lanes.run_in("heartbeat", fn)


async def versions_within(actor: Actor) -> dict[str, Any] | None:
    """versions_for(actor), or None when the read takes longer than PONG_WAIT seconds;
    the read goes on, and serves the next pong."""
    read = asyncio.ensure_future(versions_for(actor))
    read.add_done_callback(_retrieved)
    try:
        async with asyncio.timeout(PONG_WAIT):
            return await asyncio.shield(read)
    except TimeoutError:
        return None


def _retrieved(task: asyncio.Task[Any]) -> None:
    """A read nobody waits for any more may fail: not a "never retrieved" warning."""
    if not task.cancelled():
        task.exception()


def fresh_versions(actor: Actor) -> dict[str, Any] | None:
    """versions_for(actor) from this process's read of the party when it is fresh (at
    most PARTY_TTL old), with no task and no wait: nearly every ping of a busy party
    (50 a second per party); None otherwise."""
    hit = _fresh(actor.party_id)
    return None if hit is None else _for(actor, hit)


def _fresh(party_id: int) -> dict[str, Any] | None:
    """This process's read of the party, if it is at most PARTY_TTL old."""
    hit = _versions.get(party_id)
    return hit[1] if hit is not None and time.monotonic() - hit[0] < PARTY_TTL else None


async def versions_for(actor: Actor) -> dict[str, Any]:
    """What `actor` reads: a guest or tablet its own table (a guest not yet seated on
    this socket: none, and the party's revision tells it seating happened); host and
    spectator every table."""
    return _for(actor, await party_versions(actor.party_id))


def _for(actor: Actor, data: dict[str, Any]) -> dict[str, Any]:
    if actor.role in (Role.HOST, Role.SPECTATOR):
        return data
    key = None if actor.table_id is None else str(actor.table_id)
    return {"revision": data["revision"], "tables": {key: data["tables"][key]} if key in data["tables"] else {}}
