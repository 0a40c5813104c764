"""The one WebSocket a screen keeps open to its party: authenticate, parse, call one
service, reply. Every request gets exactly one reply (`ok` or `error`, echoing the
client's `re` id); updates arrive as versioned `table` / `party` messages.

Frames from the client (JSON text, at most MAX_FRAME bytes):
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
import math
import time
from collections import deque

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.http.cookie import parse_cookie
from django.utils import timezone

from events.access import gate, peers, ratelimit
from events.broadcast import groups
from events.live import act, acttiming, fastread, heartbeat, socket_limits, stalls
from events.live.presence import guest_socket_closed, guest_socket_opened, guest_socket_seen, server_address
from events.live.socket_limits import TokenBucket
from events.party.commands import dispatch
from events.party.roles import Actor, Role, groups_for
from events.party.secrets import token_hash
from events.party.selectors import actor_for, party_by_code, snapshot_for
from tables import write
from tables.errors import ServiceError

from . import fanout
from .models import Tablet

logger = logging.getLogger(__name__)

MAX_FRAME = 4096  # the largest legal frame is a few hundred bytes
CLIENT_ID_MAX = 64
REVALIDATE_SECONDS = 10  # how stale a socket's proof of its seat may be for broadcasts
# How long a closing socket waits for the request it is handling (an act whose commit
# must still be announced) before it gives up on it: well within daphne's
# application_close_timeout (10 s), after which daphne cancels the consumer and its
# clean-up (presence, groups, fan-out) would not run. An act given up on has still
# committed, or not, in the database; the other screens see it by its version.
FINISH_SECONDS = 5
# A request failed in the server (_work): the screen should reconnect and resend.
SERVER_ERROR_CLOSE = 4011
# At most this long after a `resubscribe`, pongs wait for its snapshot rather than tell
# the screen it is behind (_pong): should the snapshot never come, the screen's safety
# net is late by this much, never gone.
SNAPSHOT_DUE_SECONDS = 10.0
# A socket accepted on probation (events/access/gate.py) must prove a secret this fast: a
# phone says hello as soon as its socket opens, and a flood holds its slots briefly.
PROBATION_HELLO_SECONDS = 3.0


class PartyConsumer(AsyncWebsocketConsumer):
    async def dispatch(self, message):
        # Skip Channels' hop to a thread that closes stale DB connections before every
        # handler (it halved broadcast throughput): group deliveries touch no
        # database, and every handler that does goes through write.run_in_db_thread
        # (database_sync_to_async), which closes stale connections in its own thread
        # before and after.
        if message["type"] == "deliver":
            # In order with this socket's requests: a `resubscribe` reads the database,
            # and group messages kept their order with the replies before.
            if message.get("kind") == "resubscribe" and self.snapshot_due is None:
                self.snapshot_due = time.monotonic()
            self._queue(self.deliver, message)
            return
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    # --- lifecycle ---------------------------------------------------------------------

    async def connect(self):
        acttiming.start_sampling()
        self.actor: Actor | None = None
        self.joined: set[str] = set()
        self.last_seen_write = 0.0
        self.secret: str | None = None  # a guest's token digest, to notice a hand-over
        self.patches = False  # the screen takes table updates as patches (tables/broadcast.py)
        self.secret_checked = 0.0
        self.revoked = False
        self.party = None
        self.closing = False
        self.subscribed = True  # every group this socket wants is joined
        self.seat_key = None  # counted in socket_limits.seats once a guest said hello
        self.address = ratelimit.client_address_scope(self.scope)
        self.address_counted = False
        self.exempt = False
        self.probation = False
        self.pass_key = ""
        self.pass_counted = False
        self.frames = TokenBucket(*settings.FRAME_RATE[:2])
        self.refused_in_a_row = 0
        self.resyncs = TokenBucket(1 / settings.RESYNC_RATE[1], settings.RESYNC_RATE[0])
        self.last_snapshot: dict | None = None
        self.last_snapshot_at = 0.0  # when it was read (the read ended)
        self.last_snapshot_read_at = 0.0  # when its read began
        self.hello_timer: asyncio.Task | None = None
        self.hello_seen = False
        # A socket handles its frames one at a time, in order, in its own task (_work);
        # a ping is answered at once, never behind them (see receive).
        self.requests: deque = deque()
        self.worker: asyncio.Task | None = None
        self.touching: asyncio.Task | None = None
        self.resubscribing = False
        # Since when a `resubscribe` has promised this socket a snapshot it has not yet
        # been sent: its pongs leave out the versions meanwhile (see _pong).
        self.snapshot_due: float | None = None
        code = self.scope["url_route"]["kwargs"]["code"]
        # A whole party shares the venue's address: the address limits (miss guard,
        # connect rate, open sockets) apply only to sockets that show no sign of
        # belonging to the party (events/access/gate.py). The party's pass, sent with the
        # handshake, exempts a socket at once; a socket without it that the address
        # limits would refuse is still accepted "on probation": only a hello with a
        # valid secret (guest, host, tablet) is served on it, anything else gets
        # rate_limited and 4429, the same whether its code exists or not. A secret is
        # never locked out by what else comes from its address.
        self.exempt = gate.holds_pass(_cookies(self.scope), code)
        self.probation = False
        if self.exempt:
            # Anyone who joined the party holds its pass: its sockets without a secret
            # are capped per party instead (a big screen or two), not per address.
            self.pass_key = code.upper()
            if socket_limits.passes.add(self.pass_key, settings.SOCKET_LIMITS["per_address"]):
                self.pass_counted = True
            else:
                self.exempt = False
        # The rate limit and the party in one trip to the database: in a join burst
        # every trip waits its turn behind hundreds of others.
        allowed, self.party = await write.run_in_db_thread(_admit)(self.address, code, self.exempt)
        if not self.exempt:
            if allowed and socket_limits.addresses.add(self.address, settings.SOCKET_LIMITS["per_address"]):
                self.address_counted = True
            elif socket_limits.probation.add(self.address, settings.SOCKET_LIMITS["per_address"]):
                self.probation = True  # counted apart: probation sockets are capped too
            else:
                self.party = None
                await self.close(code=4429)  # before accept: the handshake is refused
                return
        await self.accept()
        if self.probation:
            # Nothing is told before a secret: not even whether the code exists.
            self.hello_timer = asyncio.ensure_future(self._close_if_silent(PROBATION_HELLO_SECONDS))
            return
        if self.party is None:
            # A guessed code: one miss, counted before the answer (the miss past the
            # limit is answered as every other refusal of the guard is).
            if self.exempt or await write.run_in_db_thread(ratelimit.allow)("miss", self.address):
                await self._error(None, "no_party", "no party has that code")
                await self.close(code=4404)
            else:
                await self._error(None, "rate_limited", "too many attempts from here; wait a few minutes")
                await self.close(code=4429)
        elif self.party.expired:
            await self._error(None, "expired", "this party has expired (parties last seven days)")
            await self.close(code=4410)
        else:
            # A socket that never says hello would hold memory and a slot for ever. The
            # clock starts now, not at accept: frames wait while this handler runs, and
            # in a join burst the database calls above can take seconds.
            self.hello_timer = asyncio.ensure_future(self._close_if_silent())

    def _release_slots(self):
        """Give back this socket's place in the per-seat and per-address counts (once)."""
        timer = getattr(self, "hello_timer", None)  # None before connect() set it up
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()
        if getattr(self, "address_counted", False):
            socket_limits.addresses.remove(self.address)
            self.address_counted = False
        if getattr(self, "probation", False):
            socket_limits.probation.remove(self.address)
            self.probation = False
        if getattr(self, "pass_counted", False):
            socket_limits.passes.remove(self.pass_key)
            self.pass_counted = False
        if getattr(self, "seat_key", None) is not None:
            socket_limits.seats.remove(self.seat_key, self)
            self.seat_key = None

    async def disconnect(self, code):
        stalls.forget(self)
        self._release_slots()
        self.closing = True  # nothing may be sent on this socket any more
        await self._finish_requests()
        self._release_slots()  # again: a hello finished just now may have taken a seat's slot
        if self.touching is not None:
            self.touching.cancel()
        # The presence count first: it is in PostgreSQL and must not depend on Redis.
        if self.actor is not None and self.actor.role is Role.GUEST:
            closed = await write.run_in_db_thread(guest_socket_closed)(
                party_id=self.actor.party_id, guest_id=self.actor.guest_id, channel=self.channel_name
            )
            await groups.send_safely(closed.messages)
        await fanout.local().untrack(self)  # no more table updates for this socket
        for group in list(self.joined):
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:  # Redis is down: its subscriptions die with it anyway
                logger.warning("group_discard(%s) failed", group, exc_info=True)
        self.joined.clear()

    # --- frames ------------------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        stalls.heard(self)  # any frame is a sign of life (a ping every 2 s)
        if not await self._within_frame_rate(text_data):  # first: junk counts too
            return
        if text_data is None:
            await self._error(None, "malformed", "send JSON text frames")
            return
        if len(text_data) > MAX_FRAME // 4 and len(text_data.encode("utf-8", "surrogatepass")) > MAX_FRAME:
            await self._error(None, "too_large", f"frames are limited to {MAX_FRAME} bytes")
            await self._close_too_large()
            return
        try:
            frame = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: [[[[... nested past the parser's depth
            await self._error(None, "malformed", "that frame is not JSON")
            return
        if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
            await self._error(None, "malformed", "a frame is a JSON object with a type")
            return
        re = frame.get("re")
        if re is not None and (not isinstance(re, str) or len(re) > CLIENT_ID_MAX or not re.isprintable()):
            # printable: an act's id is stored with the action, and PostgreSQL refuses NUL
            # and lone surrogates (the query would crash the consumer)
            await self._error(None, "malformed", f"re must be a printable string of at most {CLIENT_ID_MAX} characters")
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
        if self.party is None and not self.probation:
            return
        if kind == "hello":
            self.hello_seen = True  # queued: the silence timer must not close it now
        elif kind == "resync":
            frame["_received_at"] = time.monotonic()  # ours, whatever the client sent
        if acttiming.ON and kind == "act":
            frame["_arrived"] = time.perf_counter()  # ours, whatever the client sent
        self._queue(self._request, frame, re)

    def _queue(self, handler, *args) -> None:
        """Run `handler(*args)` after every request and group message before it."""
        if self.closing:
            return
        self.requests.append((handler, args))
        if self.worker is None or self.worker.done():
            self.worker = asyncio.ensure_future(self._work())

    async def _work(self) -> None:
        while self.requests and not self.closing:
            handler, args = self.requests.popleft()
            try:
                await handler(*args)
            except asyncio.CancelledError:
                raise
            except Exception:
                # The socket closes and the screen reconnects, resends its unanswered
                # request with the same `re` (applied once) and resyncs. 4011: 1011's
                # meaning (a server error) in the private range, as daphne (autobahn)
                # lets an application close only with 1000 or 3000-4999: with 1011 the
                # close itself raised, the socket stayed open and the request was never
                # answered (PostgreSQL restarted under an act: the table stalled).
                logger.exception("socket request failed")
                self.requests.clear()
                try:
                    await self.close(code=SERVER_ERROR_CLOSE)
                except Exception:
                    logger.warning("closing after a failed request failed", exc_info=True)
                return

    async def _finish_requests(self) -> None:
        """The socket closed: drop the requests not yet started, but let the one in hand
        finish (an act that committed still announces itself to the table)."""
        self.requests.clear()
        worker = self.worker
        if worker is None or worker.done() or worker is asyncio.current_task():
            return
        try:
            async with asyncio.timeout(FINISH_SECONDS):
                await asyncio.shield(worker)
        except TimeoutError:
            worker.cancel()
        except Exception:
            pass  # logged by _work

    async def _request(self, frame, re):
        kind = frame["type"]
        if kind == "hello":
            await self._hello(frame, re)
            return
        if self.actor is None:
            await self._error(re, "hello_first", "say hello (with your secret) first")
            return
        handler = {"act": self._command, "party": self._command, "resync": self._resync_frame}.get(kind)
        if handler is None:
            await self._error(re, "malformed", f"unknown frame type {kind!r}")
            return
        if kind == "act" and self.actor.role is Role.GUEST and not self.revoked:
            # The seat check and the action in one trip to the database (events/live/act.py).
            self.secret_checked = time.monotonic()
            await self._command(frame, re, seat_checked_there=True)
            return
        if await self._seat_revoked(re):
            return
        await handler(frame, re)

    async def _hello(self, frame, re):
        if self.actor is not None:
            await self._error(re, "already", "this connection has already said hello")
            return
        role = frame.get("role")
        if self.party is None or (self.probation and (role == Role.SPECTATOR.value or self.party.expired)):
            # On probation (events/access/gate.py): only a secret is served, and an unknown
            # code answers as a known one does.
            await self._error(re, "rate_limited", "too many attempts from here; wait a few minutes")
            await self.close(code=4429)
            return
        actor, opened = await write.run_in_db_thread(_identify)(
            self.party, role, frame.get("token"), self.channel_name, server_address(self.scope)
        )
        if actor is None and self.probation:
            await self._error(re, "rate_limited", "too many attempts from here; wait a few minutes")
            await self.close(code=4429)
            return
        if actor is None:
            await self._error(re, "bad_secret", "that secret does not open a seat at this party")
            await self.close(code=4403)
            return
        if actor.role is not Role.SPECTATOR:
            # A secret proved: this socket no longer counts against its address.
            if self.address_counted:
                socket_limits.addresses.remove(self.address)
                self.address_counted = False
            if self.probation:
                socket_limits.probation.remove(self.address)
                self.probation = False
            if self.pass_counted:
                socket_limits.passes.remove(self.pass_key)
                self.pass_counted = False
        if actor.role is Role.GUEST:
            for old in socket_limits.seats.add(actor.guest_id, self, settings.SOCKET_LIMITS["per_seat"]):
                await old._replaced()
            self.seat_key = actor.guest_id
        if self.hello_timer is not None:
            self.hello_timer.cancel()
        self.actor = actor
        if actor.role is not Role.SPECTATOR:  # a secret opened it: bin/serve's front door stops counting it
            peers.secret_proven(self.scope.get("client"))
        self.patches = frame.get("patches") is True
        if actor.role in (Role.GUEST, Role.TABLET):
            self.secret = token_hash(frame["token"])  # to notice a hand-over or an unpairing
            self.secret_checked = time.monotonic()  # just proven
        if opened is not None:
            await groups.send_safely(opened.messages)
        await self._resync(frame, re)  # joins this screen's groups, then the snapshot

    async def _command(self, frame, re, *, seat_checked_there: bool = False):
        """An `act` or `party` frame: the registry checks, parses and runs it
        (events/party/commands.py); the reply carries what changed, the screens get the rest.
        `seat_checked_there`: a guest's act, whose seat check (as `_seat_revoked`) runs
        in the same database call, just before the action (events/live/act.py)."""
        started = time.perf_counter()
        path = "threads"  # for acttiming: the loop's statement, or the threads
        try:
            if frame["type"] == "act":
                acted = await act.socket_act(
                    self.actor, frame, secret=self.secret, seat_checked=seat_checked_there, origin=_origin(self.scope)
                )
                if acted is None:  # the seat or its rights changed: decided the usual way
                    if not await self._seat_revoked(re):
                        await self._command(frame, re)
                    return
                outcome, path = acted.outcome, acted.path
            else:  # a party command (seating, the gate, the relay): heavier, and rare
                outcome = await write.run_in_db_thread(dispatch)(self.actor, frame, origin=_origin(self.scope))
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

    async def _resync_frame(self, frame, re):
        """A client's resync. Beyond RESYNC_RATE, a flood of them is answered with the
        snapshot this socket was last sent, not a new read of the database; never one
        older than the bucket's refill period, so a phone that is really behind
        catches up within it. Like every snapshot, it is followed by the table updates
        this socket was sent since it was read (`_send_snapshot`)."""
        fresh_enough = time.monotonic() - self.last_snapshot_at < settings.RESYNC_RATE[1]
        # A snapshot whose read began after this frame arrived is as new as it asks
        # for: resyncs piled up behind a slow read (a gap, then a pong, then another)
        # are answered by that read, not each by one more.
        newer = self.last_snapshot_read_at >= frame.get("_received_at", math.inf)
        if self.last_snapshot is not None and fresh_enough and (newer or not self.resyncs.take()):
            since = fanout.local().recorded(self)
            if since is not None:
                await self._send_snapshot({**self.last_snapshot, "re": re, "cached": True}, since)
                return
        await self._resync(frame, re)

    async def _resync(self, frame, re):
        fan = fanout.local()
        fan.record(self)  # what this socket is sent from now on
        read_at = time.monotonic()
        try:
            # Who this socket is was just read from the database (_seat_revoked before
            # every frame and `resubscribe`, actor_for at hello), so a seating or captain
            # change whose broadcast was lost (Redis down) is already taken; join the
            # groups that go with it, retrying any a Redis outage left out.
            await self._subscribe()
            snapshot = await write.run_in_db_thread(_snapshot)(self.actor)
        except ObjectDoesNotExist:  # the expiry sweep deleted the party under this socket
            await self._error(re, "no_party", "this party no longer exists")
            await self.close(code=4404)
            return
        self.last_snapshot, self.last_snapshot_at, self.last_snapshot_read_at = snapshot, time.monotonic(), read_at
        fan.keep(self, settings.RESYNC_RATE[1])  # as long as the snapshot is cached
        await self._send_snapshot({**snapshot, "re": re} if re is not None else snapshot, fan.recorded(self) or [])
        if self.snapshot_due is not None and read_at >= self.snapshot_due:
            self.snapshot_due = None  # read after the seating (or captain change) that promised it

    async def _send_snapshot(self, snapshot: dict, since: list[str]) -> None:
        """The snapshot, then the table updates this socket was sent since it was read:
        one committed during the read reached the screen first, and the older snapshot
        would take the screen back (events/fanout.py). The screen drops what it has."""
        fan = fanout.local()
        fan.hold(self)  # nothing new between the snapshot and its replay
        try:
            await self._send(snapshot)
            for text in since:
                await self.send(text_data=text)
        finally:
            fan.release(self)

    # --- group messages ----------------------------------------------------------------

    async def deliver(self, message):
        kind = message["kind"]
        if kind != "removed" and await self._seat_revoked(cached=kind != "resubscribe"):
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
        """For events/fanout.py: must `_seat_revoked(cached=True)` run (and maybe wait
        for the database) before this socket is passed its next table update?"""
        if self.revoked:
            return True
        if self.actor is None or self.actor.role not in (Role.GUEST, Role.TABLET):
            return False
        return time.monotonic() - self.secret_checked >= REVALIDATE_SECONDS

    # --- helpers -----------------------------------------------------------------------

    async def _seat_revoked(self, re=None, *, cached: bool = False) -> bool:
        """A guest's seat can be handed to a substitute (a new secret) while this socket
        is open. The claim broadcasts `removed` to close it, but a broadcast can be lost
        (Redis down), so before acting, resyncing or passing on a seat's private view,
        check the secret this socket said hello with still opens the seat (for
        broadcasts, at most every REVALIDATE_SECONDS). True: the socket was closed."""
        if self.revoked:
            return True
        if self.actor is None or self.actor.role not in (Role.GUEST, Role.TABLET):
            return False
        now = time.monotonic()
        if cached and now - self.secret_checked < REVALIDATE_SECONDS:
            return False
        self.secret_checked = now
        if self.actor.role is Role.TABLET:
            # The host may unpair a tablet; its `removed` broadcast can be lost too.
            if await write.run_in_db_thread(_holds_tablet)(self.actor.tablet_id, self.secret):
                return False
            await self._revoke(re, "the host unpaired this tablet", "The host unpaired this tablet.")
            return True
        row = await write.run_in_db_thread(_seat_row)(self.actor.guest_id)
        if row is None or (row["token_hash"] == self.secret and row["removed_at"] is None):
            if row is not None:
                await self._refresh_rights(row)
            return False
        await self._revoke(re, "this device no longer holds the seat", "Your seat was handed over to a substitute.")
        return True

    async def _revoke(self, re, error: str, notice: str) -> None:
        """This socket lost its seat or tablet: answer the request it was handling, say
        why, and close it for good."""
        if re is not None:
            await self._error(re, "removed", error)
        await self._send({"type": "removed", "message": notice})
        self.revoked = True
        await self.close(code=4401)

    async def _refresh_rights(self, row: dict) -> None:
        """Rights come from the database row just read, never from the hello: a captain
        demoted (or promoted) while its `resubscribe` broadcast was lost acts with the
        role the database gives it now, and its groups follow."""
        fresh = Actor(
            Role.GUEST,
            self.actor.party_id,
            guest_id=self.actor.guest_id,
            table_id=row["table_id"],
            seat=row["seat"],
            captain=row["is_captain"],
        )
        if fresh == self.actor:
            return
        self.actor = fresh
        try:
            await self._subscribe()
        except Exception:  # Redis down: the groups catch up on the next resubscribe
            logger.warning("resubscribe after a role change failed", exc_info=True)

    async def _subscribe(self):
        """Join the groups the actor may read, leave the others. A failure (Redis down)
        leaves that group out of `joined`, so the next call (a resync, a ping) retries:
        the socket works for its own requests meanwhile and catches up by versions."""
        if self.actor.role in (Role.GUEST, Role.TABLET):
            wanted = groups_for(self.actor)  # from the actor alone: no trip to the database
        else:
            wanted = await write.run_in_db_thread(groups_for)(self.actor)  # the party's tables
        for group in self.joined - wanted:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
                self.joined.discard(group)
            except Exception:
                logger.warning("group_discard(%s) failed; retried later", group, exc_info=True)
        for group in wanted - self.joined:
            try:
                await self.channel_layer.group_add(group, self.channel_name)
                self.joined.add(group)
            except Exception:
                logger.warning("group_add(%s) failed; retried later", group, exc_info=True)
        self.subscribed = self.joined == wanted
        await fanout.local().track(self, self.joined)  # table updates: the streams of these groups

    async def _pong(self):
        """The reply to a ping carries the versions of what this socket reads (its
        party's revision, its tables' versions): a screen that missed broadcasts sees
        it is behind within one heartbeat and resyncs, whatever the channel layer did."""
        pong = {"type": "pong", "server_time": timezone.now().timestamp()}
        # A seating makes one process read a snapshot for each of a party's sockets at
        # once (a party's sockets share a daphne: deploy/nginx.conf); a pong that told a
        # screen of the new revision before its snapshot came made it resync, one more
        # read each (bench/party.py: 47-157 resyncs at seating in ten 100-guest parties).
        # The snapshot on its way brings the screen up to date; until it is sent (at
        # most SNAPSHOT_DUE_SECONDS), pongs go without versions, as when the read is slow.
        due = self.snapshot_due is not None and time.monotonic() - self.snapshot_due < SNAPSHOT_DUE_SECONDS
        if self.actor is not None and not self.revoked and not due:
            try:
                # At most heartbeat.PONG_WAIT for the database; without the versions, the
                # pong still says the socket is alive, and the next one carries them.
                versions = heartbeat.fresh_versions(self.actor) or await heartbeat.versions_within(self.actor)
            except ObjectDoesNotExist:
                versions = None  # the party is gone; the next request says so
            if versions is not None:
                pong.update(versions)
            if not self.subscribed and not self.resubscribing:
                self.resubscribing = True
                self._queue(self._resubscribe)
        await self._send(pong)
        self._touch()

    async def stalled(self):
        """No frame for stalls.STALL_SECONDS or more (a phone pings every 2 s): the line is dead
        though the socket looks open. The host sees the guest offline now, not when
        daphne's own ping gives up (37-45 s); the phone has already opened another
        socket, or will when its line comes back."""
        if self.closing or self.actor is None:
            return
        logger.info("guest %s: socket silent for %.0f s, closed", self.actor.guest_id, stalls.STALL_SECONDS)
        try:
            closed = await write.run_in_db_thread(guest_socket_closed)(
                party_id=self.actor.party_id, guest_id=self.actor.guest_id, channel=self.channel_name
            )
            await groups.send_safely(closed.messages)
        finally:
            await self.close(code=4408)  # disconnect() then says the same again: harmless

    async def _resubscribe(self):
        self.resubscribing = False
        if not self.subscribed:
            await self._subscribe()

    def _touch(self) -> None:
        """Refresh this guest's presence row (every 20 s), in the background: the pong
        has gone, and nothing on this socket waits for the write."""
        if self.actor is None or self.actor.role is not Role.GUEST:
            return
        if self.touching is not None and not self.touching.done():
            return
        now = timezone.now().timestamp()
        if now - self.last_seen_write > 20:
            self.last_seen_write = now
            self.touching = asyncio.ensure_future(self._write_seen(self.actor.guest_id))

    async def _write_seen(self, guest_id: int) -> None:
        try:
            await write.run_in_db_thread(guest_socket_seen)(guest_id=guest_id, channel=self.channel_name)
        except asyncio.CancelledError:
            raise
        except Exception:  # the next ping tries again; ONLINE_GRACE covers a few misses
            self.last_seen_write = 0.0
            logger.warning("presence refresh failed", exc_info=True)

    async def send(self, text_data=None, bytes_data=None, close=False):
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

    async def close(self, code=None, reason=None):
        self._release_slots()  # at once: the seat's slot is free for the next screen
        if getattr(self, "closing", False):
            return
        await super().close(code=code, reason=reason)  # may raise: _close_too_large retries
        self.closing = True

    async def _within_frame_rate(self, text_data) -> bool:
        """The per-socket frame budget (FRAME_RATE). A frame over it is refused without
        being handled (its `re` echoed when it has a plain one, so the sender's request
        is answered); a socket that keeps sending regardless is closed."""
        if self.frames.take():
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        await self._error(_plain_re(text_data), "rate_limited", "too many frames; slow down")
        if self.refused_in_a_row >= settings.FRAME_RATE[2]:
            await self.close(code=4429)
        return False

    async def _replaced(self):
        """A newer screen opened this seat past its cap: this, the oldest, gives way."""
        self.seat_key = None  # its place went to the newer screen
        await self._send({"type": "replaced", "message": "This seat is open on newer screens, so this one stopped."})
        await self.close(code=4409)

    async def _close_if_silent(self, seconds: float | None = None):
        await asyncio.sleep(
            settings.HELLO_TIMEOUT_SECONDS if seconds is None else min(seconds, settings.HELLO_TIMEOUT_SECONDS)
        )
        if self.actor is None and not self.hello_seen:
            await self._error(None, "hello_timeout", "say hello within a few seconds of connecting")
            await self.close(code=4408)

    async def _close_too_large(self):
        try:
            await self.close(code=1009)  # RFC 6455: message too big
        except Exception:
            # daphne (autobahn) lets an application send only 1000 or 3000-4999 and
            # raised here, which crashed the consumer (the client saw 1011). The same
            # meaning in the private range. (Started with --websocket-max-message-size
            # 4096, daphne itself closes oversized frames with 1009 before we see them.)
            await self.close(code=4009)

    async def _send(self, payload):
        await self.send(text_data=json.dumps(payload, separators=(",", ":")))

    async def _error(self, re, code, message):
        await self._send({"type": "error", "re": re, "code": code, "message": message})


def _error_frame(re: str | None, exc: ServiceError) -> dict:
    """The socket's one mapping of the error family (tables/errors.py) to a frame."""
    return {"type": "error", "re": re, "code": exc.code, "message": str(exc)}


def _origin(scope) -> str:
    """The page's origin, as the browser sent it with the handshake (the origin
    validator has already checked it is one of ours)."""
    for name, value in scope.get("headers", []):
        if name == b"origin":
            origin = value.decode("latin-1")
            return origin if origin.startswith(("http://", "https://")) else ""
    return ""


def _plain_re(text_data) -> str | None:
    """The `re` of a frame refused unread, if it is a JSON object with a printable one."""
    if not isinstance(text_data, str) or len(text_data) > MAX_FRAME:
        return None
    try:
        frame = json.loads(text_data)
    except (ValueError, RecursionError):
        return None
    re = frame.get("re") if isinstance(frame, dict) else None
    return re if isinstance(re, str) and len(re) <= CLIENT_ID_MAX and re.isprintable() else None


def _may_connect(address: str) -> bool:
    """The per-address connect rate, and the code-guessing guard the pages use."""
    return not ratelimit.exceeded("miss", address) and ratelimit.allow("connect", address)


def _admit(address: str, code, exempt: bool) -> tuple[bool, object]:
    """A new socket: (within its address's limits, its party or None), in one
    database call. The party is read either way: a socket on probation may still
    prove a secret of it."""
    allowed = exempt or _may_connect(address)
    return allowed, party_by_code(code)


def _cookies(scope) -> dict[str, str]:
    """The cookies sent with the handshake (the party's pass, events/access/gate.py)."""
    raw = b"; ".join(v for k, v in scope.get("headers", []) if k == b"cookie")
    return parse_cookie(raw.decode("latin-1")) if raw else {}


def _identify(party, role, token, channel: str, server: str):
    """A hello: (the actor its secret opens or None, and for a guest the Outcome of
    marking the socket online), in one database call."""
    actor = actor_for(party=party, role=role, token=token)
    if actor is None or actor.role is not Role.GUEST:
        return actor, None
    opened = guest_socket_opened(party_id=actor.party_id, guest_id=actor.guest_id, channel=channel, server=server)
    return actor, opened


def _snapshot(actor: Actor) -> dict:
    """What this screen is sent, and this process's copy of the screen's table row
    taken if it has none (write.warm): the table's first action is then decided on the
    copy and written from the loop, like every other."""
    snapshot = snapshot_for(actor)
    if actor.table_id is not None:
        write.warm(table_id=actor.table_id, party_id=actor.party_id)
    return snapshot


def _seat_row(guest_id: int) -> dict | None:
    """What the database says about a guest's seat now: its secret (changed by a
    hand-over), removal, table, seat and captaincy. None: the party was deleted (the
    handlers then say no_party)."""
    return fastread.seat_row(guest_id)  # the ORM's query building cost more than the query


def _holds_tablet(tablet_id: int, secret: str) -> bool:
    """False once the host revoked the tablet (a deleted row: the party is gone)."""
    row = Tablet.objects.filter(pk=tablet_id).values_list("token_hash", "revoked_at").first()
    return row is None or (row[0] == secret and row[1] is None)
