"""Who is online: one row per open guest socket, in PostgreSQL (not Redis).

A counter (+1 on hello, -1 on close) stayed high after a kill -9: the dead process
never said -1, so a guest who came back and then left still showed online. A row per
socket can be checked:

- a row names the server address it was opened on (the ASGI scope's `server`) and the
  process; the first hello a process serves on an address deletes the rows of earlier
  processes on that address, which died (two live processes cannot listen on one
  address);
- a row not refreshed for ONLINE_GRACE (pings refresh it) counts for nothing, for a
  process that never comes back.

`Guest.sockets` stays as the guest's count of live rows, recomputed on every change,
and `Guest.last_seen` the last sign of life; `selectors.is_online` reads both. Each
recount holds the guest's row while it counts (`_recount`): two of the guest's sockets
closing at once (a captain closing the seat's two pages) could each count in a snapshot
taken before the other's row went, and the last to write left the guest online with no
socket open (a wrong mark in every later snapshot, for up to ONLINE_GRACE).

The socket calls the three services at the end (`guest_socket_opened`, `_seen`,
`_closed`); each returns an Outcome whose messages tell who is online: the host's
dashboard of every guest, and a table's captain (tablet, and the captain's phone) of that
table's guests only. The snapshots of both carry the same (events/party/selectors.py
`table_offline`), so a screen that missed a message is right again at its next resync."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from events.broadcast.groups import Message, guest_group, host_group, tablet_group
from events.models import Guest, GuestSocket, Tablet
from events.party.selectors import ONLINE_GRACE
from tables.outcome import Outcome

PROCESS = uuid.uuid4().hex  # this process, for its rows
_claimed: set[str] = set()  # server addresses whose dead rows this process cleared


def server_address(scope: dict[str, Any]) -> str:
    server = scope.get("server")
    return f"{server[0]}:{server[1]}" if server else "unknown"


def presence_open(*, guest_id: int, channel: str, server: str) -> tuple[int, list[int]]:
    """A guest socket said hello. (the guest's live sockets, guests that went offline
    because their rows belonged to a dead process on this address)."""
    offline = []
    if server not in _claimed:
        offline = _clear_dead_rows(server)
        _claimed.add(server)
    now = timezone.now()
    GuestSocket.objects.update_or_create(
        channel=channel, defaults={"guest_id": guest_id, "server": server, "process": PROCESS, "seen_at": now}
    )
    return _recount(guest_id, now), [g for g in offline if g != guest_id]


def presence_seen(*, guest_id: int, channel: str) -> int:
    """Every guest socket runs this every 20 s (50 a second at ten 100-guest parties):
    two plain statements, for the ORM spent more building its three queries than the
    database spent on them (py-spy of the ten-party rehearsal: 14% of daphne's time)."""
    now = timezone.now()
    with connection.cursor() as cur:
        cur.execute(_sql("touch"), [_db_time(now), channel])
    return _recount(guest_id, now)


def presence_close(*, guest_id: int, channel: str) -> int:
    """A guest socket closed; the guest's live sockets left."""
    GuestSocket.objects.filter(channel=channel).delete()
    return _recount(guest_id, None)


def _clear_dead_rows(server: str) -> list[int]:
    with transaction.atomic():
        dead = GuestSocket.objects.filter(server=server).exclude(process=PROCESS)
        guests = sorted(set(dead.values_list("guest_id", flat=True)))
        dead.delete()
    return [g for g in guests if _recount(g, None) == 0]


def _recount(guest_id: int, seen: datetime | None) -> int:
    """Set the guest's count of live rows (and last_seen, when `seen`); the count it set
    (0 for a guest no longer there). The guest's row is locked first, in a statement of
    its own: the count, the next statement, then reads a snapshot taken after every
    change committed before the lock (PostgreSQL's READ COMMITTED takes one per
    statement). Counted in the statement that waits for the lock, it read the snapshot
    from before the wait: of two sockets closing together, one could count the other's
    row, gone meanwhile, and write its 1 over the other's 0."""
    cutoff = _db_time(timezone.now() - ONLINE_GRACE)
    with transaction.atomic(), connection.cursor() as cur:
        if connection.features.has_select_for_update:  # SQLite has one writer at a time anyway
            cur.execute(_sql("lock"), [guest_id])
        if seen is None:
            cur.execute(_sql("recount"), [guest_id, cutoff, guest_id])
        else:
            cur.execute(_sql("recount_seen"), [guest_id, cutoff, _db_time(seen), guest_id])
        row = cur.fetchone()
    return int(row[0]) if row else 0


def _db_time(value: datetime) -> Any:
    # What the backend takes for a datetime parameter (a string on SQLite)
    return connection.ops.adapt_datetimefield_value(value)


_SQL: dict[str, str] = {}


def _sql(name: str) -> str:
    """The statements, built once (the tables' names come from the models)."""
    if not _SQL:
        sockets, guests = GuestSocket._meta.db_table, Guest._meta.db_table
        live = f"(SELECT COUNT(*) FROM {sockets} WHERE guest_id = %s AND seen_at >= %s)"
        _SQL["touch"] = f"UPDATE {sockets} SET seen_at = %s WHERE channel = %s"
        _SQL["lock"] = f"SELECT 1 FROM {guests} WHERE id = %s FOR UPDATE"
        _SQL["recount"] = f"UPDATE {guests} SET sockets = {live} WHERE id = %s RETURNING sockets"
        _SQL["recount_seen"] = f"UPDATE {guests} SET sockets = {live}, last_seen = %s WHERE id = %s RETURNING sockets"
    return _SQL[name]


def _presence(party_id: int, guest_id: int, online: bool) -> list[Message]:
    """Who is (dis)connected, as it happens: for the host's dashboard, and for the
    captain's screens at the guest's own table (its paired tablets, its captain's phone),
    which hand a quiet guest's step on and should see who is not there. No other table
    learns of it."""
    payload = {"type": "presence", "guest": guest_id, "online": online}
    return [(group, payload) for group in [host_group(party_id), *_captains_groups(guest_id)]]


def _captains_groups(guest_id: int) -> list[str]:
    """The groups of the captain's screens at the guest's table (none unseated)."""
    table_id = Guest.objects.filter(pk=guest_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return []
    tablets = Tablet.objects.filter(table_id=table_id, revoked_at__isnull=True).exclude(token_hash="")
    captains = Guest.objects.filter(table_id=table_id, is_captain=True, removed_at__isnull=True)
    return [
        *(tablet_group(t) for t in tablets.values_list("pk", flat=True)),
        *(guest_group(g) for g in captains.values_list("pk", flat=True) if g != guest_id),
    ]


def guest_socket_opened(*, party_id: int, guest_id: int, channel: str, server: str) -> Outcome:
    """A guest's socket said hello: the guest is online, and so are no longer the
    guests whose sockets died with an earlier process on this address."""
    live, offline = presence_open(guest_id=guest_id, channel=channel, server=server)
    messages = [*_presence(party_id, guest_id, True), *(m for g in offline for m in _presence(party_id, g, False))]
    return Outcome({"sockets": live}, messages)


def guest_socket_seen(*, guest_id: int, channel: str) -> Outcome:
    """A ping on a guest's socket: still there (nothing to announce)."""
    return Outcome({"sockets": presence_seen(guest_id=guest_id, channel=channel)})


def guest_socket_closed(*, party_id: int, guest_id: int, channel: str) -> Outcome:
    """A guest's socket closed. A guest with the seat open on two devices (a captain's
    phone and tablet) is still online when one of them closes: then nothing changed for
    the room, and nothing is announced. An "online" said then raced the other close's
    "offline" to the screens (each close's message leaves from its own task), and when
    it came second the captain's tablet showed a guest online with every page closed."""
    live = presence_close(guest_id=guest_id, channel=channel)
    return Outcome({"sockets": live}, _presence(party_id, guest_id, False) if live == 0 else [])
