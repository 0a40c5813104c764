"""Reads: a finished party's story, replayed from the database's action logs."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache

from events.models import Party
from relay.models import Relay
from tables.models import TableAction
from tables.selectors import gift_label

from .build import GiftOrigin, TableInput, story_build
from .replay import table_replay

CACHE_SECONDS = 600


def party_origins(party: Party) -> dict[int, GiftOrigin]:
    """Every gift of the party by engine id: who brought it. Guests removed before
    seating took their gift home; they are not in any game."""
    out = {}
    for g in party.guests.filter(removed_at__isnull=True):
        out[g.gift_number] = GiftOrigin(gift_label(g.gift_number), "guest", g.name)
    for v in party.vault_gifts.all():
        out[v.gift_id] = GiftOrigin(gift_label(v.gift_id), "vault", v.contributor)
    return out


def party_story(party: Party) -> dict[str, Any]:
    """The story of a party that is over. A finished party never changes again, so
    the replay runs once per party and process (cached), however many phones ask at
    the end."""
    key = f"story:{party.pk}:{party.ended_at.timestamp() if party.ended_at else 0}"
    story: dict[str, Any] | None = cache.get(key)
    if story is None:
        story = story_replay(party)
        cache.set(key, story, CACHE_SECONDS)
    return story


def story_replay(party: Party) -> dict[str, Any]:
    tables = list(party.tables.order_by("letter"))
    actions: dict[int, list[TableAction]] = {t.pk: [] for t in tables}
    for row in TableAction.objects.filter(table__party=party).order_by("table_id", "version"):
        actions[row.table_id].append(row)
    inputs = [TableInput(t.letter, [r["name"] for r in t.roster], table_replay(t, actions[t.pk])) for t in tables]
    relay = Relay.objects.filter(party=party).first()
    ring = list(relay.ring) if relay else [t.letter for t in tables]
    return story_build(code=party.code, name=party.name, tables=inputs, origins=party_origins(party), ring=ring)
