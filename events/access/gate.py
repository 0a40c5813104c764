"""The one gate of every route that takes a party's code (events/, story/, printables/):
the existence, miss and page rules, decided here once.

A whole party shares one address behind the venue's NAT, so an address says nothing
about who is asking. What does: a party's secret. The rules:

- **A holder is never limited by its address.** A request proves it belongs to the
  party with the party's *pass* (a cookie the server sets whenever it hands out one
  of the party's secrets: create, join, seat claim, tablet pairing, or a renewal
  against any secret, `pass_renew_api`), or with `Authorization: Bearer <secret>`
  that opens the party (host, seat or tablet). Holders skip the page and miss limits
  (not the join limit: joins, claims and pairings hand out new secrets).
  The pass is not a secret: it names one party, is signed with SECRET_KEY, and gives
  no right at all beyond that exemption (no view reads it for authority).
- **Whoever the host invited is never limited by the address either.** The join link and
  QR code the host shares (host page, big screen, poster, printables) carry the host's
  invitation, `?k=` (events/party/public_url.py: an HMAC of the code, for that party
  only). A request with it skips the miss guard and the page limit, and its misses are
  not counted (it is not guessing); the join endpoints still count their `join` limit.
  The first page opened with it leaves the invitation in a cookie, so the join that
  follows (and a reload) carries it too.
- **A secret's own device always gets its socket.** Whenever the server hands out a
  secret (host, seat, tablet) it also sets the *own pass*: a signed cookie naming that
  secret by its digest's first 16 hex characters (no secret either). A socket whose
  handshake carries it skips every address and pass count, capped per secret instead
  (SOCKET_LIMITS["per_seat"] arriving at once); a spectator's hello on it is counted
  again as any spectator's. However many spectator, pass or probation sockets the same
  address holds, a seat's reconnect is let in (events/live/socket/limits.py).
- **Everyone else is limited per address**: `RATE_LIMITS["page"]` (pages, downloads,
  the QR) or `["join"]` (the JSON endpoints that hand out secrets), and the miss
  guard: past `RATE_LIMITS["miss"]` every route answers the same 429, whether the
  code exists or not.
- **"Nothing for you here" is one answer.** A view raises `NothingHere` with the
  response for "no such party", and raises the very same response for "not yours" or
  "not yet" (the result CSV without the host's secret, a story not told yet, a wrong
  hand-over or pairing code). The gate counts each one as a miss, so a real code and a
  wrong one cannot be told apart by status, body or the limit they use up. The miss is
  counted atomically before the answer goes out: the one past the limit gets the 429.

tests/hardening/test_gate.py walks the URL configuration and fails for a route that
takes a code and skips this gate.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any

from django.core import signing
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext

from events.access import ratelimit
from events.models import Guest, Party, Tablet
from events.party.public_url import is_invitation
from events.party.secrets import normalize_code, plausible_token, token_hash, token_matches
from events.party.selectors import party_by_code
from tables.errors import ErrorCode

PASS_SALT = "heist.party-pass"
OWN_SALT = "heist.own-pass"
OWN_KEY_LENGTH = 16  # hex characters of the secret's SHA-256 that name it
PASS_MAX_AGE = 8 * 24 * 3600  # a party lasts seven days
GATED = "party_gate"  # the attribute a gated view carries (the URL test looks for it)
HOLDER = "heist.party_holder"  # request.META: what the gate found

View = Callable[..., HttpResponse]


class NothingHere(Exception):
    """A gated view's answer for "no such party", and for "not yours" or "not yet",
    which must be the very same response."""

    def __init__(self, response: HttpResponse) -> None:
        super().__init__("nothing here")
        self.response = response


def pass_cookie_name(code: str) -> str:
    return f"heist_pass_{code}"


def own_pass_cookie_name(code: str) -> str:
    return f"heist_own_{code}"


def own_key(secret: str) -> str:
    """The name of a secret in its own pass (and in the sockets' counts)."""
    return token_hash(secret)[:OWN_KEY_LENGTH]


def give_pass(response: HttpResponse, request: HttpRequest, code: str, *, secret: str | None = None) -> None:
    """Set the party's pass on a response that hands out one of its secrets, and with
    `secret` (the one handed out) its own pass."""
    norm = normalize_code(code)
    if norm is None:
        return
    if secret is not None:
        response.set_cookie(
            own_pass_cookie_name(norm),
            signing.Signer(salt=OWN_SALT).sign(f"{norm}:{own_key(secret)}"),
            max_age=PASS_MAX_AGE,
            path="/",
            samesite="Lax",
            secure=request.is_secure(),
            httponly=True,  # only the socket's handshake needs it
        )
    response.set_cookie(
        pass_cookie_name(norm),
        signing.Signer(salt=PASS_SALT).sign(norm),
        max_age=PASS_MAX_AGE,
        path="/",
        samesite="Lax",  # sent on the QR scan's top-level navigation, never on a cross-site POST
        secure=request.is_secure(),
        httponly=False,  # the page checks it is there (live.js renews it); it is no secret
    )


def holds_pass(cookies: Mapping[str, str], code: str) -> bool:
    norm = normalize_code(code)
    if norm is None:
        return False
    value = cookies.get(pass_cookie_name(norm))
    if not value:
        return False
    try:
        return bool(signing.Signer(salt=PASS_SALT).unsign(value) == norm)
    except signing.BadSignature:
        return False


def invitation_cookie_name(code: str) -> str:
    return f"heist_invited_{code}"


def invited(request: HttpRequest, code: str) -> bool:
    """Whether the request came through the host's own link (or the page it opened)."""
    norm = normalize_code(code)
    if norm is None:
        return False
    return is_invitation(request.GET.get("k") or request.COOKIES.get(invitation_cookie_name(norm)), norm)


def _keep_invitation(response: HttpResponse, request: HttpRequest, code: str) -> None:
    """The invitation of the link just opened, for the requests its page makes next."""
    norm = normalize_code(code)
    if norm is None or not is_invitation(request.GET.get("k"), norm):
        return
    response.set_cookie(
        invitation_cookie_name(norm),
        request.GET["k"],
        max_age=PASS_MAX_AGE,
        path="/",
        samesite="Lax",
        secure=request.is_secure(),
        httponly=True,
    )


def own_pass(cookies: Mapping[str, str], code: str) -> str | None:
    """The secret named by the own pass the device holds for party `code`, or None."""
    norm = normalize_code(code)
    if norm is None:
        return None
    value = cookies.get(own_pass_cookie_name(norm))
    if not value:
        return None
    try:
        party, _, key = signing.Signer(salt=OWN_SALT).unsign(value).partition(":")
    except signing.BadSignature:
        return None
    return key if party == norm and len(key) == OWN_KEY_LENGTH else None


def bearer_token(request: HttpRequest) -> str | None:
    """The secret of `Authorization: Bearer <token>`; None for anything else (a bare
    token without the scheme is refused: it was accepted by accident)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not plausible_token(token):
        return None
    return token


def opens_party(party: Party, token: str) -> bool:
    """Whether `token` is one of the party's live secrets (host, seat or tablet)."""
    if token_matches(token, party.host_token_hash):
        return True
    digest = token_hash(token)
    return (
        Guest.objects.filter(party=party, token_hash=digest, removed_at__isnull=True).exists()
        or Tablet.objects.filter(party=party, token_hash=digest, revoked_at__isnull=True).exists()
    )


def is_holder(request: HttpRequest, code: str) -> bool:
    if holds_pass(request.COOKIES, code):
        return True
    token = bearer_token(request)
    if token is None:
        return False
    party = party_by_code(code)
    return party is not None and opens_party(party, token)


def holder(request: HttpRequest) -> bool:
    """Whether the gate found the request to hold the party's pass or a secret."""
    return bool(request.META.get(HOLDER, False))


def slow_down(request: HttpRequest, code: str, answer: str) -> HttpResponse:
    """The one 429 of the miss and page limits: the same for every code."""
    if answer == "json":
        response: HttpResponse = JsonResponse(
            {"error": ErrorCode.RATE_LIMITED, "message": gettext("too many attempts from here; wait a minute")},
            status=429,
        )
    else:
        response = render(request, "events/slow_down.html", {"code": code}, status=429)
    response["Retry-After"] = "60"
    return response


def party_gate(*, answer: str = "page", bucket: str = "page", holders: bool = True) -> Callable[[View], View]:
    """Put a view that takes `code` behind the gate. `answer`: "page" (HTML 429) or
    "json"; `bucket`: the per-address limit a request without a secret uses;
    `holders=False`: the party's own are limited as everyone is (the endpoints that
    hand out new secrets: anyone who joined once holds the pass, and must not join,
    claim or pair without limit)."""

    def decorate(view: View) -> View:
        @wraps(view)
        def gated(request: HttpRequest, code: str, *args: Any, **kwargs: Any) -> HttpResponse:
            address = ratelimit.client_address_http(request)
            holder = holders and is_holder(request, code)
            request.META[HOLDER] = holder  # a view may show a holder more (a story's wait)
            # The host's invitation: no miss guard, no miss counted; a page needs no
            # budget either, a join still counts its own.
            guest_of_host = not holder and invited(request, code)
            guarded = not holder and not guest_of_host
            counted = not holder and not (guest_of_host and holders)
            if guarded and ratelimit.exceeded("miss", address):
                return slow_down(request, code, answer)
            if counted and not ratelimit.allow(bucket, address):
                return slow_down(request, code, answer)
            try:
                response = view(request, code, *args, **kwargs)
            except NothingHere as nothing:
                if guarded and not ratelimit.allow("miss", address):
                    return slow_down(request, code, answer)
                return nothing.response
            if guest_of_host:
                _keep_invitation(response, request, code)
            return response

        setattr(gated, GATED, True)
        return gated

    return decorate
