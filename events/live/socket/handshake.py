"""What a socket's handshake carried (its origin, its cookies), and whether it is let in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.http.cookie import parse_cookie
from django.utils.translation import gettext_lazy

from events.access import gate, ratelimit
from events.live.socket.db import in_db_thread
from events.live.socket.limits import Slots
from events.party.selectors import party_by_code

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


@dataclass(frozen=True)
class Refused:
    """Why a socket is turned away: its `error` frame's code and message (lazy: said in
    the socket's language when sent), then its close."""

    code: str
    message: StrOrPromise
    close: int


RATE_LIMITED = Refused("rate_limited", gettext_lazy("too many attempts from here; wait a few minutes"), 4429)
NO_PARTY = Refused("no_party", gettext_lazy("no party has that code"), 4404)
EXPIRED = Refused("expired", gettext_lazy("this party has expired (parties last seven days)"), 4410)
BAD_SECRET = Refused("bad_secret", gettext_lazy("that secret does not open a seat at this party"), 4403)


def origin(scope: dict[str, Any]) -> str:
    """The page's origin, as the browser sent it with the handshake (the origin
    validator has already checked it is one of ours)."""
    for name, value in scope.get("headers", []):
        if name == b"origin":
            text: str = value.decode("latin-1")
            return text if text.startswith(("http://", "https://")) else ""
    return ""


def cookies(scope: dict[str, Any]) -> dict[str, str]:
    """The cookies sent with the handshake (the party's pass, events/access/gate.py)."""
    raw = b"; ".join(v for k, v in scope.get("headers", []) if k == b"cookie")
    return parse_cookie(raw.decode("latin-1")) if raw else {}


async def arrive(scope: dict[str, Any], slots: Slots) -> tuple[bool, Any]:
    """A new socket, before accept: (let in, its party or None), counted in `slots`."""
    code = scope["url_route"]["kwargs"]["code"]
    slots.address = ratelimit.client_address_scope(scope)
    # Only a socket showing no sign of belonging to the party counts against its
    # address (events/live/socket/limits.py Slots); one the address limits would refuse
    # is accepted on probation: only a hello with a valid secret is served on it,
    # anything else gets rate_limited and 4429, the same whether its code exists
    # or not. A secret is never locked out by what else comes from its address.
    # A device's own pass comes first: its reconnect is never crowded out by what else
    # the address holds (a guest who keeps hundreds of sockets open, say).
    jar = cookies(scope)
    slots.show_own(code, gate.own_pass(jar, code))
    slots.show_pass(code, gate.holds_pass(jar, code))
    # The rate limit and the party in one trip to the database: in a join burst
    # every trip waits its turn behind hundreds of others.
    allowed, party = await in_db_thread(admit)(slots.address, code, slots.exempt)
    if not slots.count_address(allowed):
        return False, None
    return True, party


def admit(address: str, code: str, exempt: bool) -> tuple[bool, Any]:
    """A new socket: (within its address's limits, its party or None), in one
    database call. The party is read either way: a socket on probation may still
    prove a secret of it."""
    allowed = exempt or _may_connect(address)
    return allowed, party_by_code(code)


def _may_connect(address: str) -> bool:
    """The per-address connect rate, and the code-guessing guard the pages use."""
    return not ratelimit.exceeded("miss", address) and ratelimit.allow("connect", address)


async def refusal(party: Any, *, exempt: bool, address: str) -> Refused | None:
    """An accepted socket (not on probation): why its party turns it away, if it does. A
    guessed code is one miss, counted before the answer (the miss past the limit is
    answered as every other refusal of the guard is)."""
    if party is None:
        if exempt or await in_db_thread(ratelimit.allow)("miss", address):
            return NO_PARTY
        return RATE_LIMITED
    if party.expired:
        return EXPIRED
    return None
