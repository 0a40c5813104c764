"""A party of any game played to its end on the server, without sockets: every table's
bot (the game's definition, `bot_action`) acts as the server would, the host opens the
gate when there are several tables, and the host ends the party."""

from __future__ import annotations

import random

from django.core.cache import cache
from django.db import transaction

from events.models import Party
from events.party import services
from events.party.lobby import locked_party
from events.party.play import table_act_server
from games.registry import game_named
from tables.models import Table


def act_as_server(table: Table, action) -> None:
    with transaction.atomic():
        locked_party(table.party_id)  # table_act_server's caller holds the party's lock
        table_act_server(table=table, engine_action=action, actor_label="test")


def play_until(party: Party, r: random.Random, *, gate: bool) -> None:
    """Every table plays its bot's actions until it stands at the gate (`gate`) or is over."""
    definition = game_named(party.game)
    for table in Table.objects.filter(party=party).order_by("letter"):
        while True:
            table.refresh_from_db()
            game = definition.from_dict(table.state)
            if definition.is_over(game) or (gate and definition.at_gate(game)):
                break
            action = definition.bot_action(game, r)
            assert action is not None
            act_as_server(table, action)


def play_to_the_end(party: Party, r: random.Random) -> None:
    """Every table to the gate, the gate opened (several tables), every table to its end;
    the host ends the party. The cache is cleared: each test replays its own party."""
    play_until(party, r, gate=True)
    if Table.objects.filter(party=party).count() > 1:
        services.party_open_gate(party_id=party.pk)
    play_until(party, r, gate=False)
    services.party_end(party_id=party.pk)
    party.refresh_from_db()
    assert party.status == Party.Status.OVER
    cache.clear()
