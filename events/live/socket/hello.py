"""A socket's hello: the clock it must say it within, and the proof of its secret (the
actor the secret opens, the socket's places in the counts, its seat's other screens)."""

from __future__ import annotations

import asyncio
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy

from events.access import peers
from events.live.presence import guest_socket_opened, server_address
from events.live.socket import handshake
from events.live.socket.db import in_db_thread
from events.live.socket.limits import Slots
from events.live.socket.seat import SeatCheck
from events.live.socket.standing import Standing
from events.party.roles import Actor, Role
from events.party.secrets import token_hash
from events.party.selectors import actor_for
from tables.errors import ErrorCode

# A socket accepted on probation (events/access/gate.py) must prove a secret this fast: a
# phone says hello as soon as its socket opens, and a flood holds its slots briefly.
PROBATION_HELLO_SECONDS = 3.0
SILENT = handshake.Refused(ErrorCode.HELLO_TIMEOUT, gettext_lazy("say hello within a few seconds of connecting"), 4408)


class HelloClock:
    """A socket that never says hello would hold memory and a slot for ever: it is
    refused (SILENT) unless a hello came in time. A hello frame counts once queued, not
    once handled (`heard`): in a join burst a hello can wait seconds for the database."""

    def __init__(self, socket: Standing) -> None:
        self.timer: asyncio.Task[None] | None = None
        self.seen = False
        self.socket = socket

    def start(self, seconds: float | None = None) -> None:
        self.timer = asyncio.ensure_future(self._wait(seconds))

    def heard(self) -> None:
        self.seen = True  # queued: the silence timer must not close it now

    def stop(self) -> None:
        if self.timer is not None and self.timer is not asyncio.current_task():
            self.timer.cancel()

    async def _wait(self, seconds: float | None) -> None:
        limit = settings.HELLO_TIMEOUT_SECONDS
        await asyncio.sleep(limit if seconds is None else min(seconds, limit))
        if self.socket.actor is None and not self.seen:
            await self.socket.refuse(None, SILENT)


async def prove(
    frame: dict[str, Any], *, party: Any, slots: Slots, seat: SeatCheck, socket: Any, scope: dict[str, Any]
) -> tuple[Actor, Any] | handshake.Refused:
    """A hello's secret: (the actor it opens, for a guest the Outcome of marking the
    socket online), with the socket counted as proven; or why it is refused."""
    role = frame.get("role")
    if slots.own is not None and role == Role.SPECTATOR.value and not slots.as_spectator():
        return handshake.RATE_LIMITED  # no room for a spectator, on any pass
    if party is None or (slots.probation and (role == Role.SPECTATOR.value or party.expired)):
        # On probation (events/access/gate.py): only a secret is served, and an unknown
        # code answers as a known one does.
        return handshake.RATE_LIMITED
    actor, opened = await in_db_thread(identify)(
        party, role, frame.get("token"), socket.channel_name, server_address(scope)
    )
    if actor is None:
        return handshake.RATE_LIMITED if slots.probation else handshake.BAD_SECRET
    if actor.role is not Role.SPECTATOR:
        slots.proven()  # a secret proved: this socket no longer counts against its address
    if actor.role is Role.GUEST and actor.guest_id is not None:
        for old in slots.open_seat(actor.guest_id, socket):
            await old.replaced()
        slots.seat_key = actor.guest_id
    if actor.role is not Role.SPECTATOR:  # a secret opened it: bin/serve's front door stops counting it
        peers.secret_proven(scope.get("client"))
    if actor.role in (Role.GUEST, Role.TABLET):
        seat.proven(token_hash(frame["token"]))  # to notice a hand-over or an unpairing
    return actor, opened


def identify(party: Any, role: Any, token: Any, channel: str, server: str) -> tuple[Actor | None, Any]:
    """A hello: (the actor its secret opens or None, and for a guest the Outcome of
    marking the socket online), in one database call."""
    actor = actor_for(party=party, role=role, token=token)
    if actor is None or actor.role is not Role.GUEST or actor.guest_id is None:
        return actor, None
    opened = guest_socket_opened(party_id=actor.party_id, guest_id=actor.guest_id, channel=channel, server=server)
    return actor, opened
