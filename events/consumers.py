"""The one WebSocket a screen keeps open to its party: authenticate, parse, call one
service, reply. Every request gets exactly one reply (`ok` or `error`, echoing the
client's `re` id); updates arrive as versioned `table` / `party` messages.

Frames from the client (JSON text, at most MAX_FRAME bytes):
  {"type": "hello", "role": "guest"|"host"|"tablet"|"spectator", "token": "..."}
  {"type": "act", "re": "<client action id>", "version": 12, "table": 3, "action": {...}}
  {"type": "party", "re": "...", "command": "seat", ...arguments}
  {"type": "resync", "re": "..."}
  {"type": "ping"}
"""

from __future__ import annotations

import json
import logging
import time

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import F
from django.utils import timezone

from relay.services import relay_open, relay_run
from tables.engine import IllegalActionError
from tables.services import ServiceError, table_act

from . import groups, ratelimit, services, tablets
from .models import Guest, Tablet
from .roles import Actor, Forbidden, Role, check_party_command
from .secrets import token_hash
from .selectors import actor_for, guest_actor, party_by_code, snapshot_for

logger = logging.getLogger(__name__)

MAX_FRAME = 4096  # the largest legal frame is a few hundred bytes
CLIENT_ID_MAX = 64
REVALIDATE_SECONDS = 10  # how stale a socket's proof of its seat may be for broadcasts


class PartyConsumer(AsyncWebsocketConsumer):
    async def dispatch(self, message):
        # Skip Channels' hop to a thread that closes stale DB connections before every
        # handler (it halved broadcast throughput): group deliveries touch no
        # database, and every handler that does goes through database_sync_to_async,
        # which closes stale connections in its own thread before and after.
        if message["type"] == "deliver":
            await self.deliver(message)
            return
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    # --- lifecycle ---------------------------------------------------------------------

    async def connect(self):
        self.actor: Actor | None = None
        self.joined: set[str] = set()
        self.last_seen_write = 0.0
        self.secret: str | None = None  # a guest's token digest, to notice a hand-over
        self.secret_checked = 0.0
        self.revoked = False
        self.party = None
        if not await database_sync_to_async(ratelimit.allow)("connect", ratelimit.client_address_scope(self.scope)):
            await self.close(code=4429)  # before accept: the handshake is refused
            return
        await self.accept()
        code = self.scope["url_route"]["kwargs"]["code"]
        self.party = await database_sync_to_async(party_by_code)(code)
        if self.party is None:
            await self._error(None, "no_party", "no party has that code")
            await self.close(code=4404)
        elif self.party.expired:
            await self._error(None, "expired", "this party has expired (parties last seven days)")
            await self.close(code=4410)

    async def disconnect(self, code):
        # The presence count first: it is in PostgreSQL and must not depend on Redis.
        if self.actor is not None and self.actor.role is Role.GUEST:
            still_open = await database_sync_to_async(_presence)(self.actor.guest_id, -1)
            # A guest with the seat open on two devices (a captain's phone and tablet)
            # is still online when one of them closes.
            await groups.send_safely([_presence_message(self.actor, still_open > 0)])
        for group in list(self.joined):
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:  # Redis is down: its subscriptions die with it anyway
                logger.warning("group_discard(%s) failed", group, exc_info=True)
        self.joined.clear()

    # --- frames ------------------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
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
            await self._send({"type": "pong", "server_time": timezone.now().timestamp()})
            await self._touch()
            return
        if self.party is None:
            return
        if kind == "hello":
            await self._hello(frame, re)
            return
        if self.actor is None:
            await self._error(re, "hello_first", "say hello (with your secret) first")
            return
        handler = {"act": self._act, "party": self._party, "resync": self._resync}.get(kind)
        if handler is None:
            await self._error(re, "malformed", f"unknown frame type {kind!r}")
            return
        if await self._seat_revoked(re):
            return
        await handler(frame, re)

    async def _hello(self, frame, re):
        if self.actor is not None:
            await self._error(re, "already", "this connection has already said hello")
            return
        role = frame.get("role")
        actor = await database_sync_to_async(actor_for)(party=self.party, role=role, token=frame.get("token"))
        if actor is None:
            await self._error(re, "bad_secret", "that secret does not open a seat at this party")
            await self.close(code=4403)
            return
        self.actor = actor
        if actor.role is Role.GUEST:
            self.secret = token_hash(frame["token"])
            self.secret_checked = time.monotonic()  # just proven
            await database_sync_to_async(_presence)(actor.guest_id, +1)
            await groups.send_safely([_presence_message(actor, True)])
        elif actor.role is Role.TABLET:
            self.secret = token_hash(frame["token"])
            self.secret_checked = time.monotonic()
        await self._subscribe()
        await self._resync(frame, re)

    async def _act(self, frame, re):
        action = frame.get("action")
        version = frame.get("version")
        if version is not None and type(version) is not int:
            await self._error(re, "malformed", "version must be an integer")
            return
        table_id = frame.get("table", self.actor.table_id)
        if type(table_id) is not int:
            await self._error(re, "malformed", "which table?")
            return
        try:
            outcome = await database_sync_to_async(table_act)(
                actor=self.actor, table_id=table_id, action=action, client_id=re or "", expected_version=version
            )
        except (IllegalActionError, Forbidden, ServiceError) as exc:
            await self._error(re, _code(exc), str(exc))
            if getattr(exc, "code", None) == "stale":
                await self._resync(frame, None)
            return
        await self._send({"type": "ok", "re": re, "version": outcome.version, "duplicate": outcome.duplicate})
        await groups.send_safely(outcome.messages)

    async def _party(self, frame, re):
        command = frame.get("command")
        if not isinstance(command, str):
            await self._error(re, "malformed", "which command?")
            return
        try:
            check_party_command(self.actor, command, await _command_table(command, frame))
            if command == "pair_tablet":
                frame = {**frame, "_origin": _origin(self.scope)}  # the QR code's link
            outcome = await database_sync_to_async(_party_command)(self.actor, command, frame)
        except (IllegalActionError, Forbidden, ServiceError) as exc:
            await self._error(re, _code(exc), str(exc))
            return
        await self._send({"type": "ok", "re": re, **outcome.data})
        await groups.send_safely(outcome.messages)

    async def _resync(self, frame, re):
        try:
            snapshot = await database_sync_to_async(snapshot_for)(self.actor)
        except ObjectDoesNotExist:  # the expiry sweep deleted the party under this socket
            await self._error(re, "no_party", "this party no longer exists")
            await self.close(code=4404)
            return
        if re is not None:
            snapshot["re"] = re
        await self._send(snapshot)

    # --- group messages ----------------------------------------------------------------

    async def deliver(self, message):
        kind = message["kind"]
        if kind != "removed" and await self._seat_revoked(cached=kind != "resubscribe"):
            return
        if kind == "resubscribe":
            # Seating or a captain change: this screen's groups and view changed.
            if self.actor is None:
                return
            if self.actor.role is Role.GUEST:
                guest = await database_sync_to_async(Guest.objects.filter(pk=self.actor.guest_id).first)()
                if guest is None:
                    return
                self.actor = guest_actor(guest)
            await self._subscribe()
            await self._resync({}, None)
            return
        await self.send(text_data=message["text"])  # JSON encoded once, by the sender
        if kind == "removed":
            await self.close(code=4401)

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
            if await database_sync_to_async(_holds_tablet)(self.actor.tablet_id, self.secret):
                return False
            if re is not None:
                await self._error(re, "removed", "the host unpaired this tablet")
            await self._send({"type": "removed", "message": "The host unpaired this tablet."})
            self.revoked = True
            await self.close(code=4401)
            return True
        if await database_sync_to_async(_holds_seat)(self.actor.guest_id, self.secret):
            return False
        if re is not None:
            await self._error(re, "removed", "this device no longer holds the seat")
        await self._send({"type": "removed", "message": "Your seat was handed over to a substitute."})
        self.revoked = True
        await self.close(code=4401)
        return True

    async def _subscribe(self):
        wanted = await database_sync_to_async(_groups_for)(self.actor)
        for group in self.joined - wanted:
            await self.channel_layer.group_discard(group, self.channel_name)
        for group in wanted - self.joined:
            await self.channel_layer.group_add(group, self.channel_name)
        self.joined = wanted

    async def _touch(self):
        if self.actor is None or self.actor.role is not Role.GUEST:
            return
        now = timezone.now().timestamp()
        if now - self.last_seen_write > 20:
            self.last_seen_write = now
            await database_sync_to_async(_presence)(self.actor.guest_id, 0)

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


async def _command_table(command: str, frame: dict) -> int | None:
    """The table a captain's command concerns (so a captain acts only at their own)."""
    if command == "hand_over_seat" and type(frame.get("guest")) is int:
        return await database_sync_to_async(
            lambda: Guest.objects.filter(pk=frame["guest"]).values_list("table_id", flat=True).first()
        )()
    return None


def _origin(scope) -> str:
    """The page's origin, as the browser sent it with the handshake (the origin
    validator has already checked it is one of ours)."""
    for name, value in scope.get("headers", []):
        if name == b"origin":
            origin = value.decode("latin-1")
            return origin if origin.startswith(("http://", "https://")) else ""
    return ""


def _code(exc: Exception) -> str:
    if isinstance(exc, ServiceError):
        return exc.code
    if isinstance(exc, Forbidden):
        return "forbidden"
    return f"illegal.{exc.rule}"


def _groups_for(actor: Actor) -> set[str]:
    from tables.models import Table

    out = {groups.party_group(actor.party_id)}
    if actor.role is Role.HOST:
        out.add(groups.host_group(actor.party_id))
        out |= {groups.table_group(t) for t in Table.objects.filter(party_id=actor.party_id).values_list("pk", flat=True)}
    elif actor.role is Role.SPECTATOR:
        out |= {groups.table_group(t) for t in Table.objects.filter(party_id=actor.party_id).values_list("pk", flat=True)}
    elif actor.role is Role.TABLET:
        # Its table's public view and its own group (for `removed`): no seat group, ever.
        out |= {groups.table_group(actor.table_id), groups.tablet_group(actor.tablet_id)}
    else:
        out.add(groups.guest_group(actor.guest_id))
        if actor.table_id is not None:
            out.add(groups.seat_group(actor.table_id, actor.seat))
            if actor.captain:
                out.add(groups.table_group(actor.table_id))
    return out


def _presence_message(actor: Actor, online: bool) -> groups.Message:
    """For the host's dashboard: who is (dis)connected, as it happens."""
    return (groups.host_group(actor.party_id), {"type": "presence", "guest": actor.guest_id, "online": online})


def _holds_seat(guest_id: int, secret: str) -> bool:
    """False once the seat's secret changed (a hand-over) or the host removed the guest.
    A guest row that is gone means the party was deleted: the handlers say no_party."""
    row = Guest.objects.filter(pk=guest_id).values_list("token_hash", "removed_at").first()
    return row is None or (row[0] == secret and row[1] is None)


def _holds_tablet(tablet_id: int, secret: str) -> bool:
    """False once the host revoked the tablet (a deleted row: the party is gone)."""
    row = Tablet.objects.filter(pk=tablet_id).values_list("token_hash", "revoked_at").first()
    return row is None or (row[0] == secret and row[1] is None)


def _presence(guest_id: int, delta: int) -> int:
    """Count a socket opening (+1), closing (-1) or pinging (0); return the guest's open
    sockets now."""
    Guest.objects.filter(pk=guest_id).update(sockets=F("sockets") + delta, last_seen=timezone.now())
    return Guest.objects.filter(pk=guest_id).values_list("sockets", flat=True).first() or 0


def _party_command(actor: Actor, command: str, frame: dict) -> services.Outcome:
    pid = actor.party_id
    if command == "rename_guest":
        return services.guest_rename(party_id=pid, guest_id=frame.get("guest"), name=frame.get("name"))
    if command == "remove_guest":
        return services.guest_remove(party_id=pid, guest_id=frame.get("guest"))
    if command == "add_vault_gift":
        return services.vault_gift_add(
            party_id=pid, contributor=frame.get("contributor"), description=frame.get("description")
        )
    if command == "remove_vault_gift":
        return services.vault_gift_remove(party_id=pid, number=frame.get("number"))
    if command == "close_registration":
        return services.party_set_registration(party_id=pid, open_=False)
    if command == "reopen_registration":
        return services.party_set_registration(party_id=pid, open_=True)
    if command == "seat":
        return services.party_seat(party_id=pid)
    if command == "set_captain":
        return services.party_set_captain(party_id=pid, guest_id=frame.get("guest"))
    if command == "hand_over_seat":
        return services.seat_hand_over(party_id=pid, guest_id=frame.get("guest"))
    if command == "pair_tablet":
        return tablets.tablet_pair_start(party_id=pid, table_id=frame.get("table"), origin=frame.get("_origin", ""))
    if command == "revoke_tablet":
        return tablets.tablet_revoke(party_id=pid, tablet_id=frame.get("tablet"))
    if command == "open_relay":
        return services.Outcome(relay_open(party_id=pid))
    if command == "run_relay":
        return services.Outcome(relay_run(party_id=pid))
    raise ServiceError("not_yet", f"{command} is not available yet")
