"""A web process whose event loop stalls exits, so that compose starts a fresh one
(`restart: always`, docker-compose.yml).

Every socket and every request of a daphne is served from its one event loop: a loop
stuck (a blocking call, a deadlock, a driver that never returns) answers nobody, while
the process still holds its port and its parties' sockets. nginx routes new requests
around a daphne that does not answer (deploy/nginx.conf), but only a restart gives the
party its second daphne back. A thread outside the loop asks the loop for a beat every
second; when none came for LOOP_WATCHDOG_SECONDS the process logs why and exits at once
(os._exit: nothing run on the stuck loop, no clean-up that would wait for it). The
sockets it held reconnect to the other daphne (their heartbeat notices within 4 s) and
nothing is lost: state lives in the database.

Started with the process's first connection (config/asgi.py: daphne has no start-up
hook). None (the default outside production) turns it off.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

EXIT_STALLED = 70  # EX_SOFTWARE: compose's `restart: always` starts the process again
# A beat is asked for this many times per limit, and at least once a second: a stall is
# seen within a tick of its start, and the watcher never spins beside the loop it watches.
BEATS_PER_LIMIT = 4
TICK_AT_MOST = 1.0
# After the limit, one more second for the beat: a process resumed after SIGSTOP, or a
# machine after sleep, finds its deadline passed while the loop answers at once.
GRACE_SECONDS = 1.0

_watched: set[int] = set()
_lock = threading.Lock()


def ensure_watching(seconds: float | None, *, stop: Callable[[int], None] = os._exit) -> threading.Thread | None:
    """Watch the running loop (once per loop); None when off or already watched."""
    if not seconds:
        return None
    loop = asyncio.get_running_loop()
    with _lock:
        if id(loop) in _watched:
            return None
        _watched.add(id(loop))
    watcher = threading.Thread(
        target=_watch, args=(loop, float(seconds), stop), name="heist-loop-watchdog", daemon=True
    )
    watcher.start()
    return watcher


def _watch(loop: asyncio.AbstractEventLoop, seconds: float, stop: Callable[[int], None]) -> None:
    tick = min(TICK_AT_MOST, seconds / BEATS_PER_LIMIT)
    while not loop.is_closed():
        answered = threading.Event()
        started = time.monotonic()
        try:
            loop.call_soon_threadsafe(answered.set)
        except RuntimeError:  # the loop closed: the process is ending anyway
            return
        if answered.wait(seconds) or answered.wait(GRACE_SECONDS):
            time.sleep(tick)
            continue
        if loop.is_closed():
            return
        log.critical(
            "the event loop has not run for %.1f s: exiting so that the process is restarted",
            time.monotonic() - started,
        )
        stop(EXIT_STALLED)
        return
