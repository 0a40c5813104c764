"""The relay: open it (all tables at the gate), let captains draw seats (a table action,
see events/party/play.py), then run it once: every drawn gift is to move one table along the
ring, unblockable and with no comeback draw. Running it starts the walk; each table's
exchange, and its play after the gate, wait for its deliveries (below, and
docs/RULES.md).
"""

from __future__ import annotations

from typing import Any, cast

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from events.broadcast.groups import Message, party_group
from events.models import Guest, Party
from events.party.lobby import lobby_messages, locked_party, party_bump
from events.party.play import table_act_server
from games.definition import gifts_of, relay_of
from games.registry import game_named
from tables.errors import ErrorCode, ServiceError
from tables.models import Table
from tables.outcome import Outcome

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
        if not game_named(party.game).features.relay:
            raise ServiceError(ErrorCode.NO_RELAY, gettext("this party's game has no relay"))
        existing = Relay.objects.filter(party=party).first()
        if existing is not None:
            return Outcome()
        tables = _tables_locked(party)
        if len(tables) < 2:
            raise ServiceError(ErrorCode.NO_RELAY, gettext("the relay needs at least two tables"))
        definition = game_named(party.game)
        waiting = [t.letter for t in tables if not definition.at_gate(definition.from_dict(t.state))]
        if waiting:
            raise ServiceError(
                ErrorCode.GATE_CLOSED,
                gettext("still playing before the gate: table %(tables)s") % {"tables": ", ".join(waiting)},
            )
        ring = [t.letter for t in sorted(tables, key=lambda t: t.letter)]
        Relay.objects.create(party=party, ring=ring)
        party_bump(party)  # a screen that missed this broadcast sees it in its next pong
        return Outcome(messages=lobby_messages(party))


def relay_run(*, party_id: int) -> Outcome:
    """Run the relay exactly once: fix who carries which gift where, and start the walk.
    No gift changes table here: each table's exchange (and its play after it) waits until its
    gifts have been delivered (delivery_confirm). A second call changes nothing and
    returns nothing."""
    with transaction.atomic():
        party = locked_party(party_id)
        relay = Relay.objects.select_for_update().filter(party=party).first()
        if relay is None:
            raise ServiceError(ErrorCode.RELAY_NOT_OPEN, gettext("open the relay first"))
        if relay.status != Relay.Status.OPEN:
            return Outcome()
        tables = {t.letter: t for t in _tables_locked(party)}
        definition = game_named(party.game)
        gifts, relaying = gifts_of(definition), relay_of(definition)
        games = {letter: definition.from_dict(t.state) for letter, t in tables.items()}
        seats = {letter: relaying.relay_seat(games[letter]) for letter in relay.ring}
        drawn = {letter: seat for letter, seat in seats.items() if seat is not None}
        undrawn = [letter for letter in relay.ring if letter not in drawn]
        if undrawn:
            raise ServiceError(
                ErrorCode.NOT_DRAWN,
                gettext("captains still to draw: table %(tables)s") % {"tables": ", ".join(undrawn)},
            )
        ring = relay.ring
        # Each drawn player sends their gift to the next table's drawn seat and receives
        # the previous table's: the gift from ring[i - 1] arrives at ring[i].
        outgoing = {letter: gifts.seat_gifts(games[letter])[drawn[letter]] for letter in ring}
        result = []
        for i, letter in enumerate(ring):
            source = ring[i - 1]
            seat = drawn[letter]
            guest = Guest.objects.get(table=tables[letter], seat=seat)
            result.append(
                {
                    "table": letter,
                    "table_id": tables[letter].pk,
                    "seat": seat,
                    "guest": guest.name,  # this table's carrier
                    "sent": gifts.gift_label(outgoing[letter]),
                    "sent_id": outgoing[letter],
                    "sent_to": ring[(i + 1) % len(ring)],
                    "received": gifts.gift_label(outgoing[source]),
                    "received_id": outgoing[source],
                    "received_from": source,
                    # The walk: the gift coming in has not arrived yet; the table waits.
                    "arrived_by": None,
                    "arrived_at": None,
                    "playing": False,
                }
            )
        relay.status = Relay.Status.WALK
        relay.result = result
        relay.run_at = timezone.now()
        relay.save(update_fields=["status", "result", "run_at"])
        party_bump(party)
        return Outcome(messages=_relay_messages(party, relay))


# --- the walk ---------------------------------------------------------------------------
#
# After the run every carrier walks their gift to the next table. A delivery is
# confirmed once, by whoever saw it arrive: the carrier ("I delivered it"), the
# receiving table's captain or tablet, or the host (who may also confirm them all).
# A table plays on past the gate, with its relay exchange, when both of its walks are
# over: the gift coming in has arrived, and its own carrier has delivered the gift going
# out (so nobody is asked anything while carrying a gift, nor about one not yet there).


def delivery_confirm(*, party_id: int, table_id: int, confirmed_by: str, actor_label: str) -> Outcome:
    """The gift walking to table `table_id` has arrived. `confirmed_by`: "carrier",
    "captain", "tablet" or "host" (the command registry decided who may, events/party/roles.py).
    Idempotent: a second confirmation changes nothing, data {"duplicate": True}."""
    with transaction.atomic():
        party = locked_party(party_id)
        relay = _walking_relay(party)
        result = [dict(e) for e in _walk(relay)]
        entry = next((e for e in result if e["table_id"] == table_id), None)
        if entry is None:
            raise ServiceError(ErrorCode.INVALID, gettext("no gift walks to that table"))
        if entry["arrived_by"] is not None:
            return Outcome({"duplicate": True})
        _arrive(entry, confirmed_by, actor_label)
        return _after_arrivals(party, relay, result)


def deliveries_confirm_all(*, party_id: int, actor_label: str) -> Outcome:
    """The host's override: every gift still walking has arrived. Idempotent."""
    with transaction.atomic():
        party = locked_party(party_id)
        relay = _walking_relay(party)
        result = [dict(e) for e in _walk(relay)]
        waiting = [e for e in result if e["arrived_by"] is None]
        if not waiting:
            return Outcome({"duplicate": True})
        for entry in waiting:
            _arrive(entry, "host", actor_label)
        return _after_arrivals(party, relay, result)


def _walking_relay(party: Party) -> Relay:
    relay = Relay.objects.select_for_update().filter(party=party).first()
    if relay is None or relay.status == Relay.Status.OPEN:
        raise ServiceError(ErrorCode.RELAY_NOT_RUN, gettext("the relay has not run yet: no gift is on its way"))
    return relay


def _walk(relay: Relay) -> list[dict[str, Any]]:
    """The walk's entries: a relay past OPEN holds them (relay_run wrote its `result`)."""
    return cast("list[dict[str, Any]]", relay.result)


def _arrive(entry: dict[str, Any], confirmed_by: str, actor_label: str) -> None:
    entry["arrived_by"] = confirmed_by
    entry["arrived_actor"] = actor_label  # for the audit: exactly who confirmed it
    entry["arrived_at"] = timezone.now().timestamp()


def _after_arrivals(party: Party, relay: Relay, result: list[dict[str, Any]]) -> Outcome:
    """Start every table whose walks are both over, record the walk, announce it. The
    caller holds the party's lock and the relay's."""
    by_letter = {e["table"]: e for e in result}
    ready = [
        e for e in result if not e["playing"] and e["arrived_by"] is not None and by_letter[e["sent_to"]]["arrived_by"]
    ]
    messages: list[Message] = []
    if ready:
        # Lock the tables that start in primary-key order, as every multi-table
        # transaction does (_tables_locked).
        starting = Table.objects.select_for_update().filter(party=party, letter__in=[e["table"] for e in ready])
        tables = {t.letter: t for t in starting.order_by("pk")}
        definition = game_named(party.game)
        gifts, relaying = gifts_of(definition), relay_of(definition)
        for entry in ready:
            # The gift's secret description, from the table it left (a game keeps the
            # description of every gift it ever held; that table may be playing on).
            source = definition.from_dict(Table.objects.get(party=party, letter=entry["received_from"]).state)
            gift_id = entry["received_id"]
            table = tables[entry["table"]]
            arrival = relaying.relay_arrival(
                definition.from_dict(table.state), gift_id, gifts.gift_description(source, gift_id)
            )
            outcome = table_act_server(table=table, engine_action=arrival, actor_label="relay")
            messages.extend(outcome.messages)
            entry["playing"] = True
    if all(e["playing"] for e in result):
        relay.status = Relay.Status.DONE
    relay.result = result
    relay.save(update_fields=["status", "result"])
    party_bump(party)
    return Outcome({"duplicate": False}, messages + _relay_messages(party, relay))


def _relay_messages(party: Party, relay: Relay) -> list[Message]:
    return [*lobby_messages(party), (party_group(party.pk), {"type": "relay", "relay": relay_json(relay)})]
