"""The host's presence marks: a guest with the seat open on two devices (a captain's
phone and tablet) stays online when one of them closes, and goes offline when both close
together, in the database and on every screen."""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from tests import shorthand
from tests.live.clients import Phone

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


async def test_closing_one_of_two_sockets_keeps_the_guest_online():
    party, host_token = await sync_to_async(shorthand.party_create)(name="Presence")
    _guest, token, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Tab", description="a lamp")
    host = await Phone(party.code).connect()
    await host.hello("host", host_token)
    phone, tablet = await Phone(party.code).connect(), await Phone(party.code).connect()
    await phone.hello("guest", token)
    await tablet.hello("guest", token)
    presences = []
    while len(presences) < 2:  # the two hellos
        presences.append((await host.until(lambda m: m.get("type") == "presence"))["online"])
    assert presences == [True, True], presences
    await tablet.close()
    await phone.close()
    # The tablet's close, with the phone still open, changed nothing for the room and
    # said nothing (an "online" from it could reach a screen after the phone's
    # "offline"): the next presence is the phone's.
    last = await host.until(lambda m: m.get("type") == "presence")
    assert last["online"] is False
    await host.close()


async def test_a_removed_socket_is_sent_nothing_after_it_is_closed(monkeypatch):
    """The server closed the socket (the host removed the guest), but the consumer is
    still in its groups until the close completes: later broadcasts were sent on the
    closed socket (daphne: "Attempt to send on a closed protocol")."""
    from events.live.consumers import PartyConsumer

    party, host_token = await sync_to_async(shorthand.party_create)(name="Closed")
    gone, gone_token, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Gone", description="a mug")
    stays, _, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Stays", description="a hat")
    # The removed guest's consumer, once the rename's broadcast has reached it (every
    # consumer reads its channel layer messages through dispatch).
    reached: asyncio.Future = asyncio.get_running_loop().create_future()
    real = PartyConsumer.dispatch

    async def dispatch(self, message):
        await real(self, message)
        actor = self.actor
        if actor is not None and actor.guest_id == gone.pk and "Still here" in message.get("text", ""):
            if not reached.done():
                reached.set_result(self)

    monkeypatch.setattr(PartyConsumer, "dispatch", dispatch)
    host = await Phone(party.code).connect()
    await host.hello("host", host_token)
    phone = await Phone(party.code).connect()
    await phone.hello("guest", gone_token)
    assert (await host.command("remove_guest", guest=gone.pk))["type"] == "ok"
    assert await phone.closed() == 4401
    assert phone.inbox[-1]["type"] == "removed"
    # More party broadcasts while the removed consumer has not been told the close is done.
    assert (await host.command("rename_guest", guest=stays.pk, name="Still here"))["type"] == "ok"
    await host.until(
        lambda m: m.get("type") == "party" and any(g["name"] == "Still here" for g in m["party"]["guests"])
    )
    # The broadcast has reached the removed consumer, and whatever it queued from it
    # has run: anything it would send on the closed socket has been sent by now.
    consumer = await asyncio.wait_for(reached, 5)
    if consumer.queue.worker is not None:
        await asyncio.wait_for(asyncio.shield(consumer.queue.worker), 5)
    assert phone.comm.output_queue.empty(), await phone.comm.output_queue.get()
    await phone.close()
    await host.close()


def test_a_ping_refreshes_its_row_and_counts_only_live_sockets():
    """presence_seen (plain SQL): the pinging socket's row is refreshed, the guest's
    count is its rows seen within ONLINE_GRACE (a row a dead process left is not), and
    last_seen moves; a close recounts without moving last_seen."""
    from datetime import timedelta

    from django.utils import timezone

    from events.live.presence import presence_close, presence_seen
    from events.models import Guest, GuestSocket
    from events.party.selectors import ONLINE_GRACE

    party, _ = shorthand.party_create(name="Rows")
    guest, _, _ = shorthand.guest_join(code=party.code, name="Ann", description="a scarf")
    other, _, _ = shorthand.guest_join(code=party.code, name="Bo", description="a cup")
    old = timezone.now() - ONLINE_GRACE - timedelta(seconds=5)
    for channel, who in (("phone", guest), ("dead", guest), ("tablet", guest), ("bo", other)):
        GuestSocket.objects.create(guest=who, channel=channel, server="s", process="p", seen_at=old)
    GuestSocket.objects.filter(channel="tablet").update(seen_at=timezone.now())
    before = timezone.now()
    assert presence_seen(guest_id=guest.pk, channel="phone") == 2  # phone + tablet, not the dead row
    row = Guest.objects.get(pk=guest.pk)
    assert (row.sockets, row.last_seen >= before) == (2, True)
    assert GuestSocket.objects.get(channel="phone").seen_at >= before
    assert GuestSocket.objects.get(channel="dead").seen_at == old
    assert Guest.objects.get(pk=other.pk).sockets == 0  # another guest's row is untouched
    seen = row.last_seen
    assert presence_close(guest_id=guest.pk, channel="tablet") == 1
    row = Guest.objects.get(pk=guest.pk)
    assert (row.sockets, row.last_seen) == (1, seen)
    assert presence_seen(guest_id=10**9, channel="nobody") == 0  # a guest no longer there


def test_two_sockets_closing_together_leave_the_guest_offline():
    """Each close deletes its row, then recounts the guest's rows. The recount waits for
    the guest's row while another recount holds it; what it counts must be the rows as
    they are when it gets it, not when it began waiting: here the other socket's row
    goes while this recount waits (the other close's delete), and the count is 0. It
    was 1, written over the other close's 0: the guest stayed online with no page open."""
    import threading
    import time

    from django.db import connection, connections, transaction

    from events.live.presence import presence_close, presence_open
    from events.models import Guest, GuestSocket

    party, _ = shorthand.party_create(name="Together")
    guest, _, _ = shorthand.guest_join(code=party.code, name="Cap", description="a kite")
    presence_open(guest_id=guest.pk, channel="phone", server="s")
    assert presence_open(guest_id=guest.pk, channel="tab", server="s")[0] == 2
    held, release = threading.Event(), threading.Event()
    counted: list[int] = []

    def hold() -> None:  # another recount of this guest, in progress
        try:
            with transaction.atomic():
                list(Guest.objects.select_for_update().filter(pk=guest.pk).values_list("pk"))
                held.set()
                release.wait(10)
        finally:
            connections.close_all()

    def close_phone() -> None:
        try:
            counted.append(presence_close(guest_id=guest.pk, channel="phone"))
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(10)
    closer = threading.Thread(target=close_phone)
    closer.start()
    deadline, waiting = time.monotonic() + 10, 0
    with connection.cursor() as cur:  # the phone's close waits for the guest's row
        while not waiting and time.monotonic() < deadline:
            time.sleep(0.01)
            cur.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            waiting = cur.fetchone()[0]
    assert waiting, "the phone's recount never waited for the guest's row"
    assert not GuestSocket.objects.filter(channel="phone").exists()  # its row went first
    GuestSocket.objects.filter(channel="tab").delete()  # the tablet's close, meanwhile
    release.set()
    holder.join(10)
    closer.join(10)
    assert counted == [0]
    assert Guest.objects.get(pk=guest.pk).sockets == 0


def _two_tables_and_a_tablet() -> dict:
    """A seated party of twelve (two tables), a tablet paired to table A: the guests of
    each table, A's captain, the tablet's secret and every seat's secret."""
    from events.models import Guest
    from events.party import tablets

    party, _, tokens = shorthand.party_seated(name="Captains' screens", guests=12)
    at = {}
    for g in Guest.objects.filter(party=party).select_related("table"):
        at.setdefault(g.table.letter, []).append(g)
    a_table = at["A"][0].table_id
    start = tablets.tablet_pair_start(party_id=party.pk, table_id=a_table).data
    paired = tablets.tablet_pair(code=party.code, pairing=start["pairing"]).data
    return {
        "code": party.code,
        "a": sorted(g.pk for g in at["A"]),
        "b": sorted(g.pk for g in at["B"]),
        "captain": next(g.pk for g in at["A"] if g.is_captain),
        "tablet": paired["token"],
        "tokens": tokens,
    }


async def test_a_tables_captain_screens_learn_who_of_their_own_guests_is_offline():
    """The tablet and the captain's phone are told when a guest of their own table
    connects or leaves, and their snapshots say who is not connected (a resync is
    right again); they never hear of another table's guests."""
    s = await sync_to_async(_two_tables_and_a_tablet)()
    tablet = await Phone(s["code"]).connect()
    snap = await tablet.hello("tablet", s["tablet"])
    assert snap["offline"] == s["a"]  # nobody at table A has a phone open yet
    captain = await Phone(s["code"]).connect()
    snap = await captain.hello("guest", s["tokens"][s["captain"]])
    assert snap["offline"] == [g for g in s["a"] if g != s["captain"]]  # the captain is here
    await tablet.until(lambda m: m.get("type") == "presence" and m["guest"] == s["captain"] and m["online"])

    other = s["b"][0]  # table B's guest comes and goes: A's screens never hear of it
    b_phone = await Phone(s["code"]).connect()
    await b_phone.hello("guest", s["tokens"][other])
    await b_phone.close()
    guest = next(g for g in s["a"] if g != s["captain"])
    phone = await Phone(s["code"]).connect()
    assert "offline" not in await phone.hello("guest", s["tokens"][guest])  # not a captain: told nothing
    for screen in (tablet, captain):
        await screen.until(lambda m: m.get("type") == "presence" and m["guest"] == guest and m["online"])
    await phone.close()
    for screen in (tablet, captain):
        await screen.until(lambda m: m.get("type") == "presence" and m["guest"] == guest and not m["online"])
        told = {m["guest"] for m in screen.inbox if m.get("type") == "presence"}
        assert told <= set(s["a"]) and other not in told, told
    assert not [m for m in phone.inbox if m.get("type") == "presence"]  # a guest hears of nobody
    await tablet.send({"type": "resync", "re": "r1"})
    resync = await tablet.reply("r1")
    assert resync["offline"] == [g for g in s["a"] if g != s["captain"]]
    for screen in (tablet, captain):
        await screen.close()
