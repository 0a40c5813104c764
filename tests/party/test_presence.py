"""The host's presence marks: a guest with the seat open on two devices (a captain's
phone and tablet) stays online when one of them closes."""

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
    await tablet.close()
    presences = []
    while len(presences) < 3:  # two hellos, then the tablet closing
        presences.append((await host.until(lambda m: m.get("type") == "presence"))["online"])
    assert presences == [True, True, True], presences  # the phone is still open
    await phone.close()
    last = await host.until(lambda m: m.get("type") == "presence")
    assert last["online"] is False
    await host.close()


async def test_a_removed_socket_is_sent_nothing_after_it_is_closed():
    """The server closed the socket (the host removed the guest), but the consumer is
    still in its groups until the close completes: later broadcasts were sent on the
    closed socket (daphne: "Attempt to send on a closed protocol")."""
    party, host_token = await sync_to_async(shorthand.party_create)(name="Closed")
    gone, gone_token, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Gone", description="a mug")
    stays, _, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Stays", description="a hat")
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
    await asyncio.sleep(0.3)
    assert phone.comm.output_queue.empty(), await phone.comm.output_queue.get()
    await phone.close()
    await host.close()
