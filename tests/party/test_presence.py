"""The host's presence marks: a guest with the seat open on two devices (a captain's
phone and tablet) stays online when one of them closes."""

import pytest
from asgiref.sync import sync_to_async

from events import services
from tests.live.clients import Phone

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


async def test_closing_one_of_two_sockets_keeps_the_guest_online():
    party, host_token = await sync_to_async(services.party_create)(name="Presence")
    guest, token, _ = await sync_to_async(services.guest_join)(code=party.code, name="Tab", description="a lamp")
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
