"""A table's channel groups and the message type every service returns.

Each seat has its own group (that seat's private view) and the table a public one (the
view with no hand in it). The party's groups (events/broadcast/groups.py) are named there; these
are here so a table can address its screens without knowing the party.
"""

from __future__ import annotations

from typing import Any

Message = tuple[str, dict[str, Any]]  # (group name, payload)


def seat_group(table_id: int, seat: int) -> str:
    return f"t{table_id}.s{seat}"


def table_group(table_id: int) -> str:
    return f"t{table_id}.pub"
