"""A request that fails in the server (here: the database connection dies under it, as
when PostgreSQL restarts) closes the socket with a code daphne can send, so the screen
reconnects and resends it. Daphne's autobahn accepts only 1000 or 3000-4999 from an
application: the 1011 used before raised, left the socket open and the request
unanswered, and the table stalled (tests/faults/test_night.py found it)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.db import OperationalError

from events.live import consumers
from tests import shorthand
from tests.live.clients import Phone

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


def autobahn_accepts(code: int) -> bool:
    # autobahn.websocket.protocol.WebSocketProtocol.sendClose
    return code == 1000 or 3000 <= code <= 4999


async def test_a_request_that_fails_in_the_server_closes_with_a_code_daphne_can_send(monkeypatch):
    party, host_token = await sync_to_async(shorthand.party_create)(name="Outage")
    host = await Phone(party.code).connect()
    assert (await host.hello("host", host_token))["type"] == "snapshot"

    async def dead_connection(self, frame, re, **kwargs):
        raise OperationalError("terminating connection due to administrator command")

    monkeypatch.setattr(consumers.PartyConsumer, "_command", dead_connection)
    await host.send({"type": "party", "re": "c1", "command": "seat"})
    code = await host.closed()
    assert code == consumers.SERVER_ERROR_CLOSE and autobahn_accepts(code), code
    # and it is not one of the codes after which live.js gives up (its FATAL list)
    assert code not in (4401, 4403, 4404, 4409, 4410)
