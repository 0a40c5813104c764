"""The reads the party socket makes of a seat and a tablet, each one query."""

from __future__ import annotations

from typing import Any

from events.live import fastread
from events.models import Tablet


def seat_row(guest_id: int | None) -> dict[str, Any] | None:
    """What the database says about a guest's seat now: its secret (changed by a
    hand-over), removal, table, seat and captaincy. None: the party was deleted (the
    handlers then say no_party; so does a guest_id of None)."""
    if guest_id is None:
        return None
    row: dict[str, Any] | None = fastread.seat_row(guest_id)  # the ORM's query building cost more than the query
    return row


def tablet_held(tablet_id: int, secret: str | None) -> bool:
    """False once the host revoked the tablet (a deleted row: the party is gone)."""
    row = Tablet.objects.filter(pk=tablet_id).values_list("token_hash", "revoked_at").first()
    return row is None or (row[0] == secret and row[1] is None)
