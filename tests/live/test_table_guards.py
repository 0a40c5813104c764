"""What the table socket refuses, and how: out of turn, forged seats and secrets, duties
by the wrong screen, resent frames, stale versions. A refusal changes nothing and is
broadcast to nobody; the sender gets one error reply echoing its `re`."""

import pytest
from channels.db import database_sync_to_async

from games.yankee import Card, Phase
from tables.models import TableAction
from tests import shorthand
from tests.live.clients import Phone, sent_until_now
from tests.live.tables import (
    action_count,
    arrange,
    assert_in_sync,
    connect,
    drive,
    game_of,
    ids,
    seated,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]

C = Card


async def assert_nothing_changed(s, version: int, logged: int) -> None:
    """The table is still at `version` with `logged` actions, and no socket was sent a
    table update."""
    assert (await game_of(s.table_id)).version == version
    assert await action_count(s.table_id) == logged
    for got in await sent_until_now(s.all(), s.table_id):
        assert not [m for m in got if m["type"] == "table"]


async def test_out_of_turn_is_refused_and_changes_nothing():
    s = await connect(await seated(4, seed=31))
    try:
        g = await game_of(s.table_id)
        v, logged = g.version, await action_count(s.table_id)
        other = (g.active + 1) % 4
        err = await s.phones[other].act({"type": "regroup", "cards": []}, version=v, re="out-of-turn")
        assert err["type"] == "error" and err["re"] == "out-of-turn" and err["code"] == "illegal.turn", err
        # an answer when no window is open, a trim nobody owes
        err = await s.phones[other].act({"type": "react", "card": None})
        assert err["code"] == "illegal.phase", err
        err = await s.phones[g.active].act({"type": "trim", "cards": []})
        assert err["code"] == "illegal.phase", err
        card = g.hands[other][0]
        err = await s.phones[g.active].act({"type": "play", "card": card, "targets": [other]}, version=v)
        assert err["code"] == "illegal.hand", err  # someone else's card
        await assert_nothing_changed(s, v, logged)
        # the player whose turn it is still can
        assert (await s.phones[g.active].act({"type": "regroup", "cards": []}, version=v))["version"] == v + 1
        await assert_in_sync(s, v + 1)
    finally:
        await s.close()


async def test_secrets_forged_seats_and_duties():
    s = await seated(4, seed=41)
    other = await seated(3, seed=42, name="Another party")
    await drive(s.table_id, lambda g: g.phase is Phase.REVEAL)  # round 1 played by bots
    await connect(s)
    try:
        # A seat token (and the host token) of another party opens nothing here.
        for role, token in [("guest", other.tokens[0]), ("host", other.host_token), ("guest", "x" * 43)]:
            p = await Phone(s.code).connect()
            err = await p.hello(role, token)
            assert err["type"] == "error" and err["code"] == "bad_secret", err
            assert await p.closed() == 4403
            await p.close()
        p = await Phone(s.code).connect()
        err = await p.act({"type": "regroup", "cards": []})
        assert err["type"] == "error" and err["code"] == "hello_first", err
        await p.close()

        g = await game_of(s.table_id)
        assert g.phase is Phase.REVEAL
        v, logged = g.version, await action_count(s.table_id)
        guest = next(seat for seat in range(4) if seat != s.captain)
        # A guest may not act for another seat, whatever the frame says.
        err = await s.phones[guest].act({"type": "react", "seat": (guest + 1) % 4, "card": None})
        assert err["type"] == "error" and err["code"] == "forbidden", err
        err = await s.phones[guest].act({"type": "regroup", "seat": (guest + 1) % 4, "cards": []}, version=v)
        assert err["code"] == "forbidden", err
        # nor name another table (the host's act must name its table)
        err = await s.phones[guest].act({"type": "regroup", "cards": []}, table=other.table_id, version=v)
        assert err["code"] == "forbidden", err
        # nor do a duty: confirming the reveal is the host's or the captain's
        err = await s.phones[guest].act({"type": "confirm_reveal"})
        assert err["code"] == "forbidden", err
        # nor may anyone send what only the server does
        err = await s.host.act({"type": "relay_exchange", "gift": {"id": 99, "description": "x"}}, table=s.table_id)
        assert err["code"] == "forbidden", err
        # the host cannot reach another party's table
        err = await s.host.act({"type": "confirm_reveal"}, table=other.table_id)
        assert err["code"] == "no_table", err
        await assert_nothing_changed(s, v, logged)

        ok = await s.host.act({"type": "confirm_reveal"}, table=s.table_id)
        assert ok["type"] == "ok" and ok["version"] == v + 1, ok
        g = await assert_in_sync(s, v + 1)
        assert g.phase is Phase.ACTION and g.round == 2
        assert all(p.table["view"]["seats"][x]["open"] for p in s.all() for x in range(4))
        row = await database_sync_to_async(TableAction.objects.get)(table_id=s.table_id, version=v + 1)
        assert row.actor == "host"
    finally:
        await s.close()

    # At another table, the captain confirms from their phone (their own table only).
    await drive(other.table_id, lambda g: g.phase is Phase.REVEAL, seed=1)
    await connect(other)
    try:
        v = (await game_of(other.table_id)).version
        captain = other.phones[other.captain]
        ok = await captain.act({"type": "confirm_reveal"})
        assert ok["type"] == "ok" and ok["version"] == v + 1, ok
        await assert_in_sync(other, v + 1)
        row = await database_sync_to_async(TableAction.objects.get)(table_id=other.table_id, version=v + 1)
        assert row.actor == f"captain:{other.guests[other.captain]}"
    finally:
        await other.close()


async def test_the_same_frame_twice_applies_once():
    s = await seated(4, seed=51)
    g0 = await game_of(s.table_id)
    a = g0.active
    g0 = await arrange(s.table_id, {a: [C.INSIDE_MAN, C.SNATCH]})
    await connect(s)
    try:
        v = g0.version
        frame = {
            "type": "act",
            "re": "dup-1",
            "version": v,
            "action": {"type": "play", "card": ids(g0, a, C.INSIDE_MAN)[0], "targets": []},
        }
        phone = s.phones[a]
        await phone.send(frame)
        first = await phone.reply("dup-1")
        assert first == {"type": "ok", "re": "dup-1", "version": v + 1, "duplicate": False}
        await assert_in_sync(s, v + 1)
        logged = await action_count(s.table_id)
        # the phone lost the reply and resends the very same frame (now stale, too)
        await phone.send(frame)
        second = await phone.reply("dup-1")
        assert second == {"type": "ok", "re": "dup-1", "version": v + 1, "duplicate": True}
        await assert_nothing_changed(s, v + 1, logged)
        g = await game_of(s.table_id)
        assert len(g.hands[a]) == len(g0.hands[a]) - 1 + 2  # drew 2 once, not 4
        # Another player reusing that id is not told its action was done.
        assert g.phase is Phase.ACTION and g.active != a  # 3 cards: no trim, the turn passed
        err = await s.phones[g.active].act({"type": "regroup", "cards": []}, version=v + 1, re="dup-1")
        assert err["type"] == "error" and err["code"] == "reused_id", err
        await assert_nothing_changed(s, v + 1, logged)
        ok = await s.phones[g.active].act({"type": "regroup", "cards": []}, version=v + 1, re="dup-2")
        assert ok == {"type": "ok", "re": "dup-2", "version": v + 2, "duplicate": False}
        await assert_in_sync(s, v + 2)
    finally:
        await s.close()


async def test_stale_turn_action_refused_with_a_fresh_snapshot():
    s = await connect(await seated(4, seed=61))
    try:
        g = await game_of(s.table_id)
        v, logged = g.version, await action_count(s.table_id)
        phone = s.phones[g.active]
        # A turn is checked against the version its screen showed: a frame without one
        # is refused (it could never be found stale), and nothing changes.
        bare = await phone.act({"type": "regroup", "cards": []}, version=None, re="bare-1")
        assert bare["type"] == "error" and bare["code"] == "malformed" and bare["re"] == "bare-1", bare
        assert "version" in bare["message"]
        await assert_nothing_changed(s, v, logged)
        err = await phone.act({"type": "regroup", "cards": []}, version=v - 1, re="stale-1")
        assert err["type"] == "error" and err["code"] == "stale" and err["re"] == "stale-1", err
        snap = await phone.until(lambda m: m["type"] == "snapshot")
        assert "re" not in snap and snap["table"]["version"] == v
        assert [c["id"] for c in snap["table"]["view"]["hand"]] == list(g.hands[g.active])
        await assert_nothing_changed(s, v, logged)
        # from the version the snapshot showed, it goes through
        ok = await phone.act({"type": "regroup", "cards": []}, version=snap["table"]["version"])
        assert ok["type"] == "ok" and ok["version"] == v + 1
        await assert_in_sync(s, v + 1)
    finally:
        await s.close()


async def test_screens_open_before_seating_follow_the_table():
    """The host's dashboard and a spectator screen opened in the lobby receive the
    table's updates once the host seats everyone (they re-subscribe)."""

    party, host_token = await database_sync_to_async(shorthand.party_create)(name="Early screens")
    tokens = []
    for i in range(3):
        _, token, _ = await database_sync_to_async(shorthand.guest_join)(code=party.code, name=f"G{i}", description="d")
        tokens.append(token)
    host = await Phone(party.code).connect()
    await host.hello("host", host_token)
    screen = await Phone(party.code).connect()
    await screen.hello("spectator")
    phones = [await Phone(party.code).connect() for _ in tokens]
    try:
        for p, t in zip(phones, tokens, strict=False):
            await p.hello("guest", t)
        assert (await host.command("seat"))["type"] == "ok"
        for p in [host, screen, *phones]:
            await p.until(lambda m: m["type"] == "snapshot" and (m.get("table") or m.get("tables")))
        active = phones[0].snapshot["table"]["view"]["active"]
        phone = next(p for p in phones if p.snapshot["me"]["seat"] == active)
        v = phone.table["version"]
        assert (await phone.act({"type": "regroup", "cards": []}, version=v))["version"] == v + 1
        for p in [host, screen, *phones]:
            assert (await p.at_version(v + 1))["version"] == v + 1
    finally:
        for p in [host, screen, *phones]:
            await p.close()


async def test_what_was_sent_until_now_holds_an_update_published_after_its_reply():
    """The absences above are read with `sent_until_now` (tests/live/clients.py): what it
    returns holds what the server had sent, an accepted action's update included (it is
    published after the action's reply), and nothing of its own barriers."""
    s = await seated(4, seed=51)
    g0 = await game_of(s.table_id)
    a = g0.active
    g0 = await arrange(s.table_id, {a: [C.INSIDE_MAN, C.SNATCH]})
    await connect(s)
    try:
        v = g0.version
        play = {"type": "play", "card": ids(g0, a, C.INSIDE_MAN)[0], "targets": []}
        assert (await s.phones[a].act(play, version=v))["type"] == "ok"
        for got in await sent_until_now(s.all(), s.table_id):
            # (a captain's socket gets its own view and the table's public view)
            assert {m["version"] for m in got if m["type"] == "table"} == {v + 1}
    finally:
        await s.close()
