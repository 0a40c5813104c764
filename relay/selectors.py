"""Reads of the relay: what screens show of it, whether captains may draw, and who
carries the gift walking into a table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .models import Relay


def relay_json(relay: Relay | None) -> dict[str, Any] | None:
    if relay is None:
        return None
    return {"status": relay.status, "ring": relay.ring, "result": relay.result}


def relay_is_open(party_id: int) -> bool:
    """Captains draw only once the host has opened the relay (the ring is announced)."""
    return Relay.objects.filter(party_id=party_id, status=Relay.Status.OPEN).exists()


@dataclass(frozen=True)
class DeliveryLeg:
    """One walk of the relay: the gift going from one table to the next, and who carries it."""

    from_table_id: int
    to_table_id: int
    carrier_seat: int  # the drawn seat of the sending table


def delivery_leg(party_id: int, to_table_id: int) -> DeliveryLeg | None:
    """The walk into table `to_table_id`, once the relay has run; None before, or for a
    table that is not on the ring."""
    relay = Relay.objects.filter(party_id=party_id).exclude(status=Relay.Status.OPEN).first()
    if relay is None or not relay.result:
        return None
    by_letter = {e["table"]: e for e in relay.result}
    entry = next((e for e in relay.result if e["table_id"] == to_table_id), None)
    if entry is None:
        return None
    sender = by_letter[entry["received_from"]]
    return DeliveryLeg(from_table_id=sender["table_id"], to_table_id=to_table_id, carrier_seat=sender["seat"])
