"""Yankee Heist's story read from the database: each table's replay, who sat where, who
brought which gift, the hand-overs, the relay's ring and the late arrivals, for
build.py."""

from __future__ import annotations

from typing import Any

from events.models import Party
from events.party.history import joined_names, late_arrivals, party_handovers, seat_players
from games.yankee import gift_label
from relay.models import Relay
from story.replay import table_replay
from tables.models import TableAction

from .build import GiftOrigin, HandOver, TableInput, story_build


def party_origins(party: Party) -> dict[int, GiftOrigin]:
    """Every gift in play by engine id: who brought it (the name they joined with,
    whoever played their seat later). Guests removed before seating took their gift
    home, and late arrivals' gifts never went in: neither is in any game."""
    guests = list(party.guests.filter(removed_at__isnull=True))
    joined = joined_names(guests, party_handovers(party))
    out = {}
    for g in guests:
        if not g.late:
            out[g.gift_number] = GiftOrigin(gift_label(g.gift_number), "guest", joined[g.pk])
    for v in party.vault_gifts.all():
        out[v.gift_id] = GiftOrigin(gift_label(v.gift_id), "vault", v.contributor)
    return out


def story_replay(party: Party) -> dict[str, Any]:
    tables = list(party.tables.order_by("letter"))
    actions: dict[int, list[TableAction]] = {t.pk: [] for t in tables}
    for row in TableAction.objects.filter(table__party=party).order_by("table_id", "version"):
        actions[row.table_id].append(row)
    handovers = party_handovers(party)
    played = seat_players(handovers)
    guests = list(party.guests.all())
    joined = joined_names(guests, handovers)
    by_gift = {g.gift_number: joined[g.pk] for g in guests}
    inputs = []
    for t in tables:
        inputs.append(
            TableInput(
                t.letter,
                # Who sat down at each seat: a seat handed over starts with its leaver.
                [played.get((t.pk, seat), [r["name"]])[0] for seat, r in enumerate(t.roster)],
                table_replay(t, actions[t.pk]),
                [
                    HandOver(h.table_version, h.seat, h.leaving_name, h.claimed_by)
                    for h in handovers
                    if h.table_id == t.pk
                ],
                [by_gift.get(r["gift_number"], r["name"]) for r in t.roster],
            )
        )
    relay = Relay.objects.filter(party=party).first()
    ring = list(relay.ring) if relay else [t.letter for t in tables]
    late = [
        {"gift": r["gift"], "brought_by": r["guest"], "home_with": r["guest"], "played_for": r["played_for"]}
        for r in late_arrivals(guests, handovers, {t.pk: t.letter for t in tables}, over=True)
    ]
    return story_build(
        code=party.code, name=party.name, tables=inputs, origins=party_origins(party), ring=ring, late=late
    )
