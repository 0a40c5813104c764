"""Lock order between a table action and a party-wide transaction.

Party-wide writes (the relay run, a seat claim) lock the party row, then tables. A
table action once locked its table and then, arriving at the gate or the end, bumped
the party row: the opposite order. When both met, PostgreSQL aborted one with
"deadlock detected" and that socket's consumer crashed. Now a table action never locks
or writes the party row (the party's end is settled after the table commits), so the
two can only wait for each other in one order."""

import random
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.db import connection

import relay.services as relay_services
from events.models import Guest, Party
from events.party import services
from events.party.commands import table_act
from events.party.roles import Actor, Role
from events.party.selectors import guest_actor
from games.yankee import Game, Phase
from games.yankee.actions import ConfirmReveal, action_to_dict
from games.yankee.bots import bot_action
from tables.models import Table
from tables.outcome import Outcome
from tests import shorthand
from tests.story.record import relay_walk

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


def _two_tables_at_the_gate() -> tuple[int, list[int]]:
    party, _ = shorthand.party_create(name="Two tables")
    Party.objects.filter(pk=party.pk).update(seed=5)
    for i in range(11):
        shorthand.guest_join(code=party.code, name=f"G{i}", description=f"gift {i}")
    services.party_seat(party_id=party.pk)
    host = Actor(Role.HOST, party.pk)
    r = random.Random(5)
    tables = list(Table.objects.filter(party=party).order_by("pk").values_list("pk", flat=True))
    for tid in tables:
        by_seat = {g.seat: g for g in Guest.objects.filter(table_id=tid)}
        while True:
            g = Game.from_dict(Table.objects.get(pk=tid).state)
            if g.phase is Phase.GATE:
                break
            action = bot_action(g, r)
            actor = host if isinstance(action, ConfirmReveal) else guest_actor(by_seat[action.seat])
            table_act(actor=actor, table_id=tid, action=action_to_dict(action), expected_version=g.version)
    relay_services.relay_open(party_id=party.pk)
    return party.pk, tables


async def test_a_captains_draw_meeting_the_relay_run_waits_instead_of_deadlocking(monkeypatch):
    party_id, (table_a, table_b) = await database_sync_to_async(_two_tables_at_the_gate)()
    host = Actor(Role.HOST, party_id)
    await database_sync_to_async(table_act)(actor=host, table_id=table_a, action={"type": "draw_relay_seat"})

    # The run takes the party lock, then (a moment later) the tables' locks; the draw at
    # table B starts in that moment: it holds table B and wants the party row.
    locked_party = threading.Event()
    real_tables_locked = relay_services._tables_locked

    def slow_tables_locked(party):
        locked_party.set()
        time.sleep(0.4)
        return real_tables_locked(party)

    monkeypatch.setattr(relay_services, "_tables_locked", slow_tables_locked)
    results = {}

    def run():
        try:
            results["run"] = relay_services.relay_run(party_id=party_id)
        except Exception as exc:
            results["run"] = exc
        finally:
            connection.close()  # this thread's own connection

    def draw():
        locked_party.wait(5)
        time.sleep(0.1)
        try:
            results["draw"] = table_act(actor=host, table_id=table_b, action={"type": "draw_relay_seat"})
        except Exception as exc:
            results["draw"] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run), threading.Thread(target=draw)]
    for t in threads:
        t.start()
    for t in threads:
        await sync_to_async(t.join, thread_sensitive=False)(20)

    # No deadlock: the draw never waits for the party row, so it committed while the run
    # held the party lock; the run then locked the tables, found both drawn and ran.
    assert not isinstance(results["draw"], Exception), results
    assert isinstance(results["run"], Outcome), results
    await database_sync_to_async(lambda: relay_walk(Party.objects.get(pk=party_id)))()
    g = Game.from_dict((await database_sync_to_async(Table.objects.get)(pk=table_b)).state)
    assert g.relayed and g.round == 3


async def test_a_table_arriving_at_the_gate_does_not_wait_for_the_party_lock():
    """The action that brings a table to the gate tells everyone, reading the party,
    but neither it nor any other table action waits for a transaction holding the
    party row (which would put the lock order back into question)."""
    from tests.live.tables import drive

    def two_tables():
        party, _ = shorthand.party_create(name="Gate")
        for i in range(11):  # two tables: a gate after round 2
            shorthand.guest_join(code=party.code, name=f"G{i}", description=f"gift {i}")
        services.party_seat(party_id=party.pk)
        return party.pk, Table.objects.filter(party=party).order_by("pk").first().pk

    party_id, table_id = await database_sync_to_async(two_tables)()
    held, release = threading.Event(), threading.Event()

    def hold_party_lock():
        from django.db import transaction

        with transaction.atomic():
            list(Party.objects.select_for_update().filter(pk=party_id))
            held.set()
            release.wait(60)
        connection.close()

    holder = threading.Thread(target=hold_party_lock)
    holder.start()
    await sync_to_async(held.wait, thread_sensitive=False)(10)
    started = time.monotonic()
    game = await drive(table_id, lambda g: g.phase is Phase.GATE)
    elapsed = time.monotonic() - started
    release.set()
    await sync_to_async(holder.join, thread_sensitive=False)(10)
    assert game.phase is Phase.GATE and game.round == 2
    # Had any action needed the party lock, it would have waited the full minute.
    assert elapsed < 45, f"the table waited {elapsed:.1f} s for the party lock"
