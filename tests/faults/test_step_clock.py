"""The server's own pass for a quiet guest is a durable timer: its deadline is in the
table row, so a server that was down when it ran out plays the step once it is back,
and two daphnes sweeping the same database play it exactly once (events/party/clocks.py)."""

from __future__ import annotations

import asyncio
import urllib.request
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from events.party import services
from games.yankee import Game
from tables.models import Table, TableAction
from tests import shorthand

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


@sync_to_async
def _seated() -> Table:
    party, _, _ = shorthand.party_seated(name="Restart", guests=4)
    services.party_set_clock(party_id=party.pk, step_clock=60, step_clock_server=True)
    return Table.objects.get(party=party)


@sync_to_async
def _ran_out_while_down(table_id: int) -> None:
    Table.objects.filter(pk=table_id).update(step_due_at=timezone.now() - timedelta(seconds=5))


@sync_to_async
def _clock_rows(table_id: int) -> list[tuple[int, str, dict]]:
    return list(
        TableAction.objects.filter(table_id=table_id, actor="clock").values_list("version", "client_id", "action")
    )


@sync_to_async
def _row(table_id: int) -> Table:
    return Table.objects.get(pk=table_id)


def _poke(origin: str) -> None:
    """Any request reaches the process (the screens reconnecting after a restart)."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(f"{origin}/healthz", timeout=10) as r:
        r.read()


async def _until_played(table_id: int, timeout: float = 15) -> list:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not (rows := await _clock_rows(table_id)):
        assert loop.time() < end, "the server never played the quiet guest's step"
        await asyncio.sleep(0.1)
    return rows


async def test_a_restarted_server_plays_a_step_that_ran_out_while_it_was_down_once(server, second_server):
    table = await _seated()
    before = Game.from_dict(table.state)
    server.kill9()
    second_server.kill9()
    await _ran_out_while_down(table.pk)
    assert await _clock_rows(table.pk) == []
    # Both come back (production runs two daphnes on one database): both sweep.
    restarted = timezone.now()
    server.start()
    second_server.start()
    await asyncio.gather(asyncio.to_thread(_poke, server.origin), asyncio.to_thread(_poke, second_server.origin))
    rows = await _until_played(table.pk)
    assert rows == [(before.version + 1, f"clock:{before.version}", {"type": "timeout_pass", "seat": before.active})]
    after = await _row(table.pk)
    game = Game.from_dict(after.state)
    assert after.version == before.version + 1 and game.active == (before.active + 1) % 4
    # The next guest's step has a fresh clock, all 60 s of it from when the step was played
    # (after the restart): nothing else is due, so nothing else fires. Measured from the
    # restart, not from this line, so a loaded machine's slow restart cannot eat into it.
    assert after.step_due_at >= restarted + timedelta(seconds=60), (after.step_due_at, restarted)


async def test_two_daphnes_sweeping_play_each_due_step_exactly_once(server, second_server):
    table = await _seated()
    await asyncio.gather(asyncio.to_thread(_poke, server.origin), asyncio.to_thread(_poke, second_server.origin))
    for k in range(1, 4):
        v = (await _row(table.pk)).version
        await _ran_out_while_down(table.pk)  # the step ran out: both processes' next sweeps find it
        loop = asyncio.get_running_loop()
        end = loop.time() + 15
        while (await _row(table.pk)).version == v:
            assert loop.time() < end, "not played"
            await asyncio.sleep(0.05)
        rows = await _clock_rows(table.pk)
        assert len(rows) == k and rows[-1][:2] == (v + 1, f"clock:{v}"), rows
