"""A socket's standing at its party: the actor its hello proved, kept true to the
database (its seat re-checked, its rights re-read: events/live/socket/seat.py), and the
channel-layer groups that go with it (events/live/socket/subscriptions.py). It is the
`Listener` fan-out sees (events/broadcast/fanout.py): `fan_check_due`, `seat_revoked`."""

from __future__ import annotations

import logging
from typing import Any

from events.live.socket.closing import ClosingSocket
from events.live.socket.seat import SeatCheck, rights_now
from events.live.socket.subscriptions import Subscriptions
from events.party.roles import Actor
from tables.errors import ErrorCode

logger = logging.getLogger(__name__)


class Standing(ClosingSocket):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.actor: Actor | None = None
        self.patches = False  # the screen takes table updates as patches (tables/broadcast.py)
        self.seat = SeatCheck()
        self.subscriptions = Subscriptions()

    @property
    def secret(self) -> str | None:
        """A guest's or tablet's token digest (events/live/socket/seat.py)."""
        return self.seat.secret

    def fan_check_due(self) -> bool:
        return self.seat.due(self.actor)

    async def seat_revoked(self, re: str | None = None, *, cached: bool = False) -> bool:
        """Before acting, resyncing or passing on a seat's private view: does the secret
        this socket said hello with still open its seat (events/live/socket/seat.py)? True:
        the socket was closed."""
        verdict = await self.seat.verdict(self.actor, cached=cached)
        if verdict.lost is not None:
            await self._revoke(re, *verdict.lost)
        elif verdict.row is not None:
            await self._refresh_rights(verdict.row)
        return not verdict.held

    _seat_revoked = seat_revoked  # the name the act dispatch (the consumer's `_command`) calls

    async def _revoke(self, re: str | None, error: str, notice: str) -> None:
        """This socket lost its seat or tablet: answer the request it was handling, say
        why, and close it for good."""
        if re is not None:
            await self._error(re, ErrorCode.REMOVED, error)
        await self.send_frame({"type": "removed", "message": notice})
        self.seat.revoked = True
        await self.close(code=4401)

    async def _refresh_rights(self, row: dict[str, Any]) -> None:
        """The guest's rights as its row says now (events/live/socket/seat.py); its groups follow."""
        fresh = rights_now(self.hello_actor(), row)
        if fresh == self.actor:
            return
        self.actor = fresh
        try:
            await self.subscribe()
        except Exception:  # Redis down: the groups catch up on the next resubscribe
            logger.warning("resubscribe after a role change failed", exc_info=True)

    async def subscribe(self) -> None:
        await self.subscriptions.follow(self.hello_actor(), self.channel_layer, self.channel_name, self)

    async def resubscribe(self) -> None:
        self.subscriptions.resubscribing = False
        if not self.subscriptions.subscribed:
            await self.subscribe()

    def hello_actor(self) -> Actor:
        """The actor of a socket that said hello (every caller runs after it)."""
        assert self.actor is not None
        return self.actor
