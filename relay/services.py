"""The relay: open it (all tables at the gate), let captains draw seats (a table action,
see events/play.py), then run it once: every drawn gift moves one table along the
ring at the same moment, in one transaction, unblockable and with no comeback draw.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from events.groups import Message, party_group
from events.lobby import lobby_messages, locked_party, party_bump
from events.models import Guest, Party
from events.play import table_act_server
from tables.engine import Game, Gift, Phase
from tables.engine.actions import RelayExchange
from tables.errors import ServiceError
from tables.models import Table
from tables.outcome import Outcome
from tables.selectors import gift_label

from .models import Relay
from .selectors import relay_json


def _tables_locked(party: Party) -> list[Table]:
    # Lock in primary-key order: every multi-table transaction takes the same order,
    # so two of them can never deadlock.
    return list(Table.objects.select_for_update().filter(party=party).order_by("pk"))


def relay_open(*, party_id: int) -> Outcome:
    """Open the relay once every table waits at the gate. Idempotent."""
    with transaction.atomic():
        party = locked_party(party_id)
        existing = Relay.objects.filter(party=party).first()
        if existing is not None:
            return Outcome()
        tables = _tables_locked(party)
        if len(tables) < 2:
            raise ServiceError("no_relay", "the relay needs at least two tables")
        waiting = [t.letter for t in tables if t.state["phase"] != Phase.GATE.value]
        if waiting:
            raise ServiceError("gate_closed", f"still playing round 2: table {', '.join(waiting)}")
        ring = [t.letter for t in sorted(tables, key=lambda t: t.letter)]
        Relay.objects.create(party=party, ring=ring)
        party_bump(party)  # a screen that missed this broadcast sees it in its next pong
        return Outcome(messages=lobby_messages(party))


def relay_run(*, party_id: int) -> Outcome:
    """Run the relay exactly once. A second call changes nothing and returns nothing."""
    with transaction.atomic():
        party = locked_party(party_id)
        relay = Relay.objects.select_for_update().filter(party=party).first()
        if relay is None:
            raise ServiceError("relay_not_open", "open the relay first")
        if relay.status == Relay.Status.DONE:
            return Outcome()
        tables = {t.letter: t for t in _tables_locked(party)}
        games = {letter: Game.from_dict(t.state) for letter, t in tables.items()}
        undrawn = [letter for letter in relay.ring if games[letter].relay_seat is None]
        if undrawn:
            raise ServiceError("not_drawn", f"captains still to draw: table {', '.join(undrawn)}")
        ring = relay.ring
        # Each drawn player sends their gift to the next table's drawn seat and receives
        # the previous table's: the gift from ring[i - 1] arrives at ring[i].
        outgoing = {}
        for letter in ring:
            g = games[letter]
            gift = g.gifts[g.relay_seat]
            outgoing[letter] = Gift(gift, g.descriptions[gift])
        messages: list[Message] = []
        result = []
        for i, letter in enumerate(ring):
            source = ring[i - 1]
            incoming = outgoing[source]
            seat = games[letter].relay_seat
            outcome = table_act_server(table=tables[letter], engine_action=RelayExchange(incoming), actor_label="relay")
            messages.extend(outcome.messages)
            guest = Guest.objects.get(table=tables[letter], seat=seat)
            result.append(
                {
                    "table": letter,
                    "seat": seat,
                    "guest": guest.name,
                    "sent": gift_label(outgoing[letter].id),
                    "sent_to": ring[(i + 1) % len(ring)],
                    "received": gift_label(incoming.id),
                    "received_from": source,
                }
            )
        relay.status = Relay.Status.DONE
        relay.result = result
        relay.run_at = timezone.now()
        relay.save(update_fields=["status", "result", "run_at"])
        party_bump(party)
        messages.extend(lobby_messages(party))
        messages.append((party_group(party.pk), {"type": "relay", "relay": relay_json(relay)}))
        return Outcome(messages=messages)
