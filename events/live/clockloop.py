"""Each server process sweeps the step clocks (events/party/clocks.py) from its event loop.

bin/serve has no Celery worker, so the server itself must play a quiet guest's step:
every CLOCK_SWEEP_SECONDS, one database thread claims the due tables (FOR UPDATE SKIP
LOCKED: two daphnes never play the same step) and this loop sends their updates. The
sweep starts with the process's first connection of any kind (config/asgi.py), so a
restarted server sweeps as soon as a screen reconnects; Celery beat sweeps too in
production (events/tasks.py), whether or not anyone is connected. The deadlines are in
the database: nothing here holds a timer that a restart would lose.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from django.conf import settings

from events.broadcast import fanout
from events.broadcast.looping import raise_if_cancelling
from events.party.clocks import clock_sweep
from tables.write import run_in_db_thread

log = logging.getLogger(__name__)

_sweeping: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Future[None]] = weakref.WeakKeyDictionary()


def ensure_sweeping() -> None:
    """Start this event loop's sweep if it has none (cheap: one dictionary look-up)."""
    every = getattr(settings, "CLOCK_SWEEP_SECONDS", 0)
    if every <= 0:
        return
    loop = asyncio.get_running_loop()
    if loop not in _sweeping:
        _sweeping[loop] = asyncio.ensure_future(_sweep_forever(every))


async def _sweep_forever(every: float) -> None:
    sweep = run_in_db_thread(clock_sweep)
    while True:
        raise_if_cancelling()
        try:
            messages = await sweep()
            if messages:
                await fanout.publish(messages)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("the step clocks' sweep failed; it runs again in %s s", every, exc_info=True)
        await asyncio.sleep(every)
