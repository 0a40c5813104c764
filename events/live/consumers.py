"""The one WebSocket a screen keeps open to its party: authenticate, parse, call one
service, reply. Every request gets exactly one reply (`ok` or `error`, echoing the
client's `re` id); updates arrive as versioned `table` / `party` messages. The socket's
parts are small objects it owns (events/socket/): its frame budget and places in the
socket counts, its request queue, its snapshots, its seat check, its groups, its
presence.

Frames from the client (JSON text, at most events/live/socket/frames.py MAX_FRAME bytes):
  {"type": "hello", "role": "guest"|"host"|"tablet"|"spectator", "token": "...", "patches": true}
  {"type": "act", "re": "<client action id>", "version": 12, "table": 3, "action": {...}}
  {"type": "party", "re": "...", "command": "seat", ...arguments}
  {"type": "resync", "re": "..."}
  {"type": "ping"}
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist

from events.access import gate, peers, ratelimit
from events.broadcast import fanout, groups
from events.live import act, acttiming, stalls
from events.live.presence import guest_socket_opened, server_address
from events.live.socket import frames, handshake
from events.live.socket.db import in_db_thread
from events.live.socket.handshake import origin as _origin
from events.live.socket.limits import FrameBudget, Slots
from events.live.socket.liveness import Presence, pong
from events.live.socket.queue import RequestQueue
from events.live.socket.seat import SeatCheck, rights_now
from events.live.socket.snapshots import Snapshots
from events.live.socket.subscriptions import Subscriptions
from events.party.commands import dispatch
from events.party.roles import Actor, Role
from events.party.secrets import token_hash
from events.party.selectors import actor_for, snapshot_for
from tables import write
from tables.errors import ErrorCode, ServiceError

logger = logging.getLogger(__name__)

# How long a closing socket waits for the request it is handling (an act whose commit
# must still be announced) before it gives up on it: well within daphne's
# application_close_timeout (10 s), after which daphne cancels the consumer and its
# clean-up (presence, groups, fan-out) would not run. An act given up on has still
# committed, or not, in the database; the other screens see it by its version.
FINISH_SECONDS = 5
# A request failed in the server (_failed): the screen should reconnect and resend.
SERVER_ERROR_CLOSE = 4011
# A socket accepted on probation (events/access/gate.py) must prove a secret this fast: a
# phone says hello as soon as its socket opens, and a flood holds its slots briefly.
PROBATION_HELLO_SECONDS = 3.0


class PartyConsumer(AsyncWebsocketConsumer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.actor: Actor | None = None
        self.party: Any = None  # events.models.Party, or None: no party has the code
        self.patches = False  # the screen takes table updates as patches (tables/broadcast.py)
        self.closing = False  # nothing may be sent on this socket any more
        self.hello_timer: asyncio.Task[None] | None = None
        self.hello_seen = False
        self.budget = FrameBudget()
        self.slots = Slots()
        self.queue = RequestQueue(lambda: self.closing, self._failed)
        self.snapshots = Snapshots()
        self.seat = SeatCheck()
        self.subscriptions = Subscriptions()
        self.presence = Presence()

    @property
    def secret(self) -> str | None:
        """A guest's or tablet's token digest (events/live/socket/seat.py)."""
        return self.seat.secret

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
        code = self.scope["url_route"]["kwargs"]["code"]
        self.slots.address = ratelimit.client_address_scope(self.scope)
        # Only a socket showing no sign of belonging to the party counts against its
        # address (events/live/socket/limits.py Slots); one the address limits would refuse
        # is accepted on probation: only a hello with a valid secret is served on it,
        # anything else gets rate_limited and 4429, the same whether its code exists
        # or not. A secret is never locked out by what else comes from its address.
        self.slots.show_pass(code, gate.holds_pass(handshake.cookies(self.scope), code))
        # The rate limit and the party in one trip to the database: in a join burst
        # every trip waits its turn behind hundreds of others.
        allowed, self.party = await in_db_thread(handshake.admit)(self.slots.address, code, self.slots.exempt)
        if not self.slots.count_address(allowed):
            self.party = None
            await self.close(code=4429)  # before accept: the handshake is refused
            return
        await self.accept()
        if self.slots.probation:
            # Nothing is told before a secret: not even whether the code exists.
            self.hello_timer = asyncio.ensure_future(self._close_if_silent(PROBATION_HELLO_SECONDS))
            return
        refused = await handshake.refusal(self.party, exempt=self.slots.exempt, address=self.slots.address)
        if refused is not None:
            await self._refuse(None, refused)
            return
        # A socket that never says hello would hold memory and a slot for ever. The
        # clock starts now, not at accept: frames wait while this handler runs, and in
        # a join burst the database calls above can take seconds.
        self.hello_timer = asyncio.ensure_future(self._close_if_silent())

    def _release_slots(self) -> None:
        """Give back this socket's place in the per-seat and per-address counts (once)."""
        if self.hello_timer is not None and self.hello_timer is not asyncio.current_task():
            self.hello_timer.cancel()
        self.slots.release(self)

    async def disconnect(self, code: int) -> None:
        stalls.forget(self)
        self._release_slots()
        self.closing = True
        await self.queue.finish(FINISH_SECONDS)
        self._release_slots()  # again: a hello finished just now may have taken a seat's slot
        self.presence.stop()
        await self.presence.closed(self.actor, self.channel_name)  # first: PostgreSQL, not Redis
        await fanout.local().untrack(self)  # no more table updates for this socket
        await self.subscriptions.leave_all(self.channel_layer, self.channel_name)

    # --- frames ------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        stalls.heard(self)  # any frame is a sign of life (a ping every 2 s)
        if not self.budget.take():  # first: junk counts too
            # Refused unread, its `re` echoed when it has a plain one: the request is answered.
            await self._error(frames.plain_re(text_data), ErrorCode.RATE_LIMITED, "too many frames; slow down")
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
        if kind == "ping":
            # The heartbeat: answered now, even while this socket's requests wait for the
            # database. A phone that hears nothing for 4 s drops its socket and opens
            # another, whose hello costs more database work: in a join burst of 1,000
            # phones, pings queued behind hellos set off a storm of reconnects.
            await self._pong()
            if self.actor is not None and self.actor.role is Role.GUEST:
                # A screen that pings keeps pinging (every 2 s): gone quiet, it is dead.
                # One that never pinged (a script, a bot) is not held to it.
                stalls.pinged(self)
            return
        if self.party is None and not self.slots.probation:
            return
        if kind == "hello":
            self.hello_seen = True  # queued: the silence timer must not close it now
        elif kind == "resync":
            frame["_received_at"] = time.monotonic()  # ours, whatever the client sent
        if acttiming.ON and kind == "act":
            frame["_arrived"] = time.perf_counter()  # ours, whatever the client sent
        self.queue.put(self._request, frame, frame.get("re"))

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

    async def _request(self, frame: dict[str, Any], re: str | None) -> None:
        kind = frame["type"]
        if kind == "hello":
            await self._hello(frame, re)
            return
        if self.actor is None:
            await self._error(re, ErrorCode.HELLO_FIRST, "say hello (with your secret) first")
            return
        handler = {"act": self._command, "party": self._command, "resync": self._resync_frame}.get(kind)
        if handler is None:
            await self._error(re, ErrorCode.MALFORMED, f"unknown frame type {kind!r}")
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
            await self._error(re, ErrorCode.ALREADY, "this connection has already said hello")
            return
        role = frame.get("role")
        if self.party is None or (self.slots.probation and (role == Role.SPECTATOR.value or self.party.expired)):
            # On probation (events/access/gate.py): only a secret is served, and an unknown
            # code answers as a known one does.
            await self._refuse(re, handshake.RATE_LIMITED)
            return
        actor, opened = await in_db_thread(_identify)(
            self.party, role, frame.get("token"), self.channel_name, server_address(self.scope)
        )
        if actor is None:
            await self._refuse(re, handshake.RATE_LIMITED if self.slots.probation else handshake.BAD_SECRET)
            return
        if actor.role is not Role.SPECTATOR:
            self.slots.proven()  # a secret proved: this socket no longer counts against its address
        if actor.role is Role.GUEST and actor.guest_id is not None:
            for old in self.slots.open_seat(actor.guest_id, self):
                await old.replaced()
            self.slots.seat_key = actor.guest_id
        if self.hello_timer is not None:
            self.hello_timer.cancel()
        self.actor = actor
        if actor.role is not Role.SPECTATOR:  # a secret opened it: bin/serve's front door stops counting it
            peers.secret_proven(self.scope.get("client"))
        self.patches = frame.get("patches") is True
        if actor.role in (Role.GUEST, Role.TABLET):
            self.seat.proven(token_hash(frame["token"]))  # to notice a hand-over or an unpairing
        if opened is not None:
            await groups.send_safely(opened.messages)
        await self._resync(frame, re)  # joins this screen's groups, then the snapshot

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
            await self._send(_error_frame(re, exc))
            if frame["type"] == "act" and exc.code == "stale":
                await self._resync(frame, None)
            return
        written = time.perf_counter()
        await self._send({"type": "ok", "re": re, **outcome.data})
        if acttiming.ON and frame["type"] == "act":  # `_arrived`: receive's, whatever the client sent
            acttiming.act(path, frame["_arrived"], started, written, time.perf_counter())
        await fanout.publish(outcome.messages)

    async def _resync_frame(self, frame: dict[str, Any], re: str | None) -> None:
        """A client's resync: a flood of them is answered from the snapshot this socket
        was last sent (events/live/socket/snapshots.py)."""
        if not await self.snapshots.answer_from_cache(self, frame.get("_received_at"), re):
            await self._resync(frame, re)

    async def _resync(self, frame: dict[str, Any], re: str | None) -> None:
        read_at = self.snapshots.reading(self)
        try:
            # Who this socket is was just read from the database (_seat_revoked before
            # every frame and `resubscribe`, actor_for at hello), so a seating or captain
            # change whose broadcast was lost (Redis down) is already taken; join the
            # groups that go with it, retrying any a Redis outage left out.
            await self._subscribe()
            snapshot = await in_db_thread(_snapshot)(self._actor())
        except ObjectDoesNotExist:  # the expiry sweep deleted the party under this socket
            await self._error(re, ErrorCode.NO_PARTY, "this party no longer exists")
            await self.close(code=4404)
            return
        await self.snapshots.send(self, snapshot, read_at, re)

    # --- group messages and fan-out (events/broadcast/fanout.py Listener) -------------------------

    async def deliver(self, message: dict[str, Any]) -> None:
        kind = message["kind"]
        if kind != "removed" and await self.seat_revoked(cached=kind != "resubscribe"):
            return
        if kind == "resubscribe":
            # Seating or a captain change: this screen's groups and view changed.
            if self.actor is None:
                return
            await self._resync({}, None)  # reads who this socket is now, and resubscribes
            return
        await self.send(text_data=message["text"])  # JSON encoded once, by the sender
        if kind == "removed":
            await self.close(code=4401)

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

    _seat_revoked = seat_revoked  # the name the act dispatch (_command) calls

    async def _revoke(self, re: str | None, error: str, notice: str) -> None:
        """This socket lost its seat or tablet: answer the request it was handling, say
        why, and close it for good."""
        if re is not None:
            await self._error(re, ErrorCode.REMOVED, error)
        await self._send({"type": "removed", "message": notice})
        self.seat.revoked = True
        await self.close(code=4401)

    async def _refresh_rights(self, row: dict[str, Any]) -> None:
        """The guest's rights as its row says now (events/live/socket/seat.py); its groups follow."""
        fresh = rights_now(self._actor(), row)
        if fresh == self.actor:
            return
        self.actor = fresh
        try:
            await self._subscribe()
        except Exception:  # Redis down: the groups catch up on the next resubscribe
            logger.warning("resubscribe after a role change failed", exc_info=True)

    async def _subscribe(self) -> None:
        await self.subscriptions.follow(self._actor(), self.channel_layer, self.channel_name, self)

    async def _resubscribe(self) -> None:
        self.subscriptions.resubscribing = False
        if not self.subscriptions.subscribed:
            await self._subscribe()

    # --- heartbeat ---------------------------------------------------------------------

    async def _pong(self) -> None:
        # A seating makes one process read a snapshot for each of a party's sockets at
        # once (a party's sockets share a daphne: deploy/nginx.conf); a pong that told a
        # screen of the new revision before its snapshot came made it resync, one more
        # read each (bench/party.py: 47-157 resyncs at seating in ten 100-guest parties).
        # The snapshot on its way brings the screen up to date; until it is sent,
        # pongs go without versions, as when the read is slow.
        current = self.actor is not None and not self.seat.revoked and not self.snapshots.awaited()
        payload = await pong(self.actor, versions=current)
        subs = self.subscriptions
        if current and not subs.subscribed and not subs.resubscribing:
            subs.resubscribing = True
            self.queue.put(self._resubscribe)
        await self._send(payload)
        self.presence.touch(self.actor, self.channel_name)

    async def stalled(self) -> None:
        """No frame for stalls.STALL_SECONDS or more (a phone pings every 2 s): the line is
        dead though the socket looks open. The host sees the guest offline now, not when
        daphne's own ping gives up (37-45 s); the phone has already opened another
        socket, or will when its line comes back."""
        if self.closing or self.actor is None:
            return
        logger.info("guest %s: socket silent for %.0f s, closed", self.actor.guest_id, stalls.STALL_SECONDS)
        try:
            await self.presence.closed(self.actor, self.channel_name)
        finally:
            await self.close(code=4408)  # disconnect() then says the same again: harmless

    # --- sending and closing -----------------------------------------------------------

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
        await self._send({"type": "replaced", "message": "This seat is open on newer screens, so this one stopped."})
        await self.close(code=4409)

    async def _close_if_silent(self, seconds: float | None = None) -> None:
        await asyncio.sleep(
            settings.HELLO_TIMEOUT_SECONDS if seconds is None else min(seconds, settings.HELLO_TIMEOUT_SECONDS)
        )
        if self.actor is None and not self.hello_seen:
            await self._error(None, ErrorCode.HELLO_TIMEOUT, "say hello within a few seconds of connecting")
            await self.close(code=4408)

    async def _close_too_large(self) -> None:
        try:
            await self.close(code=1009)  # RFC 6455: message too big
        except Exception:
            # daphne (autobahn) lets an application send only 1000 or 3000-4999 and
            # raised here, which crashed the consumer (the client saw 1011). The same
            # meaning in the private range. (Started with --websocket-max-message-size
            # 4096, daphne itself closes oversized frames with 1009 before we see them.)
            await self.close(code=4009)

    async def _send(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(payload, separators=(",", ":")))

    async def _refuse(self, re: str | None, refused: handshake.Refused) -> None:
        await self._error(re, refused.code, refused.message)
        await self.close(code=refused.close)

    async def _error(self, re: str | None, code: str, message: str) -> None:
        await self._send({"type": "error", "re": re, "code": code, "message": message})

    def _actor(self) -> Actor:
        """The actor of a socket that said hello (every caller runs after it)."""
        assert self.actor is not None
        return self.actor


def _error_frame(re: str | None, exc: ServiceError) -> dict[str, Any]:
    """The socket's one mapping of the error family (tables/errors.py) to a frame."""
    return {"type": "error", "re": re, "code": exc.code, "message": str(exc)}


def _identify(party: Any, role: Any, token: Any, channel: str, server: str) -> tuple[Actor | None, Any]:
    """A hello: (the actor its secret opens or None, and for a guest the Outcome of
    marking the socket online), in one database call."""
    actor = actor_for(party=party, role=role, token=token)
    if actor is None or actor.role is not Role.GUEST or actor.guest_id is None:
        return actor, None
    opened = guest_socket_opened(party_id=actor.party_id, guest_id=actor.guest_id, channel=channel, server=server)
    return actor, opened


def _snapshot(actor: Actor) -> dict[str, Any]:
    """What this screen is sent, and this process's copy of the screen's table row
    taken if it has none (write.warm): the table's first action is then decided on the
    copy and written from the loop, like every other."""
    snapshot: dict[str, Any] = snapshot_for(actor)
    if actor.table_id is not None:
        write.warm(table_id=actor.table_id, party_id=actor.party_id)
    return snapshot
