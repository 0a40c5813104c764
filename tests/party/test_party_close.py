"""A party is over when every table's game is, never when its first table finishes
(events/party/lobby.py `party_close_if_over`, run after a table's last action commits):
two Royal Heist tables, each played to its end through the party's table service."""

from __future__ import annotations

import random

import pytest

from events.models import Party
from events.party import services
from events.party.play import table_act
from games.royal import ROYAL
from tables.models import Table
from tables.services import ActRequest
from tests import shorthand

pytestmark = pytest.mark.django_db


def _play(table: Table, r: random.Random, *, gate: bool) -> None:
    """The table plays bot actions, each through `table_act` as a frame's would, until it
    stands at the gate (`gate`) or its game is over."""
    while True:
        table.refresh_from_db()
        game = ROYAL.from_dict(table.state)
        if ROYAL.is_over(game) or (gate and ROYAL.at_gate(game)):
            return
        action = ROYAL.bot_action(game, r)
        assert action is not None
        table_act(
            ActRequest(party_id=table.party_id, table_id=table.pk, action=action, actor_label="test", game="royal")
        )


def test_the_party_is_over_when_its_last_table_finishes_not_its_first():
    party, _ = shorthand.party_create(name="Two tables", game="royal", games=1)
    for i in range(11):
        shorthand.guest_join(code=party.code, name=f"T{i}", description="")
    services.party_seat(party_id=party.pk)
    first, last = Table.objects.filter(party=party).order_by("letter")
    r = random.Random(42)
    for table in (first, last):
        _play(table, r, gate=True)
    services.party_open_gate(party_id=party.pk)
    _play(first, r, gate=False)
    party.refresh_from_db()
    assert not ROYAL.is_over(ROYAL.from_dict(last.state))
    assert party.status == Party.Status.PLAYING and party.ended_at is None
    _play(last, r, gate=False)
    party.refresh_from_db()
    assert party.status == Party.Status.OVER and party.ended_at is not None
