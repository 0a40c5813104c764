"""A guest socket that goes quiet (no ping, no frame, still open) is closed and its
guest shown offline on the host's dashboard within seconds (events/live/stalls.py), while a
socket that keeps pinging stays; the watch is one sweep per loop, whatever the party's
size, and costs well under a millisecond per sweep."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async

from events.live import stalls
from tests import shorthand
from tests.live.clients import Phone

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(stalls, "STALL_SECONDS", 1.0)
    monkeypatch.setattr(stalls, "SWEEP_SECONDS", 0.2)


async def test_a_silent_guest_socket_is_closed_and_shown_offline_and_a_pinging_one_is_not(quick, monkeypatch):
    party, host_token = await sync_to_async(shorthand.party_create)(name="Stalls")
    _q, quiet_token, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Quiet", description="a mug")
    talker, talk_token, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Talk", description="a hat")
    botg, bot_token, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Bot", description="a pen")
    # Every sweep the watch runs: when, whom it found silent, and their stalled() tasks.
    sweeps: list[tuple[float, list]] = []
    stalling: set[asyncio.Task] = set()
    swept_past = asyncio.Event()
    past: list[float] = [float("inf")]
    real_sweep = stalls.sweep_once

    def sweep_once(w=None, now=None):
        now = stalls._now() if now is None else now
        silent = real_sweep(w, now)
        sweeps.append((now, silent))
        stalling.update((w or stalls._watch()).closing)
        if now > past[0]:
            swept_past.set()
        return silent

    monkeypatch.setattr(stalls, "sweep_once", sweep_once)
    host = await Phone(party.code).connect()
    await host.hello("host", host_token)
    quiet, talking = await Phone(party.code).connect(), await Phone(party.code).connect()
    await quiet.hello("guest", quiet_token)
    await talking.hello("guest", talk_token)
    bot = await Phone(party.code).connect()  # a script that never pings: not watched
    await bot.hello("guest", bot_token)
    await quiet.send({"type": "ping"})  # two pings: the quiet socket's heartbeat is known
    await quiet.until(lambda m: m.get("type") == "pong")
    started = time.monotonic()  # the quiet socket's last frame is this ping, sent after now
    await quiet.send({"type": "ping"})
    await quiet.until(lambda m: m.get("type") == "pong")
    for _ in range(2):  # the talking socket's heartbeat is known too, and its limit set
        await talking.send({"type": "ping"})
        await talking.until(lambda m: m.get("type") == "pong")
    # Its last frame so far was answered before now: if the pings below went unheard, a
    # sweep after now + STALL_SECONDS would close it.
    talked = time.monotonic()
    pinging = True

    async def ping():
        while pinging:
            await asyncio.sleep(0.3)
            await talking.send({"type": "ping"})

    pinger = asyncio.ensure_future(ping())
    try:
        gone = await host.until(lambda m: m.get("type") == "presence" and not m["online"], timeout=5)
        took = time.monotonic() - started
        assert gone["guest"] == _q.pk
        assert stalls.STALL_SECONDS <= took < stalls.STALL_SECONDS + 3 * stalls.SWEEP_SECONDS + 1, took
        assert await quiet.closed() == 4408
        # No event marks a stall that did not happen: the watch decides by the clock. So
        # wait for the watch itself to sweep past twice the talking socket's limit from
        # its last frame before the pinger, and for what that sweep closed: by then an
        # unheard heartbeat would have been closed and told to the host.
        past[0] = talked + 2 * stalls.STALL_SECONDS
        await asyncio.wait_for(swept_past.wait(), timeout=2 * stalls.STALL_SECONDS + 5)
        await asyncio.gather(*stalling)
        found = [hb.socket.actor.guest_id for _, silent in sweeps for hb in silent]
        assert found == [_q.pk], found  # the quiet socket, once; never the pinging one or the bot
        assert stalls.watched() == 1  # the pinging socket; the bot was never held to a heartbeat
        # The host hears of anything published before its own command's broadcast
        # (one group, published in turn): no offline mark for the other two.
        assert (await host.command("rename_guest", guest=botg.pk, name="Bot Two"))["type"] == "ok"
        await host.until(
            lambda m: m.get("type") == "party" and any(g["name"] == "Bot Two" for g in m["party"]["guests"])
        )
        for still in (talker, botg):
            assert not any(
                m.get("type") == "presence" and m["guest"] == still.pk and not m["online"] for m in host.inbox
            )
        # Both sockets are still open: each answers a ping.
        await talking.send({"type": "ping"})
        assert (await talking.until(lambda m: m.get("type") == "pong"))["type"] == "pong"
        await bot.send({"type": "ping"})
        assert (await bot.until(lambda m: m.get("type") == "pong"))["type"] == "pong"
    finally:
        pinging = False
        await pinger
    await talking.close()
    await bot.close()
    await host.close()


async def test_one_sweep_watches_a_hundred_sockets_cheaply():
    """No timer per guest: a hundred (or a thousand) watched sockets are one sweep
    task, whose pass over them all costs a fraction of a millisecond."""

    class Socket:
        def __init__(self):
            self.stalls = 0

        async def stalled(self):
            self.stalls += 1

    before = len(asyncio.all_tasks())
    sockets = [Socket() for _ in range(1000)]
    for s in sockets[:100]:
        stalls.pinged(s)
        stalls.pinged(s)  # the second ping sets the socket's limit
    assert len(asyncio.all_tasks()) == before + 1  # the one sweep, not a hundred timers
    for s in sockets[100:]:
        stalls.pinged(s)
        stalls.pinged(s)
    assert len(asyncio.all_tasks()) == before + 1 and stalls.watched() == 1000
    runs = 200
    t0 = time.perf_counter()
    for _ in range(runs):
        stalls.heard(sockets[0])
        assert stalls.sweep_once() == []
    per_sweep = (time.perf_counter() - t0) / runs
    print(f"\none sweep over 1000 watched sockets: {per_sweep * 1e6:.0f} us")
    assert per_sweep < 0.005
    # Silent past the stall time: each stalls exactly once and is no longer watched.
    late = time.monotonic() + stalls.STALL_SECONDS + 1
    assert len(stalls.sweep_once(now=late)) == 1000 and stalls.watched() == 0
    await asyncio.sleep(0)
    assert {s.stalls for s in sockets} == {1}


async def test_the_limit_follows_each_sockets_own_heartbeat(monkeypatch):
    """A phone pinging every 2 s is dead after 7 s of silence; a client whose pings
    come 15 s apart (a throttled hidden page, a test bot) after 3.5 gaps, not 7 s; a
    socket that pinged once only, after FIRST_LIMIT."""

    class Socket:
        async def stalled(self):
            pass

    clock = {"now": 1000.0}
    monkeypatch.setattr(stalls, "_now", lambda: clock["now"])
    phone, slow, once = Socket(), Socket(), Socket()
    stalls.pinged(once)  # one ping tells nothing of its heartbeat: FIRST_LIMIT
    for t in (0, 2, 4):
        clock["now"] = 1000.0 + t
        stalls.pinged(phone)
    for t in (0, 15):
        clock["now"] = 1000.0 + t
        stalls.pinged(slow)
    assert stalls.sweep_once(now=1004.0 + stalls.STALL_SECONDS - 0.1) == []
    assert stalls.sweep_once(now=1004.0 + stalls.STALL_SECONDS + 0.1) == [phone]
    assert stalls.sweep_once(now=1000.0 + stalls.FIRST_LIMIT - 0.1) == []
    assert stalls.sweep_once(now=1000.0 + stalls.FIRST_LIMIT + 0.1) == [once]
    assert stalls.sweep_once(now=1015.0 + 15 * stalls.GAPS_ALLOWED - 0.1) == []
    assert stalls.sweep_once(now=1015.0 + 15 * stalls.GAPS_ALLOWED + 0.1) == [slow]
    assert stalls.watched() == 0
    await asyncio.sleep(0)
