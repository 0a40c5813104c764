"""Guest sockets that went quiet: closed, and the guest shown offline, within seconds.

A phone whose Wi-Fi stalls keeps its socket open on the server while no byte arrives.
The phone knows in 4 s (static/heist/live.js drops a socket silent that long), but the
server only noticed when daphne's own WebSocket ping gave up: the host's dashboard
showed the guest offline 37-45 s late. Every screen pings every 2 s, so a guest socket
silent for STALL_SECONDS (three missed pings and a half) is dead: the server says so
at once (presence) and closes it.

Cheap at any party size: receiving a frame only stores a number in a dict, and one
sweep per process and event loop (not one timer per socket) looks at every watched
socket once per SWEEP_SECONDS; it stops itself when no socket is watched. A sweep
over 1,000 sockets takes well under a millisecond (tests/live/test_stalls.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from typing import Protocol

logger = logging.getLogger(__name__)

STALL_SECONDS = 7.0  # phones ping every 2 s: shown offline within STALL + SWEEP < 10 s
SWEEP_SECONDS = 1.0


class Watched(Protocol):
    async def stalled(self) -> None: ...


class _Watch:
    """The watched sockets of one event loop: socket -> when it was last heard."""

    def __init__(self) -> None:
        self.heard: dict[Watched, float] = {}
        self.sweeper: asyncio.Task[None] | None = None
        self.closing: set[asyncio.Task[None]] = set()  # held: a task nobody holds may vanish


_watches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Watch] = weakref.WeakKeyDictionary()


def _watch() -> _Watch:
    loop = asyncio.get_running_loop()
    watch = _watches.get(loop)
    if watch is None:
        watch = _watches[loop] = _Watch()
    return watch


def watch(socket: Watched) -> None:
    """Start watching a socket (a guest's, after its hello): heard now."""
    w = _watch()
    w.heard[socket] = time.monotonic()
    if w.sweeper is None or w.sweeper.done():
        w.sweeper = asyncio.ensure_future(_sweep(w))


def heard(socket: Watched) -> None:
    """A frame arrived on the socket (any frame: a ping is the usual one)."""
    w = _watches.get(asyncio.get_running_loop())
    if w is not None and socket in w.heard:
        w.heard[socket] = time.monotonic()


def forget(socket: Watched) -> None:
    """The socket closed: nothing more to watch."""
    w = _watches.get(asyncio.get_running_loop())
    if w is not None:
        w.heard.pop(socket, None)


def watched() -> int:
    """How many sockets this loop watches (for tests and the bench)."""
    w = _watches.get(asyncio.get_running_loop())
    return 0 if w is None else len(w.heard)


def sweep_once(w: _Watch | None = None, now: float | None = None) -> list[Watched]:
    """The sockets silent for STALL_SECONDS, no longer watched; their `stalled()` runs
    in a task of its own (a database write, then the close)."""
    w = w or _watch()
    cutoff = (time.monotonic() if now is None else now) - STALL_SECONDS
    silent = [s for s, at in w.heard.items() if at < cutoff]
    for socket in silent:
        del w.heard[socket]
        task = asyncio.ensure_future(socket.stalled())
        w.closing.add(task)
        task.add_done_callback(w.closing.discard)
    return silent


async def _sweep(w: _Watch) -> None:
    while w.heard:
        await asyncio.sleep(SWEEP_SECONDS)
        try:
            sweep_once(w)
        except Exception:  # never let one bad socket stop the watch of the others
            logger.exception("stall sweep failed")
