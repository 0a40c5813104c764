"""Replayed and concurrent frames, over real sockets to two daphne processes sharing
PostgreSQL and Redis (production runs two behind nginx; within one process every ORM
call runs on one thread, so two processes are what makes frames really race).

The table's row lock must serialise them: each frame gets one reply, exactly the frames
legal at their turn apply, one version each, and the state is the replay of the log."""

from __future__ import annotations

import asyncio
import itertools
import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from events.models import Guest, Party
from events.party import services
from events.party.selectors import party_for_host
from games.yankee import Game, Phase, deck_for, seat_view
from relay.services import relay_open, relay_run
from tables.models import Table
from tests.party.drive import PartyBots, party_gift_ids, table_game, tables_of
from tests.story.record import relay_walk

from .party import LiveParty, action_rows, assert_replays, drive_in_process
from .server import LivePhone

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack, pytest.mark.slow]

RULE_ERRORS = {"stale", "forbidden", "too_early", "reused_id"}


def assert_invariants(game: Game, gift_ids: set[int]) -> None:
    assert len(game.gifts) == game.players and len(set(game.gifts)) == game.players, "one gift per player"
    assert set(game.gifts) | set(game.vault) == gift_ids and not set(game.gifts) & set(game.vault)
    cards = sorted([c for h in game.hands for c in h] + game.draw_pile + game.discards + game.aside)
    assert cards == sorted(deck_for(game.players)), "cards conserved"


async def _party_on_two_servers(server, second, n: int, seed: int):
    lp = await LiveParty.create(server, n, seed=seed)
    await lp.connect()
    (table,) = await lp.seat()
    # every other phone moves to the second process
    moved = list(lp.phones.items())[1::2]
    for gid, phone in moved:
        await phone.close()
        fresh = LivePhone(second, lp.party.code, "guest", lp.tokens[gid])
        assert (await fresh.open())["type"] == "snapshot"
        lp.phones[gid] = fresh
    return lp, table, second


async def test_a_frame_delivered_twice_applies_once(server, second_server):
    lp, table, second = await _party_on_two_servers(server, second_server, 4, seed=41)
    try:
        game = await table_game(table.pk)
        assert game.phase is Phase.ACTION
        seat_of = {g.pk: g.seat for g in await sync_to_async(list)(Guest.objects.filter(table=table))}
        active = next(gid for gid, s in seat_of.items() if s == game.active)
        rows = len(await action_rows(table.pk))
        phone = lp.phones[active]
        first = await phone.act({"type": "regroup", "cards": []}, version=game.version, re="same-id-1")
        again = await phone.act({"type": "regroup", "cards": []}, version=game.version, re="same-id-1")
        assert first["type"] == "ok" and first["duplicate"] is False, first
        assert again == {**first, "duplicate": True}, again
        assert len(await action_rows(table.pk)) == rows + 1
        # The same frame on two sockets of the same guest, one per process, at once (a
        # phone that reconnected elsewhere and resent): one applies, the other is its echo.
        game = await table_game(table.pk)
        nxt = next(gid for gid, s in seat_of.items() if s == game.active)
        token = lp.tokens[nxt]
        a = LivePhone(server, lp.party.code, "guest", token)
        b = LivePhone(second, lp.party.code, "guest", token)
        await a.open()
        await b.open()
        wire = {"type": "regroup", "cards": []}
        v = game.version
        replies = await asyncio.gather(
            a.act(wire, version=v, re="twin"), b.act(wire, version=v, re="twin"), a.act(wire, version=v, re="twin-2")
        )
        by_re = [(r["type"], r.get("duplicate"), r.get("version"), r.get("code")) for r in replies]
        twins = sorted(by_re[:2], key=lambda t: bool(t[1]))
        assert twins[0][:2] == ("ok", False) and twins[1][:2] == ("ok", True) and twins[0][2] == twins[1][2], by_re
        # twin-2 is a new frame from the same seat, after "twin" on its socket: the turn
        # has passed (or the seat owes a trim), so it is refused, as sent from a screen
        # that had not seen that yet (stale) or by the rules
        assert by_re[2][0] == "ok" or by_re[2][3] in ("stale", "illegal.turn", "illegal.phase"), by_re
        logged = await action_rows(table.pk)
        assert [r.client_id for r in logged].count("twin") == 1
        await a.close()
        await b.close()
        await assert_replays(table.pk)
    finally:
        await lp.close()


async def test_fifty_frames_at_once_apply_one_at_a_time(server, second_server):
    lp, table, second = await _party_on_two_servers(server, second_server, 4, seed=43)
    extra: list[LivePhone] = []
    try:
        gift_ids = await party_gift_ids(lp.party.pk)
        v0 = (await sync_to_async(Table.objects.get)(pk=table.pk)).version
        rows0 = len(await action_rows(table.pk))
        game0 = await table_game(table.pk)
        guests = {g.seat: g for g in await sync_to_async(list)(Guest.objects.filter(table=table))}
        captain = next(g for g in guests.values() if g.is_captain)
        # a second socket per seat, on the other process, for resent frames
        for seat, g in guests.items():
            phone = lp.phones[g.pk]
            other = second if phone.server is server else server
            twin = LivePhone(other, lp.party.code, "guest", lp.tokens[g.pk])
            await twin.open()
            extra.append(twin)
        twins = {g.pk: extra[i] for i, g in enumerate(guests.values())}
        ids = itertools.count()
        frames: list[tuple[LivePhone, dict]] = []
        for seat, g in guests.items():
            phone = lp.phones[g.pk]
            for _ in range(4):  # passes: legal whenever it is this seat's turn
                frames.append(
                    (phone, {"type": "act", "re": f"p{next(ids)}", "action": {"type": "regroup", "cards": []}})
                )
            for _ in range(2):  # answers: legal if a window waits for this seat
                frames.append(
                    (phone, {"type": "act", "re": f"r{next(ids)}", "action": {"type": "react", "card": None}})
                )
            frames.append(
                (
                    phone,
                    {
                        "type": "act",
                        "re": f"f{next(ids)}",
                        "action": {"type": "regroup", "cards": [], "seat": (seat + 1) % 4},
                    },
                )
            )
            frames.append((phone, {"type": "act", "re": f"x{next(ids)}", "action": {"type": "trim", "cards": []}}))
            # the same pass, resent on the twin socket with the same id
            re = f"d{next(ids)}"
            frames.append((phone, {"type": "act", "re": re, "action": {"type": "regroup", "cards": []}}))
            frames.append((twins[g.pk], {"type": "act", "re": re, "action": {"type": "regroup", "cards": []}}))
        active_phone = lp.phones[guests[game0.active].pk]
        for _ in range(6):  # the active seat's turn, all claiming version v0: one at most
            frames.append(
                (
                    active_phone,
                    {"type": "act", "re": f"v{next(ids)}", "version": v0, "action": {"type": "regroup", "cards": []}},
                )
            )
        for _ in range(3):
            frames.append(
                (
                    lp.host,
                    {"type": "act", "re": f"h{next(ids)}", "table": table.pk, "action": {"type": "confirm_reveal"}},
                )
            )
        frames.append(
            (
                lp.phones[captain.pk],
                {"type": "act", "re": f"t{next(ids)}", "action": {"type": "timeout_pass", "seat": 1}},
            )
        )
        assert len(frames) == 50, len(frames)
        # Every screen shows v0 and sends it with its act, as a phone does (docs/PROTOCOL.md).
        frames = [(phone, {"version": v0, **frame}) for phone, frame in frames]

        replies = await asyncio.gather(*(phone.request(frame) for phone, frame in frames))
        assert len(replies) == 50 and all(r["re"] == f["re"] for r, (_, f) in zip(replies, frames, strict=False))

        rows = await action_rows(table.pk)
        new = rows[rows0:]
        applied = [
            (f, r) for (_, f), r in zip(frames, replies, strict=False) if r["type"] == "ok" and not r["duplicate"]
        ]
        echoes = [(f, r) for (_, f), r in zip(frames, replies, strict=False) if r["type"] == "ok" and r["duplicate"]]
        errors = [(f, r) for (_, f), r in zip(frames, replies, strict=False) if r["type"] == "error"]
        assert len(applied) + len(echoes) + len(errors) == 50
        # one version per applied frame, contiguous, each logged with its own id
        assert (
            sorted(r["version"] for _, r in applied)
            == [row.version for row in new]
            == list(range(v0 + 1, v0 + 1 + len(new)))
        )
        assert {row.client_id for row in new} == {f["re"] for f, _ in applied}
        assert len(applied) >= 1
        # an echo is a resent id whose original applied: same version
        by_re = {f["re"]: r for f, r in applied}
        for f, r in echoes:
            assert f["re"] in by_re and by_re[f["re"]]["version"] == r["version"], (f, r)
        # every loser was told why, in the protocol's words
        for f, r in errors:
            assert r["code"] in RULE_ERRORS or r["code"].startswith("illegal."), r
            assert isinstance(r["message"], str) and r["message"]
        codes = sorted({r["code"] for _, r in errors})
        forged = [r for (_, f), r in zip(frames, replies, strict=False) if f["re"].startswith("f")]
        assert len(forged) == 4 and all(r["code"] == "forbidden" for r in forged), forged
        stale = [r for f, r in zip(frames, replies, strict=False) if f[1]["re"].startswith("v")]
        assert sum(1 for r in stale if r["type"] == "ok") <= 1
        game = await assert_replays(table.pk)
        assert_invariants(game, gift_ids)
        await lp.assert_phones_match_db()
        print(f"\n50 frames: {len(applied)} applied, {len(echoes)} echoes, {len(errors)} refused ({codes})")
    finally:
        for p in extra:
            await p.close()
        await lp.close()


async def _sockets_closed(guest_id: int, timeout: float = 5) -> None:
    """Until the server has counted the guest's sockets closed (its presence row)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while (await sync_to_async(Guest.objects.get)(pk=guest_id)).sockets:
        assert loop.time() < end, f"guest {guest_id}: a socket still counted after {timeout} s"
        await asyncio.sleep(0.02)


async def test_a_phone_away_for_ten_minutes_resyncs_in_one_snapshot(server):
    """No socket while 200+ actions happen (rounds 1-2 at three tables, the relay,
    rounds 3-4): on hello it gets one snapshot, the current state, nothing to replay."""
    bots = await PartyBots.create(30, seed=51)
    await sync_to_async(services.party_seat)(party_id=bots.party.pk)
    tables = await tables_of(bots.party.pk)
    away_gid = next(iter(bots.tokens))
    guest = await sync_to_async(Guest.objects.get)(pk=away_gid)
    phone = LivePhone(server, bots.party.code, "guest", bots.tokens[away_gid])
    snap = await phone.open()
    seen = snap["table"]["version"]
    await phone.close()
    await _sockets_closed(away_gid)  # the server noticed the socket closed
    # gone for ten minutes, as far as its presence marks go
    await sync_to_async(Guest.objects.filter(pk=away_gid).update)(last_seen=timezone.now() - timedelta(minutes=10))

    total = 0
    for i, t in enumerate(tables):
        total += (await drive_in_process(t.pk, {Phase.GATE}, seed=i))[1]
    await sync_to_async(relay_open)(party_id=bots.party.pk)
    for i, t in enumerate(tables):
        total += (await drive_in_process(t.pk, set(), seed=10 + i))[1]  # the captain's draw
    await sync_to_async(relay_run)(party_id=bots.party.pk)
    await sync_to_async(relay_walk)(bots.party)
    for i, t in enumerate(tables):
        own = t.pk == guest.table_id  # its own table stops in round 4, mid-game
        total += (
            await drive_in_process(t.pk, {Phase.OVER}, seed=20 + i, until=(lambda g: g.round == 4) if own else None)
        )[1]
    assert total >= 200, total
    table = await sync_to_async(Table.objects.get)(pk=guest.table_id)
    assert table.version - seen >= 50 and table.state["round"] == 4, (seen, table.version)
    party = await sync_to_async(Party.objects.get)(pk=bots.party.pk)
    roster = await sync_to_async(party_for_host)(party)
    assert next(g for g in roster["guests"] if g["id"] == away_gid)["online"] is False

    phone = LivePhone(server, bots.party.code, "guest", bots.tokens[away_gid])
    try:
        snap = await phone.open()
        # Nothing else happens in the party now, so anything more for this socket would
        # come of its hello: sent by the hello's request, or queued behind it. A resync
        # is answered in the same queue, after both: its snapshot is the next message.
        probe = await phone.request({"type": "resync", "re": "probe"})
        got = [(m["type"], m.get("re")) for m in phone.inbox]
        assert got == [("snapshot", snap["re"]), ("snapshot", "probe")], got
        assert probe["table"]["version"] == table.version  # nothing moved meanwhile
        game = Game.from_dict(table.state)
        assert snap["table"]["version"] == table.version
        assert snap["table"]["view"] == json.loads(json.dumps(seat_view(game, guest.seat)))
        assert snap["party"]["relay"]["status"] == "done" and len(snap["party"]["relay"]["result"]) == 3
        assert snap["me"]["seat"] == guest.seat and snap["me"]["gift_number"] == guest.gift_number
        roster = await sync_to_async(party_for_host)(party)
        assert next(g for g in roster["guests"] if g["id"] == away_gid)["online"] is True
        print(f"\naway: {total} actions while away, {table.version - seen} at its own table; back with 1 snapshot")
    finally:
        await phone.close()
