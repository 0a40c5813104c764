"""Opening and running the relay move the party's revision, as every other party-level
change does: a screen that missed the broadcast (the layer is at-most-once) sees the
revision ahead in its next pong and resyncs. Before, a captain's phone that missed "the
relay is open" never offered the draw until some other party change."""

import random

import pytest

import relay.services as relay_services
from events.models import Party
from events.party import services
from games.yankee import Phase
from tables.models import Table
from tests import shorthand
from tests.live.tables import _drive, bot_step
from tests.story.record import relay_walk

pytestmark = pytest.mark.django_db


def test_opening_and_running_the_relay_each_move_the_party_revision():
    party, _ = shorthand.party_create(name="Relay revision")
    for i in range(11):
        shorthand.guest_join(code=party.code, name=f"G{i}", description=f"gift {i}")
    services.party_seat(party_id=party.pk)
    tables = list(Table.objects.filter(party=party).order_by("pk").values_list("pk", flat=True))
    for seed, tid in enumerate(tables):
        _drive(tid, lambda g: g.phase is Phase.GATE, seed, 600)

    def revision() -> int:
        return Party.objects.get(pk=party.pk).revision

    before = revision()
    outcome = relay_services.relay_open(party_id=party.pk)
    opened = revision()
    assert opened == before + 1
    broadcast = [m for _, m in outcome.messages if m.get("type") == "party"]
    assert broadcast and all(m["party"]["revision"] == opened for m in broadcast)
    assert relay_services.relay_open(party_id=party.pk).messages == [] and revision() == opened  # idempotent

    r = random.Random(0)
    for tid in tables:
        bot_step(tid, r)  # each captain draws the relay seat
    relay_services.relay_run(party_id=party.pk)
    ran = revision()
    assert ran > opened
    assert relay_services.relay_run(party_id=party.pk).messages == [] and revision() == ran  # once only
    relay_walk(Party.objects.get(pk=party.pk))  # each carrier confirms their delivery
    assert revision() == ran + 2  # each delivery is a party change too
