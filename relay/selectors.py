"""Reads of the relay: what screens show of it, and whether captains may draw."""

from __future__ import annotations

from .models import Relay


def relay_json(relay: Relay | None) -> dict | None:
    if relay is None:
        return None
    return {"status": relay.status, "ring": relay.ring, "result": relay.result}


def relay_is_open(party_id: int) -> bool:
    """Captains draw only once the host has opened the relay (the ring is announced)."""
    return Relay.objects.filter(party_id=party_id, status=Relay.Status.OPEN).exists()
