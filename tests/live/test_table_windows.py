"""Reaction windows over real sockets: a block and a pass, two answers at the same
instant, a phone reloading while it is asked, and the host's 60-second pass."""

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.yankee import Card, Phase
from tables.models import Table, TableAction
from tests.live.clients import Phone, sent_until_now
from tests.live.tables import (
    action_count,
    arrange,
    assert_in_sync,
    connect,
    game_of,
    guest_row,
    hand_ids,
    ids,
    seated,
    table_row,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]

C = Card


def clockwise(g):
    """(a, b, c, d): the active seat and the next three clockwise."""
    a = g.active
    return tuple((a + k) % g.players for k in range(g.players))


def events_of(msg, kind):
    return [e for e in msg["events"] if e["type"] == kind]


async def test_yankee_heist_first_swap_blocked_by_tripwire_second_passed():
    """The rulebook's example: Alex pays YANKEE HEIST's extra card; Bea blocks the first
    swap with TRIPWIRE (gifts stay, Bea draws 2); Cam passes, so Alex swaps with Cam;
    Cam draws 1 comeback card, Alex none, Bea none."""
    s = await seated(4, seed=3)
    g0 = await game_of(s.table_id)
    a, b, c, d = clockwise(g0)
    g0 = await arrange(
        s.table_id,
        {a: [C.YANKEE_HEIST, C.SNATCH, C.INSIDE_MAN], b: [C.TRIPWIRE, C.CASE_THE_JOINT], c: [C.PICKPOCKET]},
        draw=[C.INSIDE_MAN, C.SNATCH, C.NOT_SO_FAST, C.SWITCHEROO],
    )
    heist, pay = ids(g0, a, C.YANKEE_HEIST)[0], ids(g0, a, C.SNATCH)[0]
    tripwire = ids(g0, b, C.TRIPWIRE)[0]
    top = g0.draw_pile[::-1][:4]  # the next four cards drawn
    await connect(s)
    try:
        v = g0.version
        ok = await s.phones[a].act({"type": "play", "card": heist, "targets": [b, c], "extra": pay}, version=v)
        assert ok == {"type": "ok", "re": ok["re"], "version": v + 1, "duplicate": False}
        g = await assert_in_sync(s, v + 1)
        assert g.phase is Phase.REACTION and list(g.pending.window.affected) == [b]
        assert s.phones[b].table["view"]["asked"] and not s.phones[c].table["view"]["asked"]
        assert s.phones[b].table["table"]["window_opened_at"] is not None

        # Bea blocks the first swap with TRIPWIRE.
        ok = await s.phones[b].act({"type": "react", "card": tripwire})
        assert ok["type"] == "ok" and ok["version"] == v + 2
        g = await assert_in_sync(s, v + 2)
        assert g.gifts == g0.gifts  # nothing moved
        assert hand_ids(s.phones[b].table["view"]) == [ids(g0, b, C.CASE_THE_JOINT)[0], top[0], top[1]]
        (blocked,) = events_of(s.host.table, "blocked")
        assert blocked["seat"] == b and blocked["card"] == tripwire
        (drew,) = events_of(s.phones[b].table, "drew")
        assert drew["reason"] == "tripwire" and drew["cards"] == top[:2]
        assert "cards" not in events_of(s.phones[c].table, "drew")[0]  # others see only the count
        # The second swap gets its own window: Cam is asked now.
        assert g.phase is Phase.REACTION and list(g.pending.window.affected) == [c]
        assert s.phones[c].table["view"]["asked"] and not s.phones[b].table["view"]["asked"]

        # Cam passes: Alex and Cam swap; Cam draws one comeback card; the turn passes on.
        ok = await s.phones[c].act({"type": "react", "card": None})
        assert ok["type"] == "ok" and ok["version"] == v + 3
        g = await assert_in_sync(s, v + 3)
        assert g.gifts[a] == g0.gifts[c] and g.gifts[c] == g0.gifts[a]
        assert g.gifts[b] == g0.gifts[b] and g.gifts[d] == g0.gifts[d]
        draws = [(e["seat"], e["reason"]) for e in events_of(s.host.table, "drew")]
        assert draws == [(c, "comeback"), (b, "turn")]  # no comeback for Alex or Bea
        assert hand_ids(s.phones[a].table["view"]) == ids(g0, a, C.INSIDE_MAN)
        assert hand_ids(s.phones[c].table["view"]) == [ids(g0, c, C.PICKPOCKET)[0], top[2]]
        assert g.phase is Phase.ACTION and g.active == b
        assert sorted(g.discards) == sorted([heist, pay, tripwire])
        assert (await table_row(s.table_id)).window_opened_at is None
    finally:
        await s.close()


async def test_two_affected_players_answer_at_the_same_instant():
    """SWITCHEROO threatens two players; both phones pass at once. Both answers count
    (each gets ok with its own version) and the swap happens once."""
    s = await seated(4, seed=5)
    g0 = await game_of(s.table_id)
    a, b, c, _d = clockwise(g0)
    g0 = await arrange(s.table_id, {a: [C.SWITCHEROO, C.INSIDE_MAN], b: [C.NOT_SO_FAST], c: [C.TRIPWIRE]})
    card = ids(g0, a, C.SWITCHEROO)[0]
    await connect(s)
    try:
        v = g0.version
        assert (await s.phones[a].act({"type": "play", "card": card, "targets": [c, b]}, version=v))["type"] == "ok"
        await assert_in_sync(s, v + 1)
        assert s.phones[b].table["view"]["asked"] and s.phones[c].table["view"]["asked"]

        # Answers are not version-checked (only turn actions are): c's phone even sends
        # the version it saw before the card was played, and still counts.
        rb, rc = await asyncio.gather(
            s.phones[b].act({"type": "react", "card": None}),
            s.phones[c].act({"type": "react", "card": None}, version=v),
        )
        assert rb["type"] == rc["type"] == "ok", (rb, rc)
        assert {rb["version"], rc["version"]} == {v + 2, v + 3}
        assert not rb["duplicate"] and not rc["duplicate"]
        g = await game_of(s.table_id)
        assert g.version == v + 3
        assert g.gifts[b] == g0.gifts[c] and g.gifts[c] == g0.gifts[b] and g.gifts[a] == g0.gifts[a]
        # both keep their reactions; both draw a comeback card, b first (clockwise)
        assert ids(g, b, C.NOT_SO_FAST) == ids(g0, b, C.NOT_SO_FAST)
        assert ids(g, c, C.TRIPWIRE) == ids(g0, c, C.TRIPWIRE)
        assert len(g.hands[b]) == 2 + (g.active == b) and len(g.hands[c]) == 2
        log = await database_sync_to_async(
            lambda: list(TableAction.objects.filter(table_id=s.table_id).order_by("version"))
        )()
        assert sorted(x.actor for x in log[-2:]) == sorted([f"seat:{b}", f"seat:{c}"])
        # Every socket gets both updates; each version once (two actions accepted at
        # once may be published in either order, which a client puts right by version).
        for p in s.all():
            await p.at_version(v + 3)
            assert sorted(p.versions) == [v + 1, v + 2, v + 3], p.versions
        await assert_in_sync(s, v + 3)
    finally:
        await s.close()


async def test_both_block_at_once_the_clockwise_first_blocks():
    """Both threatened players block at the same instant: whatever order the answers
    arrive in, the first affected player clockwise blocks, the other keeps the card."""
    s = await seated(4, seed=6)
    g0 = await game_of(s.table_id)
    a, b, c, _d = clockwise(g0)
    g0 = await arrange(s.table_id, {a: [C.SWITCHEROO], b: [C.NOT_SO_FAST], c: [C.NOT_SO_FAST]})
    card, nb, nc = ids(g0, a, C.SWITCHEROO)[0], ids(g0, b, C.NOT_SO_FAST)[0], ids(g0, c, C.NOT_SO_FAST)[0]
    await connect(s)
    try:
        v = g0.version
        assert (await s.phones[a].act({"type": "play", "card": card, "targets": [b, c]}, version=v))["type"] == "ok"
        await assert_in_sync(s, v + 1)
        rb, rc = await asyncio.gather(
            s.phones[b].act({"type": "react", "card": nb}), s.phones[c].act({"type": "react", "card": nc})
        )
        assert rb["type"] == "ok", rb
        # c's answer counts if it arrived first (then it is unused); if b's came first the
        # window was already settled and c's is refused. Either way c keeps its card.
        assert rc["type"] == "ok" or rc["code"] == "illegal.phase", rc
        g = await game_of(s.table_id)
        assert g.gifts == g0.gifts
        assert nb in g.discards and nc in g.hands[c]
        await assert_in_sync(s, g.version)
    finally:
        await s.close()


async def test_reload_while_asked_then_answer_and_play_on():
    s = await seated(4, seed=7)
    g0 = await game_of(s.table_id)
    a, b, _c, _d = clockwise(g0)
    g0 = await arrange(s.table_id, {a: [C.SNATCH, C.INSIDE_MAN], b: [C.NOT_SO_FAST, C.INSIDE_MAN]})
    await connect(s)
    try:
        v = g0.version
        snatch = ids(g0, a, C.SNATCH)[0]
        assert (await s.phones[a].act({"type": "play", "card": snatch, "targets": [b]}, version=v))["type"] == "ok"
        await assert_in_sync(s, v + 1)
        assert s.phones[b].table["view"]["asked"]

        # b's phone drops (reload) while asked; the server counts the socket gone.
        await s.phones[b].close()
        assert (await guest_row(s.guests[b])).sockets == 0
        phone = await Phone(s.code).connect()
        snap = await phone.hello("guest", s.tokens[b])
        assert (await guest_row(s.guests[b])).sockets == 1
        assert snap["type"] == "snapshot" and snap["me"]["seat"] == b
        view = snap["table"]["view"]
        assert snap["table"]["version"] == v + 1 and view["asked"] is True and view["answer"] is None
        assert view["window"]["affected"] == [b] and view["window"]["active"] == a
        assert hand_ids(view) == list(g0.hands[b])
        assert snap["table"]["table"]["window_opened_at"] is not None
        s.phones[b] = phone

        ok = await phone.act({"type": "react", "card": None})
        assert ok["type"] == "ok" and ok["version"] == v + 2
        g = await assert_in_sync(s, v + 2)
        assert g.gifts[a] == g0.gifts[b] and g.gifts[b] == g0.gifts[a]
        # The game goes on: it is b's turn, played from the new socket.
        assert g.phase is Phase.ACTION and g.active == b and phone.table["view"]["active"] == b
        ok = await phone.act({"type": "regroup", "cards": []}, version=v + 2)
        assert ok["type"] == "ok" and ok["version"] == v + 3
        await assert_in_sync(s, v + 3)
    finally:
        await s.close()


class FrozenClock:
    """tables.services reads the time only through timezone.now(): pinned here, the
    window's age is exactly what the test writes into Table.window_opened_at."""

    def __init__(self, at):
        self.at = at

    def now(self):
        return self.at


async def _set_window_age(table_id: int, now, seconds: float) -> None:
    opened = now - timedelta(seconds=seconds)
    await database_sync_to_async(lambda: Table.objects.filter(pk=table_id).update(window_opened_at=opened))()


async def test_sixty_second_pass_refused_at_59_accepted_at_60(monkeypatch):
    now = timezone.now()
    s = await seated(4, seed=8)
    g0 = await game_of(s.table_id)
    a, *others = clockwise(g0)
    t = next(x for x in others if x != s.captain)  # the silent player is not the captain
    g0 = await arrange(s.table_id, {a: [C.SNATCH, C.INSIDE_MAN], t: [C.NOT_SO_FAST]})
    await connect(s)
    try:
        v = g0.version
        snatch = ids(g0, a, C.SNATCH)[0]
        assert (await s.phones[a].act({"type": "play", "card": snatch, "targets": [t]}, version=v))["type"] == "ok"
        await assert_in_sync(s, v + 1)
        logged = await action_count(s.table_id)

        monkeypatch.setattr("tables.services.timezone", FrozenClock(now))
        for age in (59, 59.999):
            await _set_window_age(s.table_id, now, age)
            err = await s.host.act({"type": "timeout_pass", "seat": t}, table=s.table_id)
            assert err["type"] == "error" and err["code"] == "too_early", err
            assert "has waited 59 s" in err["message"] and "60 s" in err["message"], err
        # the player themself cannot pass "by timeout", at any age
        err = await s.phones[t].act({"type": "timeout_pass", "seat": t})
        assert err["type"] == "error" and err["code"] == "forbidden", err
        g = await game_of(s.table_id)
        assert g.version == v + 1 and g.phase is Phase.REACTION and await action_count(s.table_id) == logged
        assert not [m for got in await sent_until_now(s.all(), s.table_id) for m in got if m["type"] == "table"]

        await _set_window_age(s.table_id, now, 60)
        captain = s.phones[s.captain]
        ok = await captain.act({"type": "timeout_pass", "seat": t})  # the captain's own table
        assert ok["type"] == "ok" and ok["version"] == v + 2, ok
        g = await assert_in_sync(s, v + 2)
        assert g.gifts[a] == g0.gifts[t] and g.gifts[t] == g0.gifts[a]  # a pass lets the move happen
        assert ids(g0, t, C.NOT_SO_FAST)[0] in g.hands[t]  # not used: the pass was forced
        assert [e["seat"] for e in events_of(s.host.table, "reaction_timed_out")] == [t]
        row = await database_sync_to_async(lambda: TableAction.objects.get(table_id=s.table_id, version=v + 2))()
        assert row.actor == f"captain:{s.guests[s.captain]}" and row.action == {"type": "timeout_pass", "seat": t}
        assert (await table_row(s.table_id)).window_opened_at is None
    finally:
        await s.close()
