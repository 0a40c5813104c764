"""A bot party over real sockets to a daphne subprocess (tests/faults/server.py).

The party is made through the services (tests/party/drive.py's PartyBots.create); every
move after that goes over a LivePhone: the bot (games.yankee.bots) chooses from the
stored game, and the phone of the seat that must act (the captain's for duties) sends
it. The replies and the database are the only oracles; `assert_phones_match_db` checks
every phone holds exactly the database's state in its own view.
"""

from __future__ import annotations

import asyncio
import json
import random

from asgiref.sync import sync_to_async

from events.broadcast import groups
from events.models import Guest
from events.party.commands import table_act
from events.party.roles import Actor, Role
from events.party.selectors import guest_actor
from games.yankee import Game, Phase, parse_action, public_view, seat_view
from games.yankee.actions import action_to_dict
from games.yankee.bots import bot_action
from games.yankee.definition import YANKEE
from tables.models import Table, TableAction
from tables.replay import table_setup
from tests.party.drive import PartyBots, captains, relay_walks, seat_map, table_game, tables_of

from .server import DaphneServer, LivePhone


def jsonish(value):
    return json.loads(json.dumps(value))


@sync_to_async
def table_row(table_id: int) -> Table:
    return Table.objects.get(pk=table_id)


@sync_to_async
def action_rows(table_id: int) -> list[TableAction]:
    return list(TableAction.objects.filter(table_id=table_id).order_by("version"))


@sync_to_async
def replayed(table_id: int) -> tuple[Game, Game]:
    """(the stored game, the game rebuilt from seed + setup + the action log)."""
    table = Table.objects.get(pk=table_id)
    rows = list(TableAction.objects.filter(table=table).order_by("version"))
    first = Game.from_dict(table.state).version - len(rows)
    assert [r.version for r in rows] == list(range(first + 1, first + 1 + len(rows))), "versions not contiguous"
    game = YANKEE.replay(table_setup(table), [parse_action(r.action) for r in rows])
    return Game.from_dict(table.state), game


async def assert_replays(table_id: int) -> Game:
    stored, rebuilt = await replayed(table_id)
    assert rebuilt.to_dict() == stored.to_dict(), "the stored table is not the replay of its action log"
    return stored


class LiveParty:
    def __init__(self, server: DaphneServer, bots: PartyBots, seed: int = 0):
        self.server = server
        self.party = bots.party
        self.host_token = bots.host_token
        self.tokens = bots.tokens
        self.rand = random.Random(seed)
        self.host: LivePhone | None = None
        self.phones: dict[int, LivePhone] = {}  # guest id -> phone
        self.acked: dict[int, set[int]] = {}  # table id -> versions acknowledged (not duplicate)
        self.duplicates = 0
        self._seats: dict[tuple[int, int], int] | None = None
        self._captains: dict[int, int] | None = None

    @classmethod
    async def create(cls, server: DaphneServer, n: int, *, vault_size: int = 0, seed: int = 0) -> LiveParty:
        bots = await PartyBots.create(n, vault_size=vault_size, seed=seed)
        return cls(server, bots, seed)

    def all(self) -> list[LivePhone]:
        return [p for p in [self.host, *self.phones.values()] if p is not None]

    async def connect(self, *, host_server: DaphneServer | None = None) -> None:
        """The host's socket (on `host_server` if given) and every guest's."""
        self.host = LivePhone(host_server or self.server, self.party.code, "host", self.host_token)
        snap = await self.host.open()
        assert snap["type"] == "snapshot" and snap["role"] == "host", snap
        for gid, token in self.tokens.items():
            phone = LivePhone(self.server, self.party.code, "guest", token)
            snap = await phone.open()
            assert snap["type"] == "snapshot" and snap["me"]["id"] == gid, snap
            self.phones[gid] = phone

    async def seat(self) -> list[Table]:
        ok = await self.host.command("seat")
        assert ok["type"] == "ok", ok
        tables = await tables_of(self.party.pk)
        for t in tables:
            self.acked[t.pk] = set()
        # every screen resubscribes and gets a snapshot with its table
        for gid, phone in self.phones.items():
            await wait_for(lambda p=phone: p.snapshot and p.snapshot.get("table"), f"guest {gid} seated")
        await wait_for(lambda: self.host.snapshot and len(self.host.snapshot["tables"]) == len(tables), "host tables")
        return tables

    async def close(self) -> None:
        await asyncio.gather(*(p.close() for p in self.all()), return_exceptions=True)

    async def reconnect_all(self) -> dict[int, dict]:
        """Every screen opens a new socket and says hello; guest snapshots by guest id."""
        snaps = await asyncio.gather(*(p.reconnect() for p in self.all()))
        return {gid: s for gid, s in zip(self.phones, snaps[1:], strict=False)}

    async def phone_for(self, table_id: int, wire: dict) -> LivePhone:
        if self._seats is None:  # seats and captains are fixed once seated (no hand-overs here)
            self._seats = await seat_map(self.party.pk)
            self._captains = await captains(self.party.pk)
        if "seat" in wire and wire["type"] != "timeout_pass":
            return self.phones[self._seats[(table_id, wire["seat"])]]
        return self.phones[self._captains[table_id]]

    async def step(self, table_id: int, *, surely: bool = False) -> str | None:
        """One bot action at the table through the right phone; its type, or None when
        the table waits for the host (the relay) or is over."""
        game = await table_game(table_id)
        action = bot_action(game, self.rand)
        if action is None:
            return None
        wire = action_to_dict(action)
        phone = await self.phone_for(table_id, wire)
        reply = await phone.act(wire, version=game.version, surely=surely)  # chosen on the stored game
        assert reply["type"] == "ok", (wire, reply)
        if reply.get("duplicate"):
            self.duplicates += 1
        else:
            assert reply["version"] not in self.acked[table_id], reply
        self.acked[table_id].add(reply["version"])
        return wire["type"]

    async def walk(self, *, surely: bool = False) -> None:
        """Every carrier delivers their relay gift and says so from their own phone."""
        seats = await seat_map(self.party.pk)
        for table_id, seat, to_table in await relay_walks(self.party.pk):
            reply = await self.phones[seats[(table_id, seat)]].command(
                "confirm_delivery", table=to_table, surely=surely
            )
            assert reply["type"] == "ok", reply

    async def play_until(
        self, table_id: int, phases: set[Phase], *, max_steps: int = 600, surely: bool = False
    ) -> Game:
        for _ in range(max_steps):
            game = await table_game(table_id)
            if game.phase in phases:
                return game
            if await self.step(table_id, surely=surely) is None:
                return await table_game(table_id)
        raise AssertionError(f"table {table_id} did not reach {phases}")

    async def assert_phones_match_db(self, timeout: float = 10) -> None:
        """Every phone's own view is the database's, at the database's version (waiting
        for broadcasts and resyncs in flight)."""
        tables = {t.pk: t for t in await tables_of(self.party.pk)}
        games = {pk: Game.from_dict(t.state) for pk, t in tables.items()}
        seats = await seat_map(self.party.pk)
        expected: list[tuple[LivePhone, tuple[str, int], dict, int]] = []
        for (tid, seat), gid in seats.items():
            expected.append((self.phones[gid], ("seat", tid), jsonish(seat_view(games[tid], seat)), games[tid].version))
        for tid, game in games.items():
            expected.append((self.host, ("public", tid), jsonish(public_view(game)), game.version))
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            wrong = [
                (key, (p.views.get(key) or {}).get("version"), version)
                for p, key, view, version in expected
                if (p.views.get(key) or {}).get("version") != version or p.views[key]["view"] != view
            ]
            if not wrong:
                return
            if loop.time() > end:
                raise AssertionError(f"{len(wrong)} phones disagree with the database: {wrong[:5]}")
            await asyncio.sleep(0.05)


async def drive_in_process(
    table_id: int, phases: set[Phase], *, seed: int = 0, max_steps: int = 600, until=None
) -> tuple[Game, int]:
    """Play a table fast, without sockets: bot actions through events.party.commands.table_act
    in this process (seat actions as that seat's guest, duties as the host), each
    outcome's messages published on the channel layer the server shares, so connected
    phones follow as if the actions came from other screens. Stops at `phases`, when
    `until(game)` holds, or when the bot has nothing to do. (game, actions taken)."""
    rand = random.Random(seed)
    taken = 0
    for _ in range(max_steps):
        game, outcome = await sync_to_async(_bot_step)(table_id, rand, phases, until)
        if outcome is None:
            return game, taken
        taken += 1
        await groups.send(outcome.messages)
    raise AssertionError(f"table {table_id} did not reach {phases}")


def _bot_step(table_id: int, rand: random.Random, phases: set[Phase], until=None):
    table = Table.objects.get(pk=table_id)
    game = Game.from_dict(table.state)
    if game.phase in phases or (until is not None and until(game)):
        return game, None
    action = bot_action(game, rand)
    if action is None:
        return game, None
    wire = action_to_dict(action)
    if "seat" in wire and wire["type"] != "timeout_pass":
        actor = guest_actor(Guest.objects.get(table_id=table_id, seat=wire["seat"]))
    else:
        actor = Actor(Role.HOST, table.party_id)
    return game, table_act(actor=actor, table_id=table_id, action=wire, expected_version=game.version)


async def wait_for(pred, what: str, timeout: float = 10) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


@sync_to_async
def guests_by_seat(table_id: int) -> dict[int, Guest]:
    return {g.seat: g for g in Guest.objects.filter(table_id=table_id)}
