"""Set up live tables in known states for the socket tests.

`seated(n)` makes a party of n guests seated at one table (through the services, so no
socket sees the set-up); `arrange` rewrites the table's stored game so the players hold
the cards a scenario needs, keeping every card id of the deck in exactly one place;
`connect` opens the host's and every seat's socket and says hello. Seats are named
relative to the player whose turn it is: `a` (active), then `b`, `c`, `d` clockwise.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from channels.db import database_sync_to_async

from events.models import Guest, Party
from events.party import services
from events.party.commands import table_act
from events.party.roles import Actor, Role
from events.party.selectors import guest_actor
from games.yankee import Card, Game, Phase, card_of, deck_for
from games.yankee.actions import ConfirmReveal, action_to_dict
from games.yankee.bots import bot_action
from tables.models import Table, TableAction
from tables.outcome import Outcome
from tests import shorthand
from tests.live.clients import Phone


@dataclass
class Seated:
    party_id: int
    code: str
    host_token: str
    table_id: int
    tokens: list[str]  # by seat
    guests: list[int]  # guest id by seat
    captain: int  # the captain's seat
    host: Phone | None = None
    phones: list[Phone] = field(default_factory=list)  # by seat

    def all(self) -> list[Phone]:
        return [p for p in [self.host, *self.phones] if p is not None]

    async def close(self):
        for p in self.all():
            await p.close()


def _seat_party(n: int, name: str, vault_size: int, seed: int) -> Seated:
    party, host_token = shorthand.party_create(name=name, vault_size=vault_size)
    Party.objects.filter(pk=party.pk).update(seed=seed)  # the same deal every run
    tokens_by_guest = {}
    for i in range(n):
        guest, token, _ = shorthand.guest_join(code=party.code, name=f"P{i}", description=f"gift of P{i}")
        tokens_by_guest[guest.pk] = token
    for i in range(vault_size):
        services.vault_gift_add(party_id=party.pk, contributor=f"V{i}", description=f"vault gift {i}")
    services.party_seat(party_id=party.pk)
    table = Table.objects.get(party=party)
    guests = sorted(Guest.objects.filter(party=party), key=lambda g: g.seat)
    return Seated(
        party_id=party.pk,
        code=party.code,
        host_token=host_token,
        table_id=table.pk,
        tokens=[tokens_by_guest[g.pk] for g in guests],
        guests=[g.pk for g in guests],
        captain=next(g.seat for g in guests if g.is_captain),
    )


async def seated(n: int = 4, *, name: str = "Live", vault_size: int = 0, seed: int = 1) -> Seated:
    return await database_sync_to_async(_seat_party)(n, name, vault_size, seed)


async def connect(s: Seated, *, app=None, patches: bool = False) -> Seated:
    """Open the host's socket and one per seat; every hello answered by a snapshot.
    `patches`: every socket takes table updates as patches, as live.js does."""
    s.host = await Phone(s.code, app=app).connect()
    snap = await s.host.hello("host", s.host_token, patches=patches)
    assert snap["type"] == "snapshot" and snap["role"] == "host", snap
    s.phones = []
    for seat, token in enumerate(s.tokens):
        p = await Phone(s.code, app=app).connect()
        snap = await p.hello("guest", token, patches=patches)
        assert snap["type"] == "snapshot" and snap["me"]["seat"] == seat, snap
        s.phones.append(p)
    return s


# --- the stored game ------------------------------------------------------------------


@database_sync_to_async
def game_of(table_id: int) -> Game:
    return Game.from_dict(Table.objects.get(pk=table_id).state)


@database_sync_to_async
def table_row(table_id: int) -> Table:
    return Table.objects.get(pk=table_id)


@database_sync_to_async
def action_count(table_id: int) -> int:
    return TableAction.objects.filter(table_id=table_id).count()


def cards_everywhere(g: Game) -> list[int]:
    return sorted([c for h in g.hands for c in h] + g.draw_pile + g.discards + g.aside)


def assert_cards_conserved(g: Game) -> None:
    assert cards_everywhere(g) == sorted(deck_for(g.players)), "a card is lost or in two places"


def gifts_of(g: Game) -> list[int]:
    return sorted(g.gifts + g.vault)


def ids(g: Game, seat: int, card: Card) -> list[int]:
    return [c for c in g.hands[seat] if card_of(c) is card]


def _arrange(table_id: int, hands: dict[int, list[Card]], draw: list[Card]) -> Game:
    """Give the seats in `hands` exactly those cards (others keep what they can of their
    own, topped up to the same count); `draw` are the next cards drawn, first first.
    The game must be in its ACTION phase (nothing set aside)."""
    table = Table.objects.select_for_update().get(pk=table_id)
    g = Game.from_dict(table.state)
    assert g.phase is Phase.ACTION and not g.aside, g.phase
    assert_cards_conserved(g)
    free = [*g.draw_pile[::-1], *g.discards]  # top of the pile first
    held = {s: list(h) for s, h in enumerate(g.hands)}
    pool = set(free) | {c for h in held.values() for c in h}

    def take(kind: Card) -> int:
        for c in sorted(pool):
            if card_of(c) is kind:
                pool.discard(c)
                return c
        raise AssertionError(f"no {kind.name} left to give")

    new_hands: dict[int, list[int]] = {s: [take(k) for k in kinds] for s, kinds in hands.items()}
    top = [take(k) for k in draw]
    for s in range(g.players):
        if s in new_hands:
            continue
        keep = [c for c in held[s] if c in pool]
        pool.difference_update(keep)
        new_hands[s] = keep
    for s in range(g.players):
        if s in hands:
            continue
        while len(new_hands[s]) < len(held[s]):
            # top up with harmless cards: no reactions, so nobody blocks by accident
            c = next(c for c in sorted(pool) if card_of(c) in (Card.INSIDE_MAN, Card.SNATCH, Card.PICKPOCKET))
            pool.discard(c)
            new_hands[s].append(c)
    rest = [c for c in free if c in pool] + sorted(pool - set(free))
    g.hands = [tuple(new_hands[s]) for s in range(g.players)]
    g.draw_pile = [*rest[::-1], *top[::-1]]  # the end of the list is the top
    g.discards = []
    assert_cards_conserved(g)
    table.state = g.to_dict()
    table.save(update_fields=["state"])
    return g


async def arrange(table_id: int, hands: dict[int, list[Card]], draw: list[Card] = ()) -> Game:
    from django.db import transaction

    def run():
        with transaction.atomic():
            return _arrange(table_id, hands, list(draw))

    return await database_sync_to_async(run)()


# --- driving a table with bots (no sockets: for reaching a phase quickly) -------------


def seated_table(n: int = 4, name: str = "Table") -> Table:
    """A party of n guests seated at one table (no sockets, no fixed deal): its table."""
    party, _ = shorthand.party_create(name=name)
    for i in range(n):
        shorthand.guest_join(code=party.code, name=f"G{i}", description=f"gift {i}")
    services.party_seat(party_id=party.pk)
    return Table.objects.get(party=party)


def bot_move(table_id: int, r: random.Random) -> tuple[Game, Actor, dict]:
    """The bot's next action at the table, chosen on the stored game: that game, who
    sends it (the seat's guest; the reveal, the host) and its wire action without the
    seat (the server fills in the sender's)."""
    table = Table.objects.get(pk=table_id)
    g = Game.from_dict(table.state)
    action = bot_action(g, r)
    assert action is not None, g.phase
    wire = action_to_dict(action)
    seat = wire.pop("seat", None)
    if isinstance(action, ConfirmReveal) or seat is None:
        actor = Actor(Role.HOST, table.party_id)
    else:
        actor = guest_actor(Guest.objects.get(table=table, seat=seat))
    return g, actor, wire


def bot_step(table_id: int, r: random.Random) -> Outcome:
    """One bot action at the table through the table service, committed in this
    (database) thread, as the seat's guest (the reveal as the host): its outcome."""
    g, actor, wire = bot_move(table_id, r)
    return table_act(actor=actor, table_id=table_id, action=wire, expected_version=g.version)


def _drive(table_id: int, stop, seed: int, max_steps: int) -> Game:
    r = random.Random(seed)
    for _ in range(max_steps):
        g = Game.from_dict(Table.objects.get(pk=table_id).state)
        if stop(g):
            return g
        bot_step(table_id, r)
    raise AssertionError("the table did not get there")


async def drive(table_id: int, stop, *, seed: int = 0, max_steps: int = 500) -> Game:
    """Play bot actions through the table service (no sockets) until `stop(game)`."""
    return await database_sync_to_async(_drive)(table_id, stop, seed, max_steps)


# --- party rows ------------------------------------------------------------------------


@database_sync_to_async
def party_row(party_id: int) -> Party:
    return Party.objects.get(pk=party_id)


@database_sync_to_async
def guest_row(guest_id: int) -> Guest:
    return Guest.objects.get(pk=guest_id)


# --- playing over the sockets ----------------------------------------------------------


def hand_ids(view: dict) -> list[int]:
    return [c["id"] for c in view["hand"]]


def assert_private(msg: dict, seat: int | None) -> None:
    """A "table" message for `seat` (None: a public screen) shows no other seat's hand,
    drawn cards, peeks or answers."""
    view = msg["view"]
    if seat is None:
        assert "hand" not in view and "you" not in view and "asked" not in view, view
    else:
        assert view["you"] == seat
    for e in msg["events"]:
        if e["type"] in ("dealt", "peeked", "reaction_unused"):
            assert seat is not None and e["seat"] == seat, (seat, e)
        if e["type"] == "drew":
            assert ("cards" in e) == (seat is not None and e["seat"] == seat), (seat, e)
        if e["type"] == "pickpocketed":
            assert ("card" in e) == (seat in (e["seat"], e["target"])), (seat, e)


async def assert_in_sync(s: Seated, version: int) -> Game:
    """Every socket has the table at `version`, and it is the database's: each seat's
    view holds exactly that seat's stored hand, the host's view holds no hand."""
    g = await game_of(s.table_id)
    assert g.version == version, (g.version, version)
    host = await s.host.at_version(version)
    assert host["version"] == version and host["view"]["version"] == version
    assert_private(host, None)
    assert [x["gift"] for x in host["view"]["seats"]] == g.gifts
    for seat, p in enumerate(s.phones):
        mine = await p.at_version(version)
        assert mine["version"] == version, (seat, mine["version"], version)
        assert_private(mine, seat)
        assert hand_ids(mine["view"]) == list(g.hands[seat]), (seat, hand_ids(mine["view"]), g.hands[seat])
        assert mine["view"]["asked"] == (g.phase is Phase.REACTION and seat in g.pending.window.waiting()), (
            seat,
            mine["view"],
        )
        if seat == s.captain:  # the captain's phone also shows the table's public view
            public = await p.at_public_version(version)
            assert public["version"] == version
            assert_private(public, None)
    return g


async def socket_step(s: Seated, r: random.Random, g: Game | None = None) -> dict | None:
    """One bot action, chosen on the stored game (or `g`, just read from it), sent
    through the socket of the seat that must act (a reveal through the host's).
    Returns the accepted wire action, or None when the game is over."""
    g = g or await game_of(s.table_id)
    action = bot_action(g, r)
    if action is None:
        return None
    wire = action_to_dict(action)
    if isinstance(action, ConfirmReveal):
        reply = await s.host.act(wire, table=s.table_id)
    else:
        phone = s.phones[wire.pop("seat")]  # the server fills in the sender's seat
        turn = wire["type"] in ("play", "swipe", "regroup", "vault")
        reply = await phone.act(wire, version=phone.table["version"] if turn else None)
    assert reply["type"] == "ok", (wire, reply)
    assert reply["version"] == g.version + 1 and reply["duplicate"] is False, reply
    return wire


async def play_over_sockets(s: Seated, r: random.Random, stop=lambda g: False, max_steps: int = 400) -> Game:
    """Bot actions through the sockets until `stop(game)` or the game is over, checking
    after every action that every socket is in step with the database and that the
    gifts are conserved."""
    g = await game_of(s.table_id)
    gifts = gifts_of(g)
    for _ in range(max_steps):
        if g.phase is Phase.OVER or stop(g):
            return g
        assert await socket_step(s, r, g) is not None
        g = await assert_in_sync(s, g.version + 1)
        assert gifts_of(g) == gifts
        assert_cards_conserved(g)
    raise AssertionError("the game did not end")
