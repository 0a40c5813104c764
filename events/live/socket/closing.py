"""How the party socket sends and closes: nothing is sent on a closing socket, a close
gives back the socket's places in the counts at once (events/live/socket/limits.py
Slots), a close daphne refuses is retried in the private range, and every refusal is an
`error` frame then a close (docs/PROTOCOL.md's close codes). The consumer
(events/live/consumers.py) is built on it."""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy

from events.live.socket.handshake import Refused
from events.live.socket.limits import Slots
from tables.errors import ServiceError

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

logger = logging.getLogger(__name__)

REPLACED = gettext_lazy("This seat is open on newer screens, so this one stopped.")

# A request failed in the server (`_failed`): the screen should reconnect and resend.
SERVER_ERROR_CLOSE = 4011


class ClosingSocket(AsyncWebsocketConsumer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.closing = False  # nothing may be sent on this socket any more
        self.slots = Slots()
        # The language this socket's errors and notices speak (events/party/language.py): the
        # handshake's guess, then the hello's (a tablet or the big screen follows the party).
        self.language: str = settings.LANGUAGE_CODE

    def _release_slots(self) -> None:
        """Give back this socket's places in the per-seat and per-address counts (once)."""
        self.slots.release(self)

    async def send(  # type: ignore[override]  # as channels' own: a websocket's send narrows AsyncConsumer's
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool | int = False
    ) -> None:
        # After our close (removed, revoked) or the client's, group messages may still
        # be queued for this consumer: daphne logged "Attempt to send on a closed
        # protocol" for each. Nothing is sent on a closing socket.
        if self.closing:
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            # The phone went away after its frame came in, before daphne told us (its
            # disconnect is queued behind that frame). The exception used to end the
            # consumer, and disconnect() never ran: no presence, fan-out or group
            # clean-up. Nothing more is sent; the disconnect comes next.
            self.closing = True

    async def close(self, code: int | None = None, reason: str | None = None) -> None:
        self._release_slots()  # at once: the seat's slot is free for the next screen
        if self.closing:
            return
        await super().close(code=code, reason=reason)  # may raise: _close_too_large retries
        self.closing = True

    async def replaced(self) -> None:
        """A newer screen opened this seat past its cap: this, the oldest, gives way."""
        self.slots.seat_key = None  # its place went to the newer screen
        # Called from the newer screen's task: said in this socket's own language.
        with translation.override(self.language):
            await self.send_frame({"type": "replaced", "message": str(REPLACED)})
        await self.close(code=4409)

    async def _close_too_large(self) -> None:
        try:
            await self.close(code=1009)  # RFC 6455: message too big
        except Exception:
            # daphne (autobahn) lets an application send only 1000 or 3000-4999 and
            # raised here, which crashed the consumer (the client saw 1011). The same
            # meaning in the private range. (Started with --websocket-max-message-size
            # 4096, daphne itself closes oversized frames with 1009 before we see them.)
            await self.close(code=4009)

    async def _failed(self) -> None:
        """A request raised (logged by the queue). The socket closes and the screen
        reconnects, resends its unanswered request with the same `re` (applied once) and
        resyncs. 4011: 1011's meaning (a server error) in the private range, as daphne
        (autobahn) lets an application close only with 1000 or 3000-4999: with 1011 the
        close itself raised, the socket stayed open and the request was never answered
        (PostgreSQL restarted under an act: the table stalled)."""
        try:
            await self.close(code=SERVER_ERROR_CLOSE)
        except Exception:
            logger.warning("closing after a failed request failed", exc_info=True)

    async def send_frame(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(payload, separators=(",", ":")))

    async def refuse(self, re: str | None, refused: Refused) -> None:
        await self._error(re, refused.code, refused.message)
        await self.close(code=refused.close)

    async def _error(self, re: str | None, code: str, message: StrOrPromise) -> None:
        # str(): a refusal decided before any request (a lazy text) speaks this socket's language
        with translation.override(self.language):
            text = str(message)
        await self.send_frame({"type": "error", "re": re, "code": code, "message": text})


def error_frame(re: str | None, exc: ServiceError) -> dict[str, Any]:
    """The socket's one mapping of the error family (tables/errors.py) to a frame."""
    return {"type": "error", "re": re, "code": exc.code, "message": str(exc)}
