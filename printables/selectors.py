"""What a party's printables show, read from the database into plain data (the PDF
code below never touches the ORM)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse

from events.models import Party
from games.definition import gifts_of
from games.registry import game_named
from tables.models import Table
from tables.replay import table_setup


@dataclass(frozen=True)
class SeatLine:
    seat: int  # from 1, as on every screen
    name: str
    brought: str  # the label of the gift this guest brought
    starts_with: str  # the label of the gift dealt to this seat


@dataclass(frozen=True)
class TableSheet:
    letter: str
    seats: tuple[SeatLine, ...]
    captain: str | None
    vault: tuple[str, ...]  # labels of this table's vault gifts
    # The captain's tablet pairing link, for a QR code on the table tent.
    pairing_url: str | None = None


@dataclass(frozen=True)
class PartySheets:
    code: str
    name: str
    game: str  # the registry's name of the party's game
    title: str  # the game's, as printed (GameDefinition.title)
    gifts: bool  # the game has the party's gifts (Features.gifts): budget, labels, the deal
    budget: str
    jokes_welcome: bool
    vault_size: int
    join_url: str
    seated: bool
    gift_labels: tuple[str, ...]  # every guest gift, then every vault gift
    vault_labels: tuple[str, ...]
    tables: tuple[TableSheet, ...] = field(default_factory=tuple)

    @property
    def ring(self) -> tuple[str, ...]:
        return tuple(t.letter for t in self.tables)


def captain_pairing_url(table: Table, *, base_url: str) -> str:
    """Where a captain's tablet pairs with its table: the party's tablet page, which
    asks for the host's one-time pairing code (the code itself is never printed: it
    lasts ten minutes and opens one tablet). This returned None while no pairing flow
    existed, and nobody wired it up when tablets/pairing (events/party/tablets.py) came."""
    return base_url.rstrip("/") + reverse("tablet", args=[table.party.code])


def party_sheets(party: Party, *, base_url: str) -> PartySheets:
    """Everything the party's printables need. `base_url` (scheme and host, no
    trailing slash) makes the poster's join link absolute."""
    # The labels and the deal are the game's (games/definition.py HoldsGifts). A game
    # without gifts deals none: its guests' numbers are printed as they are.
    definition = game_named(party.game)
    gifts = gifts_of(definition) if definition.features.gifts else None
    label = gifts.gift_label if gifts is not None else str
    guests = list(party.guests.filter(removed_at__isnull=True).order_by("gift_number"))
    vault = list(party.vault_gifts.order_by("number")) if definition.features.vaults else []
    vault_labels = tuple(label(v.gift_id) for v in vault)
    tables = []
    for table in party.tables.order_by("letter"):
        start, _ = definition.setup(table_setup(table))  # the table as it was dealt
        dealt = [label(g) for g in gifts.seat_gifts(start)] if gifts is not None else [""] * len(table.roster)
        captain = next((g.name for g in guests if g.table_id == table.pk and g.is_captain), None)
        seats = tuple(
            SeatLine(seat + 1, r["name"], label(r["gift_number"]), dealt[seat]) for seat, r in enumerate(table.roster)
        )
        tables.append(
            TableSheet(
                letter=table.letter,
                seats=seats,
                captain=captain,
                vault=tuple(label(g) for g in gifts.vault_gifts(start)) if gifts is not None else (),
                pairing_url=captain_pairing_url(table, base_url=base_url),
            )
        )
    return PartySheets(
        code=party.code,
        name=party.name,
        game=party.game,
        title=definition.title,
        gifts=definition.features.gifts,
        budget=party.budget,
        jokes_welcome=party.jokes_welcome,
        vault_size=party.vault_size,
        join_url=base_url.rstrip("/") + reverse("join", args=[party.code]),
        seated=party.status != Party.Status.LOBBY,
        gift_labels=tuple(label(g.gift_number) for g in guests) + vault_labels,
        vault_labels=vault_labels,
        tables=tuple(tables),
    )
