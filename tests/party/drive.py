"""Drive a whole party with bot guests over real WebSockets: every action goes
through a guest's (or the captain's, or the host's) socket, chosen by the engine's bot
on the table's current state read from the database."""

from __future__ import annotations

import random

from asgiref.sync import sync_to_async

from events.models import Guest, Party
from games.yankee import Game, Phase
from games.yankee.actions import action_to_dict
from games.yankee.bots import bot_action
from relay.models import Relay
from tables.models import Table
from tests import shorthand
from tests.live.clients import Phone


@sync_to_async
def tables_of(party_id: int) -> list[Table]:
    return list(Table.objects.filter(party_id=party_id).order_by("letter"))


@sync_to_async
def table_game(table_id: int) -> Game:
    return Game.from_dict(Table.objects.get(pk=table_id).state)


@sync_to_async
def seat_map(party_id: int) -> dict[tuple[int, int], int]:
    return {(g.table_id, g.seat): g.pk for g in Guest.objects.filter(party_id=party_id, table__isnull=False)}


@sync_to_async
def captains(party_id: int) -> dict[int, int]:
    return {g.table_id: g.pk for g in Guest.objects.filter(party_id=party_id, is_captain=True)}


@sync_to_async
def relay_walks(party_id: int) -> list[tuple[int, int, int]]:
    """The relay's walks, once it has run: (carrier's table, carrier's seat, receiving
    table) for each gift still on its way (docs/RULES.md, the relay is a walk)."""
    result = Relay.objects.get(party_id=party_id).result
    by_letter = {e["table"]: e for e in result}
    return [
        (e["table_id"], e["seat"], by_letter[e["sent_to"]]["table_id"])
        for e in result
        if by_letter[e["sent_to"]]["arrived_by"] is None
    ]


@sync_to_async
def party_gift_ids(party_id: int) -> set[int]:
    party = Party.objects.get(pk=party_id)
    return {g.gift_number for g in party.guests.filter(removed_at__isnull=True)} | {
        v.gift_id for v in party.vault_gifts.all()
    }


async def assert_conserved(party_id: int, expected: set[int], vault_size: int) -> None:
    """Exactly one gift per guest, every vault the same size, nothing lost or doubled."""
    seen: list[int] = []
    for t in await tables_of(party_id):
        g = Game.from_dict(t.state)
        assert len(g.gifts) == len(t.roster)
        assert len(g.vault) == vault_size
        seen += g.gifts + g.vault
    assert len(seen) == len(set(seen)) and set(seen) == expected, (sorted(seen), sorted(expected))


class PartyBots:
    def __init__(self, party, host_token, tokens: dict[int, str], seed: int = 0):
        self.party = party
        self.host_token = host_token
        self.tokens = tokens  # guest id -> seat token
        self.rand = random.Random(seed)
        self.host: Phone | None = None
        self.phones: dict[int, Phone] = {}

    @classmethod
    async def create(cls, n: int, *, vault_size: int = 0, seed: int = 0) -> PartyBots:
        party, host_token = await sync_to_async(shorthand.party_create)(name=f"Party of {n}", vault_size=vault_size)
        tokens = {}
        for i in range(n):
            guest, token, _ = await sync_to_async(shorthand.guest_join)(
                code=party.code, name=f"Guest {i + 1}", description=f"secret gift #{i + 1}"
            )
            tokens[guest.pk] = token
        return cls(party, host_token, tokens, seed)

    async def connect(self) -> None:
        self.host = await Phone(self.party.code).connect()
        await self.host.hello("host", self.host_token)
        for gid, token in self.tokens.items():
            phone = await Phone(self.party.code).connect()
            await phone.hello("guest", token)
            self.phones[gid] = phone

    async def close(self) -> None:
        for p in [self.host, *self.phones.values()]:
            if p is not None:
                await p.close()

    async def step(self, table: Table) -> str | None:
        """One bot action at `table` through the right socket. Returns the action type,
        or None when the table waits for the host (gate) or is over."""
        game = await table_game(table.pk)
        action = bot_action(game, self.rand)
        if action is None:
            return None
        wire = action_to_dict(action)
        if "seat" in wire and wire["type"] != "timeout_pass":
            gid = (await seat_map(self.party.pk))[(table.pk, wire["seat"])]
            phone = self.phones[gid]
        else:  # a duty: the table's captain does it
            phone = self.phones[(await captains(self.party.pk))[table.pk]]
        reply = await phone.act(wire, version=game.version)  # chosen on the stored game
        assert reply["type"] == "ok", (wire, reply)
        return wire["type"]

    async def walk(self) -> None:
        """Every carrier delivers their relay gift and says so from their own phone."""
        seats = await seat_map(self.party.pk)
        for table_id, seat, to_table in await relay_walks(self.party.pk):
            reply = await self.phones[seats[(table_id, seat)]].command("confirm_delivery", table=to_table)
            assert reply["type"] == "ok", reply

    async def play_until(self, table: Table, phases: set[Phase], max_steps: int = 2000) -> None:
        for _ in range(max_steps):
            game = await table_game(table.pk)
            if game.phase in phases:
                return
            if await self.step(table) is None:
                return
        raise AssertionError("table did not get there")
