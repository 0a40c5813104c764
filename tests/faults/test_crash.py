"""The server process dies (SIGKILL: no shutdown, no cleanup) at the worst moments —
an open reaction window, the relay — and comes back on the same port. Everything a
party needs is in PostgreSQL: every phone reconnects, gets the state it had, and the
party plays to its end; the final state is the replay of the recorded actions."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async

from events.models import Party
from events.party import services
from games.yankee import Phase
from relay.models import Relay
from tables.models import TableAction
from tests.party.drive import assert_conserved, party_gift_ids, relay_walks, seat_map, table_game

from .party import LiveParty, assert_replays, drive_in_process, table_row

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack, pytest.mark.slow]


async def _all_closed(lp: LiveParty) -> None:
    await asyncio.wait_for(asyncio.gather(*(p.closed.wait() for p in lp.all())), 10)
    assert all(p.close_code != 1000 for p in lp.all())  # a crash, not a goodbye


async def test_kill9_in_a_reaction_window_every_phone_resumes_and_the_game_finishes(server):
    lp = await LiveParty.create(server, 4, seed=11)
    await lp.connect()
    try:
        (table,) = await lp.seat()
        game = await lp.play_until(table.pk, {Phase.REACTION})
        assert game.phase is Phase.REACTION
        waiting = set(game.pending.window.waiting())
        assert waiting, "a reaction window waits for somebody"
        await lp.assert_phones_match_db()
        before = await table_row(table.pk)
        count = await sync_to_async(TableAction.objects.filter(table_id=table.pk).count)()

        server.kill9()
        await _all_closed(lp)
        server.start()

        snaps = await lp.reconnect_all()
        seat_of = {gid: seat for (_, seat), gid in (await seat_map(lp.party.pk)).items()}
        for gid, snap in snaps.items():
            seat = seat_of[gid]
            view = snap["table"]["view"]
            assert snap["table"]["version"] == before.version, (seat, snap["table"]["version"], before.version)
            assert view["phase"] == "reaction"
            assert view["asked"] is (seat in waiting), (seat, waiting)
        host_table = lp.host.snapshot["tables"][0]
        assert host_table["version"] == before.version and host_table["view"]["phase"] == "reaction"
        # the window's 60-second clock survived the crash (it is in the row, not the process)
        assert host_table["table"]["window_opened_at"] == before.window_opened_at.timestamp()
        after = await table_row(table.pk)
        assert after.state == before.state and after.version == before.version
        assert await sync_to_async(TableAction.objects.filter(table_id=table.pk).count)() == count
        await lp.assert_phones_match_db()

        # the asked seats answer over their new sockets, and the game plays out
        final = await lp.play_until(table.pk, {Phase.OVER})
        assert final.phase is Phase.OVER
        await lp.assert_phones_match_db()
        stored = await assert_replays(table.pk)
        assert stored.version == final.version
        party = await sync_to_async(Party.objects.get)(pk=lp.party.pk)
        assert party.status == Party.Status.OVER
    finally:
        await lp.close()


async def test_kill9_right_after_run_relay_the_relay_runs_exactly_once(server):
    lp = await LiveParty.create(server, 11, vault_size=1, seed=5)
    for i in range(2):
        await sync_to_async(services.vault_gift_add)(
            party_id=lp.party.pk, contributor=f"Friend {i}", description=f"vault {i}"
        )
    await lp.connect()
    try:
        tables = await lp.seat()
        assert len(tables) == 2
        expected = await party_gift_ids(lp.party.pk)
        # rounds 1-2 in this process (the phones follow on the channel layer); the
        # fault is the point here
        for i, t in enumerate(tables):
            game, _ = await drive_in_process(t.pk, {Phase.GATE}, seed=i)
            assert game.phase is Phase.GATE
        await lp.assert_phones_match_db()
        assert (await lp.host.command("open_relay"))["type"] == "ok"
        for t in tables:
            assert await lp.step(t.pk) == "draw_relay_seat"
        before = {t.letter: await table_game(t.pk) for t in tables}
        drawn = {letter: g.relay_seat for letter, g in before.items()}
        rows_before = {t.pk: await sync_to_async(TableAction.objects.filter(table_id=t.pk).count)() for t in tables}

        # run_relay, and the server dies right after the frame leaves (no reply awaited):
        # it either committed or it did not.
        await lp.host.ws.send(json.dumps({"type": "party", "command": "run_relay", "re": "run-1"}))
        server.kill9()
        await _all_closed(lp)
        relay = await sync_to_async(Relay.objects.get)(party_id=lp.party.pk)
        committed_before_restart = relay.status == Relay.Status.WALK
        server.start()
        await lp.reconnect_all()

        again = await lp.host.command("run_relay")
        assert again["type"] == "ok", again
        twice = await lp.host.command("run_relay")
        assert twice["type"] == "ok", twice  # idempotent: changes nothing

        relay = await sync_to_async(Relay.objects.get)(party_id=lp.party.pk)
        assert relay.status == Relay.Status.WALK and len(relay.result) == 2

        # The walk: table A's carrier says "I delivered it", and the server dies right
        # after the frame leaves. Back up, she taps again: one arrival, whatever happened.
        (a_table, a_seat, to_b), _ = await relay_walks(lp.party.pk)
        carrier = lp.phones[(await seat_map(lp.party.pk))[(a_table, a_seat)]]
        frame = {"type": "party", "command": "confirm_delivery", "table": to_b, "re": "walk-1"}
        await carrier.ws.send(json.dumps(frame))
        server.kill9()
        await _all_closed(lp)
        relay = await sync_to_async(Relay.objects.get)(party_id=lp.party.pk)
        delivered_before_restart = relay.result[1]["arrived_by"] is not None
        server.start()
        await lp.reconnect_all()
        again = await carrier.command("confirm_delivery", table=to_b)
        assert again["type"] == "ok" and again["duplicate"] is delivered_before_restart, again
        twice = await carrier.command("confirm_delivery", table=to_b)
        assert twice["type"] == "ok" and twice["duplicate"] is True, twice
        assert [(await table_game(t.pk)).phase for t in tables] == [Phase.GATE, Phase.GATE]  # B's carrier walks
        await lp.walk()  # B's carrier delivers: both tables play round 3
        relay = await sync_to_async(Relay.objects.get)(party_id=lp.party.pk)
        assert relay.status == Relay.Status.DONE
        after = {t.letter: await table_game(t.pk) for t in tables}
        ring = ["A", "B"]
        for i, letter in enumerate(ring):
            prev = ring[i - 1]
            seat = drawn[letter]
            assert after[letter].gifts[seat] == before[prev].gifts[drawn[prev]]
            for s in range(len(before[letter].gifts)):
                if s != seat:
                    assert after[letter].gifts[s] == before[letter].gifts[s]
            assert after[letter].relayed and after[letter].round == 3
        await assert_conserved(lp.party.pk, expected, 1)
        for t in tables:
            rows = await sync_to_async(list)(TableAction.objects.filter(table_id=t.pk, actor="relay"))
            assert len(rows) == 1, f"table {t.letter} has {len(rows)} relay rows"
            assert rows[0].action["type"] == "relay_exchange"
            assert await sync_to_async(TableAction.objects.filter(table_id=t.pk).count)() == rows_before[t.pk] + 1

        # rounds 3-4: table A over the restarted server's sockets, B in this process
        await lp.play_until(tables[0].pk, {Phase.OVER})
        await drive_in_process(tables[1].pk, {Phase.OVER}, seed=7)
        await assert_conserved(lp.party.pk, expected, 1)
        for t in tables:
            await assert_replays(t.pk)
        party = await sync_to_async(Party.objects.get)(pk=lp.party.pk)
        assert party.status == Party.Status.OVER
        await lp.assert_phones_match_db()
        print(f"relay committed before the crash: {committed_before_restart}; delivery: {delivered_before_restart}")
    finally:
        await lp.close()
