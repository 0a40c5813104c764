"""The one WebSocket a screen keeps open to its party: authenticate, parse, call one
service, reply. Every request gets exactly one reply (`ok` or `error`, echoing the
client's `re` id); updates arrive as versioned `table` / `party` messages. The socket's
parts are small objects it owns (events/live/socket/): its frame budget, hello clock,
request queue, snapshots and heartbeat; it is built on socket/closing.py (sending,
closing, its places in the socket counts) and socket/standing.py (its actor and groups).

Frames from the client (JSON text, at most events/live/socket/frames.py MAX_FRAME bytes):
  {"type": "hello", "role": "guest"|"host"|"tablet"|"spectator", "token": "...", "patches": true}
  {"type": "act", "re": "<client action id>", "version": 12, "table": 3, "action": {...}}
  {"type": "party", "re": "...", "command": "seat", ...arguments}
  {"type": "resync", "re": "..."}
  {"type": "ping"}
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from channels.consumer import get_handler_name
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from events.broadcast import fanout, groups
from events.live import act, acttiming, stalls
from events.live.socket import frames, handshake, hello, snapshots
from events.live.socket.closing import SERVER_ERROR_CLOSE, error_frame
from events.live.socket.db import in_db_thread
from events.live.socket.handshake import origin as _origin
from events.live.socket.hello import PROBATION_HELLO_SECONDS, HelloClock
from events.live.socket.limits import FrameBudget
from events.live.socket.liveness import Heartbeat
from events.live.socket.queue import RequestQueue
from events.live.socket.standing import Standing
from events.party.commands import dispatch
from events.party.language import language_of_scope
from events.party.roles import Role
from tables.errors import ErrorCode, ServiceError
from tables.words import say

__all__ = ["SERVER_ERROR_CLOSE", "PartyConsumer"]

logger = logging.getLogger(__name__)

SLOW_DOWN = gettext_lazy("too many frames; slow down")


class PartyConsumer(Standing):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.party: Any = None  # events.models.Party, or None: no party has the code
        self.clock = HelloClock(self)
        self.budget = FrameBudget()
        self.queue = RequestQueue(lambda: self.closing, self._failed)
        self.snapshots = snapshots.Snapshots()
        self.heartbeat = Heartbeat(self, self.snapshots, self.queue)

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Skip Channels' hop to a thread that closes stale DB connections before every
        # handler (it halved broadcast throughput): group deliveries touch no
        # database, and every handler that does goes through write.run_in_db_thread
        # (database_sync_to_async), which closes stale connections in its own thread
        # before and after.
        if message["type"] == "deliver":
            # In order with this socket's requests: a `resubscribe` reads the database,
            # and group messages kept their order with the replies before.
            if message.get("kind") == "resubscribe":
                self.snapshots.promise()
            self.queue.put(self.deliver, message)
            return
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    # --- lifecycle ---------------------------------------------------------------------

    async def connect(self) -> None:
        acttiming.start_sampling()
        allowed, self.party = await handshake.arrive(self.scope, self.slots)
        if not allowed:
            await self.close(code=4429)  # before accept: the handshake is refused
            return
        # The party was read with the handshake: its language costs no query. The hello
        # decides again once the role is known (a tablet, the big screen).
        self.language = language_of_scope(
            self.scope, party_language=self.party.language if self.party is not None else settings.LANGUAGE_CODE
        )
        await self.accept()
        if self.slots.probation:
            # Nothing is told before a secret: not even whether the code exists.
            self.clock.start(PROBATION_HELLO_SECONDS)
            return
        refused = await handshake.refusal(self.party, exempt=self.slots.exempt, address=self.slots.address)
        if refused is not None:
            await self.refuse(None, refused)
            return
        # The clock starts now, not at accept: frames wait while this handler runs, and
        # in a join burst the database calls above can take seconds.
        self.clock.start()

    def _release_slots(self) -> None:
        self.clock.stop()
        super()._release_slots()

    async def disconnect(self, code: int) -> None:
        stalls.forget(self.heartbeat)
        self._release_slots()
        self.closing = True
        await self.queue.finish()
        self._release_slots()  # again: a hello finished just now may have taken a seat's slot
        await self.heartbeat.closed()  # first: PostgreSQL, not Redis
        await fanout.local().untrack(self)  # no more table updates for this socket
        await self.subscriptions.leave_all(self.channel_layer, self.channel_name)

    # --- frames ------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # No translation.override here (about 10 µs): a ping passes by every 2 s from every
        # screen. The refusals below are lazy texts, said in this socket's language by `_error`.
        stalls.heard(self.heartbeat)  # any frame is a sign of life (a ping every 2 s)
        if not self.budget.take():  # first: junk counts too
            # Refused unread, its `re` echoed when it has a plain one: the request is answered.
            await self._error(frames.plain_re(text_data), ErrorCode.RATE_LIMITED, SLOW_DOWN)
            if self.budget.exhausted():
                await self.close(code=4429)
            return
        frame = frames.parse(text_data)
        if isinstance(frame, frames.Refusal):
            await self._error(None, frame.code, frame.message)
            if frame.too_large:
                await self._close_too_large()
            return
        kind = frame["type"]
        if kind == "ping":  # answered now, never behind this socket's requests
            await self.heartbeat.ping()
            return
        if self.party is None and not self.slots.probation:
            return
        if kind == "hello":
            self.clock.heard()
        elif kind == "resync":
            frame["_received_at"] = time.monotonic()  # ours, whatever the client sent
        if acttiming.ON and kind == "act":
            frame["_arrived"] = time.perf_counter()  # ours, whatever the client sent
        self.queue.put(self._request, frame, frame.get("re"))

    async def _request(self, frame: dict[str, Any], re: str | None) -> None:
        # Everything a request says (its errors, through the database threads too:
        # asgiref carries the context there) in this socket's language.
        with translation.override(self.language):
            await self._handle(frame, re)

    async def _handle(self, frame: dict[str, Any], re: str | None) -> None:
        kind = frame["type"]
        if kind == "hello":
            await self._hello(frame, re)
            return
        if self.actor is None:
            await self._error(re, ErrorCode.HELLO_FIRST, _("say hello (with your secret) first"))
            return
        handler = {"act": self._command, "party": self._command, "resync": self._resync_frame}.get(kind)
        if handler is None:
            await self._error(re, ErrorCode.MALFORMED, _("unknown frame type %(type)r") % {"type": kind})
            return
        if kind == "act" and self.actor.role is Role.GUEST and not self.seat.revoked:
            # The seat check and the action in one trip to the database (events/live/act.py).
            self.seat.proven()
            await self._command(frame, re, seat_checked_there=True)
            return
        if await self._seat_revoked(re):
            return
        await handler(frame, re)

    async def _hello(self, frame: dict[str, Any], re: str | None) -> None:
        if self.actor is not None:
            await self._error(re, ErrorCode.ALREADY, _("this connection has already said hello"))
            return
        proof = await hello.prove(
            frame, party=self.party, slots=self.slots, seat=self.seat, socket=self, scope=self.scope
        )
        if isinstance(proof, handshake.Refused):
            await self.refuse(re, proof)
            return
        self.clock.stop()
        self.actor, opened = proof
        self.language = language_of_scope(
            self.scope,
            party_language=self.party.language,
            follows_party=self.actor.role is Role.TABLET,
            room=self.actor.role is Role.SPECTATOR,
        )
        translation.activate(self.language)  # the rest of this request (its snapshot) speaks it
        self.patches = frame.get("patches") is True
        if opened is not None:
            await groups.send_safely(opened.messages)
        await self.snapshots.resync(self, re)  # joins this screen's groups, then the snapshot

    async def _command(self, frame: dict[str, Any], re: str | None, *, seat_checked_there: bool = False) -> None:
        """An `act` or `party` frame: the registry checks, parses and runs it
        (events/party/commands.py); the reply carries what changed, the screens get the rest.
        `seat_checked_there`: a guest's act, whose seat check (as `_seat_revoked`) runs
        in the same database call, just before the action (events/live/act.py)."""
        actor = self.actor
        if actor is None:  # _request answered hello_first
            return
        started = time.perf_counter()
        path = "threads"  # for acttiming: the loop's statement, or the threads
        try:
            if frame["type"] == "act":
                acted = await act.socket_act(
                    actor, frame, secret=self.secret, seat_checked=seat_checked_there, origin=_origin(self.scope)
                )
                if acted is None:  # the seat or its rights changed: decided the usual way
                    if not await self._seat_revoked(re):
                        await self._command(frame, re)
                    return
                outcome, path = acted.outcome, acted.path
            else:  # a party command (seating, the gate, the relay): heavier, and rare
                outcome = await in_db_thread(dispatch)(actor, frame, origin=_origin(self.scope))
        except ServiceError as exc:
            await self.send_frame(error_frame(re, exc))
            if frame["type"] == "act" and exc.code == "stale":
                await self.snapshots.resync(self, None)
            return
        written = time.perf_counter()
        await self.send_frame({"type": "ok", "re": re, **outcome.data})
        if acttiming.ON and frame["type"] == "act":  # `_arrived`: receive's, whatever the client sent
            acttiming.act(path, frame["_arrived"], started, written, time.perf_counter())
        await fanout.publish(outcome.messages)

    async def _resync_frame(self, frame: dict[str, Any], re: str | None) -> None:
        await self.snapshots.answer(self, frame.get("_received_at"), re)

    # --- group messages and fan-out (events/broadcast/fanout.py Listener) -------------------------

    def _in_my_language(self, message: dict[str, Any]) -> str:
        """A group message's JSON; a notice's text (tables/words.py `said`) re-said in
        this socket's language. The English is the JSON as sent: decoded only otherwise."""
        text: str = message["text"]
        carried = message.get("said")
        if carried is None or self.language == settings.LANGUAGE_CODE:
            return text
        payload = json.loads(text)
        payload["message"] = say(carried)
        return json.dumps(payload, separators=(",", ":"))

    async def deliver(self, message: dict[str, Any]) -> None:
        with translation.override(self.language):
            await self._deliver(message)

    async def _deliver(self, message: dict[str, Any]) -> None:
        kind = message["kind"]
        if kind != "removed" and await self.seat_revoked(cached=kind != "resubscribe"):
            return
        if kind == "resubscribe":
            # Seating or a captain change: this screen's groups and view changed.
            if self.actor is None:
                return
            await self.snapshots.resync(self, None)  # reads who this socket is now, and resubscribes
            return
        await self.send(text_data=self._in_my_language(message))  # JSON encoded once, by the sender
        if kind == "removed":
            await self.close(code=4401)
