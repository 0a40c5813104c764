"""The tests' shorthand for the services that hand out a secret: each returns an
Outcome (tables/outcome.py) whose data names the row it made; the tests want the row."""

from __future__ import annotations

from events.models import Guest, Party
from events.party import services
from tables.outcome import Outcome


def party_create(**kwargs) -> tuple[Party, str]:
    """services.party_create: the party and its host secret."""
    data = services.party_create(**kwargs).data
    return Party.objects.get(pk=data["party"]), data["host_token"]


def guest_join(**kwargs) -> tuple[Guest, str, Outcome]:
    """services.guest_join: the guest, their seat secret and the outcome."""
    outcome = services.guest_join(**kwargs)
    return Guest.objects.get(pk=outcome.data["guest"]), outcome.data["token"], outcome


def seat_claim(**kwargs) -> tuple[Guest, str, Outcome]:
    """services.seat_claim: the guest whose seat was taken over, its new secret, the outcome."""
    outcome = services.seat_claim(**kwargs)
    return Guest.objects.get(pk=outcome.data["guest"]), outcome.data["token"], outcome


def party_seated(*, name: str, guests: int, prefix: str = "G") -> tuple[Party, str, dict[int, str]]:
    """A party of `guests` joined (named prefix + 0, 1, ...) and seated: the party, its
    host secret, and each guest's seat secret by guest id."""
    party, host_token = party_create(name=name)
    tokens = {}
    for i in range(guests):
        guest, token, _ = guest_join(code=party.code, name=f"{prefix}{i}", description=f"gift {i}")
        tokens[guest.pk] = token
    services.party_seat(party_id=party.pk)
    return party, host_token, tokens
