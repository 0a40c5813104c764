"""Record a whole party through the real services (the same calls the sockets make),
with bot guests choosing random legal actions: the action log it leaves is what the
story and the printables read."""

from __future__ import annotations

import random
from collections.abc import Iterator

from events.models import Guest, Party
from events.party import services
from events.party.commands import dispatch, table_act
from events.party.roles import Actor, Role
from events.party.selectors import guest_actor
from games.yankee import Game, Gift, Phase, apply, new_game, parse_action
from games.yankee.actions import Action, action_to_dict
from games.yankee.bots import bot_action
from relay.models import Relay
from relay.services import relay_open, relay_run
from tables.models import Table, TableAction
from tests import shorthand


def party_lobby(
    guests: int, *, vault_size: int = 0, vault_gifts: int = 0, name: str = "Story night"
) -> tuple[Party, str, dict[int, str]]:
    """A party in its lobby, its host secret and each guest's seat secret by guest id."""
    party, host_token = shorthand.party_create(name=name, budget="$20", vault_size=vault_size)
    tokens = {}
    for i in range(guests):
        guest, token, _ = shorthand.guest_join(
            code=party.code, name=f"Guest {i + 1}", description=f"secret gift #{i + 1}"
        )
        tokens[guest.pk] = token
    for i in range(vault_gifts):
        services.vault_gift_add(party_id=party.pk, contributor=f"Friend {i + 1}", description=f"vault secret #{i + 1}")
    return party, host_token, tokens


def party_record(guests: int, *, vault_size: int = 0, seed: int = 1, name: str = "Story night") -> Party:
    """A party of `guests` played to the end (relay included with 11+ guests)."""
    return party_record_with_tokens(guests, vault_size=vault_size, seed=seed, name=name)[0]


def party_record_with_tokens(
    guests: int, *, vault_size: int = 0, seed: int = 1, name: str = "Story night"
) -> tuple[Party, str, dict[int, str]]:
    tables_needed = -(-guests // 10)
    party, host_token, tokens = party_lobby(
        guests, vault_size=vault_size, vault_gifts=vault_size * tables_needed, name=name
    )
    # The party's seed (random at creation) decides the seating, the deals and the relay:
    # fixed here so a recording is the same game every run, as the bots' choices are.
    Party.objects.filter(pk=party.pk).update(seed=seed)
    services.party_seat(party_id=party.pk)
    party_play(party, seed=seed)
    party.refresh_from_db()
    return party, host_token, tokens


def party_play(party: Party, *, seed: int = 1, until: Phase | None = None, letters: set[str] | None = None) -> None:
    """Bots play the party to the end, or until every table is at phase `until`.
    `letters`: only these tables play (the others wait where they are)."""
    rand = random.Random(seed)
    host = Actor(Role.HOST, party.pk)
    for _ in range(20_000):
        tables = list(Table.objects.filter(party=party).order_by("letter"))
        if letters is not None:
            tables = [t for t in tables if t.letter in letters]
        games = {t.pk: Game.from_dict(t.state) for t in tables}
        if until is not None and all(g.phase is until for g in games.values()):
            return
        if all(g.phase is Phase.OVER for g in games.values()):
            return
        moved = False
        for t in tables:
            game = games[t.pk]
            if game.phase is Phase.GATE and game.relay_seat is None and not _relay_opened(party):
                continue
            action = bot_action(game, rand)
            if action is None:
                continue
            wire = action_to_dict(action)
            if "seat" in wire and wire["type"] != "timeout_pass":
                actor = guest_actor(Guest.objects.get(table=t, seat=wire["seat"]))
            else:
                captain = Guest.objects.filter(table=t, is_captain=True).first()
                actor = guest_actor(captain) if captain else host
            table_act(actor=actor, table_id=t.pk, action=wire, expected_version=game.version)
            moved = True
        if not moved:
            games = {t.pk: Game.from_dict(t.state) for t in Table.objects.filter(party=party)}
            if until is Phase.GATE and letters is not None:
                games = {t.pk: games[t.pk] for t in tables}
            if all(g.phase is Phase.GATE for g in games.values()):
                if until is Phase.GATE:
                    return
                if not _relay_opened(party):
                    relay_open(party_id=party.pk)
                elif Relay.objects.get(party=party).status == Relay.Status.OPEN:
                    if all(g.relay_seat is not None for g in games.values()):
                        relay_run(party_id=party.pk)
                else:
                    relay_walk(party)
                continue
            raise AssertionError(f"party stuck: {[g.phase for g in games.values()]}")
    raise AssertionError("party did not finish")


def _relay_opened(party: Party) -> bool:
    return Relay.objects.filter(party=party).exists()


def carrier_of(party: Party, letter: str) -> Guest:
    """The guest carrying table `letter`'s relay gift (the relay has run)."""
    entry = next(e for e in Relay.objects.get(party=party).result if e["table"] == letter)
    return Guest.objects.get(table_id=entry["table_id"], seat=entry["seat"])


def relay_walk(party: Party) -> None:
    """Every carrier confirms, from their own phone, the delivery of their gift (the
    relay has run): every table then plays round 3."""
    relay = Relay.objects.get(party=party)
    by_letter = {e["table"]: e for e in relay.result}
    for entry in relay.result:
        to = by_letter[entry["sent_to"]]
        if to["arrived_by"] is None:
            actor = guest_actor(carrier_of(party, entry["table"]))
            dispatch(actor, {"type": "party", "command": "confirm_delivery", "table": to["table_id"]})


def table_start(table: Table) -> Game:
    """A table's first state, made again from its setup alone (not read from the story)."""
    s = table.setup
    game, _ = new_game(
        seed=table.seed,
        gifts=[Gift(g["id"], g["description"], g["brought_by"]) for g in s["gifts"]],
        vault=[Gift(v["id"], v["description"]) for v in s["vault"]],
        gate=s["gate"],
    )
    return game


def table_steps(table: Table) -> Iterator[tuple[Action, Game, Game]]:
    """A table's action log replayed straight through the engine from `table_start`:
    (the action, the game before it, the game after it) per logged action."""
    game = table_start(table)
    for row in TableAction.objects.filter(table=table).order_by("version"):
        action = parse_action(row.action)
        before = game
        game, _ = apply(game, action)
        yield action, before, game
