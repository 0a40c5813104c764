"""Reads made on every frame, in plain SQL: the ORM spent far more building these
queries than the database spent answering them (bench/README.md)."""

from __future__ import annotations

from typing import Any

from django.db import connection

from events.models import Guest

_SEAT_ROW = None


def seat_row(guest_id: int) -> dict[str, Any] | None:
    """events.live.socket.selectors `seat_row`: the guest's secret digest, removal, table, seat and
    captaincy as the database holds them now; None if the guest (the party) is gone."""
    global _SEAT_ROW
    if _SEAT_ROW is None:
        _SEAT_ROW = (
            f"SELECT token_hash, removed_at, table_id, seat, is_captain FROM {Guest._meta.db_table} WHERE id = %s"
        )
    with connection.cursor() as cur:
        cur.execute(_SEAT_ROW, [guest_id])
        row = cur.fetchone()
    if row is None:
        return None
    token_hash, removed_at, table_id, seat, is_captain = row
    return {
        "token_hash": token_hash,
        "removed_at": removed_at,
        "table_id": table_id,
        "seat": seat,
        "is_captain": bool(is_captain),
    }
