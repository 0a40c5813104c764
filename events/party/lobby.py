"""The party's row lock, its broadcasts, and what table changes mean for the party.

The lowest of the party-level services: the lobby, seating, tablets, the relay and
table actions (events/party/services.py, events/party/tablets.py, relay/services.py,
events/party/play.py) all lock the party and announce its changes through here.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from events.broadcast.groups import Message, host_group, party_group
from events.models import Party
from events.party.selectors import party_for_host, party_public
from tables.errors import ErrorCode, ServiceError
from tables.models import Table


def locked_party(party_id: int) -> Party:
    # None: deleted by the expiry sweep while a screen was still open
    return _locked(Party.objects.filter(pk=party_id), gettext_noop("this party no longer exists"))


def locked_party_by_code(code: str) -> Party:
    """The party a join code names, locked (a join, a tablet's pairing)."""
    return _locked(Party.objects.filter(code=code), gettext_noop("no party has that code"))


def _locked(parties: QuerySet[Party], missing: str) -> Party:
    party = parties.select_for_update().first()
    if party is None:
        raise ServiceError(ErrorCode.NO_PARTY, gettext(missing))
    if party.expired:
        raise ServiceError(ErrorCode.EXPIRED, gettext("this party has expired (parties last seven days)"))
    return party


def lobby_messages(party: Party) -> list[Message]:
    """After a lobby change: the host's full roster, everybody's public party status."""
    party.refresh_from_db()
    public = party_public(party)  # once: the host's view adds to it
    return [
        (host_group(party.pk), {"type": "party", "role": "host", "party": party_for_host(party, public)}),
        (party_group(party.pk), {"type": "party", "role": "public", "party": public}),
    ]


def party_bump(party: Party) -> None:
    """The party changed: its revision (in every pong) moves on."""
    Party.objects.filter(pk=party.pk).update(revision=F("revision") + 1)


def party_after_table_change(*, table: Table, game: Any) -> list[Message]:
    """Called inside a table's transaction, and read-only on the party: a table action
    never writes (or locks) the party row, so it can never deadlock with the party-wide
    writes that lock the party and then its tables (relay, seat claim). Reports the
    gate as tables arrive at it; the end is settled after commit (party_close_if_over)."""
    if table.definition.at_gate(game):
        return lobby_messages(Party.objects.get(pk=table.party_id))
    return []


def tables_still_playing(party: Party) -> list[str]:
    return [
        t.letter for t in party.tables.order_by("letter") if not t.definition.is_over(t.definition.from_dict(t.state))
    ]


def party_close(party: Party) -> list[Message]:
    """Mark a locked party over (every table is)."""
    party.status = Party.Status.OVER
    party.ended_at = timezone.now()
    party.save(update_fields=["status", "ended_at"])
    party_bump(party)
    return lobby_messages(party)


def party_close_if_over(*, party_id: int) -> list[Message]:
    """After a table's last action committed: when every table is over, the party is.
    Runs in its own transaction under the party lock; idempotent."""
    with transaction.atomic():
        party = Party.objects.select_for_update().get(pk=party_id)
        if party.status == Party.Status.OVER:
            return []
        if tables_still_playing(party):
            return []
        return party_close(party)
