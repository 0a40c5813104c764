"""Who played which seat, and who brought which gift, across hand-overs and late
arrivals: read from the hand-over records (SeatHandOver), never rewritten.

A substitute who claims a seat by its hand-over code takes over the leaver's guest row
(its secret and name, so the seat's sockets follow); the record keeps the leaver's
name. A late arrival seated as a substitute keeps their own row, and the record names
them (`substitute`). The result, the CSV and the story read both through here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext, gettext_noop

from events.models import Guest, Party, SeatHandOver
from games.definition import gifts_of
from games.registry import game_named

WRAPPED = gettext_noop("(wrapped)")  # what the result says of a gift nobody has unwrapped yet (gettext it)


def party_handovers(party: Party) -> list[SeatHandOver]:
    """Every hand-over a substitute completed, oldest first."""
    return list(party.handovers.filter(claimed_at__isnull=False).order_by("claimed_at", "pk"))


def joined_names(guests: Iterable[Guest], handovers: list[SeatHandOver]) -> dict[int, str]:
    """guest id -> the name the guest joined with. A substitute who claims a seat by
    its hand-over code takes over the leaver's guest row (its secret and name); the
    hand-over's record keeps the leaver's name, and the gift stays theirs."""
    first: dict[int, str] = {}
    for h in handovers:
        first.setdefault(h.guest_id, h.leaving_name)
    return {g.pk: first.get(g.pk, g.name) for g in guests}


def seat_players(handovers: list[SeatHandOver]) -> dict[tuple[int | None, int], list[str]]:
    """(table id, seat) -> everyone who played that seat, in order (the leaver, then
    each substitute); only seats that changed hands."""
    out: dict[tuple[int | None, int], list[str]] = {}
    for h in handovers:
        out.setdefault((h.table_id, h.seat), [h.leaving_name]).append(h.claimed_by)
    return out


def late_arrivals(
    guests: Iterable[Guest], handovers: list[SeatHandOver], letters: dict[int, str], *, over: bool
) -> list[dict[str, Any]]:
    """The late arrivals (docs/RULES.md): each takes their own gift home, and may have
    played a leaver's seat for them (`played_for`). The party's game labels the gifts
    (read through `party.guests`, the party is at hand)."""
    substituted = {h.substitute_id: h for h in handovers if h.substitute_id is not None}
    late = []
    for g in guests:
        if not g.late or g.removed_at is not None:
            continue
        sub = substituted.get(g.pk)
        late.append(
            {
                "guest": g.name,
                "guest_id": g.pk,
                "gift": gifts_of(game_named(g.party.game)).gift_label(g.gift_number),
                # Never in play, never unwrapped: a secret until the party is over.
                "description": g.description if over else gettext(WRAPPED),
                "wrapped": not over,
                "source": gettext("brought by %(name)s (arrived late)") % {"name": g.name},
                "from": {"kind": "late", "name": g.name},
                "played_for": None if sub is None else sub.leaving_name,
                "table": None if sub is None or sub.table_id is None else letters.get(sub.table_id),
                "seat": None if sub is None else sub.seat,
            }
        )
    return late
