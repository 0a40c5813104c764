"""A join's broadcast, read after its commit and shared by the joins that commit meanwhile.

A join used to build its lobby broadcast (the host's whole roster, every screen's
public party) inside its transaction, under the party's row lock. In a join burst
(a QR code on the wall: a hundred phones in five seconds) that made each join hold
the lock for a dozen reads, the other joins of the party waited for it in their
request threads, and every join sent a roster to the host and a status to every
phone already in the lobby: a hundred reads and ten thousand frames per party, the
rehearsal's worst seconds (bench/README.md, "Ninth session").

Now a join commits first, and its broadcast is read afterwards, once for all the joins
of the party that committed while the previous one was being read and sent (group
commit, as a database flushes its log): at most one broadcast being read and one
waiting, per party and process. Each join's reply waits for the broadcast that
includes it, so whoever joined is on the host's roster before their page loads.

The broadcast carries the party's revision; a screen keeps the newest it has seen
(static/heist/live.js), for two processes' broadcasts may cross on the way.
"""

from __future__ import annotations

import logging
import threading

from asgiref.sync import async_to_sync

from events.broadcast.groups import Message, send_safely
from events.models import Party
from events.party.lobby import lobby_messages

logger = logging.getLogger(__name__)


class _Flight:
    """One broadcast of a party's lobby: joined by every change that commits before it
    starts reading."""

    def __init__(self) -> None:
        self.started = False
        self.done = threading.Event()


_lock = threading.Lock()
_flights: dict[int, _Flight] = {}  # party id -> its newest flight (running or waiting)


def lobby_announce(party_id: int) -> None:
    """After a lobby change committed (from a request's thread): return once a
    broadcast read after that commit has been sent to the party's screens."""
    with _lock:
        last = _flights.get(party_id)
        if last is not None and not last.started:
            mine, own = last, False  # it has not read yet: it will include this change
        else:
            mine, own = _Flight(), True
            _flights[party_id] = mine
    if not own:
        mine.done.wait()
        return
    try:
        if last is not None:
            last.done.wait()  # one broadcast of a party at a time, in order
        with _lock:
            mine.started = True
        async_to_sync(send_safely)(_read(party_id))
    except Exception:  # the change has committed; screens resync on the pong's revision
        logger.warning("lobby broadcast of party %s failed", party_id, exc_info=True)
    finally:
        with _lock:
            if _flights.get(party_id) is mine:
                del _flights[party_id]
        mine.done.set()


def _read(party_id: int) -> list[Message]:
    party = Party.objects.filter(pk=party_id).first()
    return [] if party is None else lobby_messages(party)
