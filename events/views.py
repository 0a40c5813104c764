"""Thin HTTP views: pages (the live part runs over the WebSocket), the two JSON
endpoints that hand out secrets (create a party, join one), and the QR code.

The JSON endpoints are CSRF-exempt on purpose: no cookie carries any authority here.
Secrets travel only in request bodies and live in the browser's localStorage, so a
forged cross-site POST can at most create a party or join one as a new guest, which
anyone with the code can do anyway.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable

import qrcode
import qrcode.image.svg
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from tables.errors import Forbidden, ServiceError
from tables.outcome import Outcome

from . import lobbycast, ratelimit, services, tablets
from .groups import send_on_commit
from .health import health_failures
from .http import error_response
from .secrets import token_matches
from .selectors import party_by_code, party_result

MAX_BODY = 4096


@require_safe
def healthz(request):
    """Health probe for compose, nginx and the test servers: 503 when PostgreSQL or
    Redis is unreachable, so a process that cannot serve a party says so."""
    failed = health_failures()
    if failed:
        return JsonResponse({"ok": False, "failed": failed}, status=503)
    return JsonResponse({"ok": True})


def _json_body(request) -> dict:
    if len(request.body) > MAX_BODY:
        raise ServiceError("too_large", "request too large")
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, RecursionError):  # RecursionError: [[[[... nested past the parser's depth
        raise ServiceError("malformed", "send a JSON object") from None
    if not isinstance(data, dict):
        raise ServiceError("malformed", "send a JSON object")
    return data


def _rate_limited(message="too many attempts from here; wait a minute") -> JsonResponse:
    return error_response(ServiceError("rate_limited", message))


@csrf_exempt
@require_POST
def party_create_api(request):
    if not ratelimit.allow("create", ratelimit.client_address_http(request)):
        return _rate_limited("too many new parties from here; wait a few minutes")
    try:
        data = _json_body(request)
        created = services.party_create(
            name=data.get("name"),
            budget=data.get("budget", ""),
            jokes_welcome=data.get("jokes_welcome", True),
            vault_size=data.get("vault_size", 0),
        ).data
    except ServiceError as exc:
        return error_response(exc)
    code = created["code"]
    return JsonResponse(
        {"code": code, "host_token": created["host_token"], "host_url": reverse("host", args=[code])}, status=201
    )


def _seat_api(request, take_seat: Callable[[dict], Outcome]):
    """Join and seat claim hand out a seat secret the same way: rate-limited per
    address, JSON in, the secret only in the response body, messages after commit
    (a join's: its party's lobby broadcast, shared with the joins beside it)."""
    address = ratelimit.client_address_http(request)
    if ratelimit.exceeded("miss", address) or not ratelimit.allow("join", address):
        return _rate_limited()
    try:
        outcome = take_seat(_json_body(request))
    except ServiceError as exc:
        if exc.code == "no_party":
            ratelimit.allow("miss", address)
        return error_response(exc)
    send_on_commit(outcome.messages)
    data = dict(outcome.data)
    lobby = data.pop("party", None)
    if lobby is not None:
        lobbycast.lobby_announce(lobby)
    return JsonResponse({**data, "play_url": reverse("play", args=[data["code"]])}, status=201)


@csrf_exempt
@require_POST
def guest_join_api(request, code):
    return _seat_api(
        request,
        lambda data: services.guest_join(code=code, name=data.get("name"), description=data.get("description")),
    )


@csrf_exempt
@require_POST
def seat_claim_api(request, code):
    """A substitute takes over a seat with the one-time code the host or captain got."""
    return _seat_api(
        request, lambda data: services.seat_claim(code=code, claim=data.get("claim"), name=data.get("name"))
    )


@csrf_exempt
@require_POST
def tablet_pair_api(request, code):
    """A captain's tablet trades the host's one-time pairing code for its own secret."""
    if not ratelimit.allow("join", ratelimit.client_address_http(request)):
        return _rate_limited()
    try:
        outcome = tablets.tablet_pair(code=code, pairing=_json_body(request).get("pairing"))
    except ServiceError as exc:
        return error_response(exc)
    send_on_commit(outcome.messages)
    return JsonResponse({**outcome.data, "code": code.upper()}, status=201)


@require_safe
def home(request):
    return render(request, "events/home.html")


def _party_or_refusal(request, code):
    """The party a page names, or the response that refuses it. Join codes are short
    and read aloud, so guessing them is the attack: pages are rate-limited per address,
    and an address that asked for too many unknown codes gets 429 for every code,
    existing or not, until its window ends (no answer tells the two apart)."""
    address = ratelimit.client_address_http(request)
    if ratelimit.exceeded("miss", address) or not ratelimit.allow("page", address):
        return None, render(request, "events/slow_down.html", {"code": code}, status=429)
    party = party_by_code(code)
    if party is None:
        ratelimit.allow("miss", address)
        return None, render(request, "events/missing.html", {"code": code}, status=404)
    return party, None


def _party_page(request, code, template):
    party, refusal = _party_or_refusal(request, code)
    if refusal is not None:
        return refusal
    if party.expired:
        return render(request, "events/missing.html", {"code": code, "expired": True}, status=410)
    return render(request, template, {"party": party})


@require_safe
def host_page(request, code):
    return _party_page(request, code, "events/host.html")


@require_safe
def join_page(request, code):
    party = party_by_code(code)
    if party is not None and not party.expired and party.status == party.Status.OVER:
        # A latecomer to a finished party sees who took what home, not a seat offer.
        return render(request, "events/join.html", {"party": party, "result": party_result(party)})
    return _party_page(request, code, "events/join.html")


@require_safe
def play_page(request, code):
    return _party_page(request, code, "events/play.html")


@require_safe
def tablet_page(request, code):
    return _party_page(request, code, "events/tablet.html")


@require_safe
def screen_page(request, code):
    return _party_page(request, code, "events/screen.html")


@require_safe
def join_qr(request, code):
    """An SVG QR code of the join link (the link holds the code, never a secret)."""
    party, refusal = _party_or_refusal(request, code)
    if refusal is not None:
        return refusal
    url = request.build_absolute_uri(reverse("join", args=[party.code]))
    img = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    buf = io.BytesIO()
    img.save(buf)
    return HttpResponse(buf.getvalue(), content_type="image/svg+xml")


def party_result_csv(request, code):
    """The party's result as CSV, for the host only: the host secret comes in the
    Authorization header (the dashboard fetches it and saves the file)."""
    party = party_by_code(code)
    if party is None:
        raise Http404("no such party")
    auth = request.headers.get("Authorization", "")
    token = auth.removeprefix("Bearer ").strip()
    if not token or not token_matches(token, party.host_token_hash):
        return error_response(Forbidden("only the host can download the result"))
    result = party_result(party)
    out = io.StringIO()
    writer = _SafeWriter(csv.writer(out))
    writer.writerow(["kind", "name", "table", "seat", "gift", "description", "source"])
    for row in result["keeps"]:
        # Seats are numbered from 1 here, as on every screen (the wire form counts from 0).
        seat = row["seat"] + 1
        writer.writerow(["keeps", row["guest"], row["table"], seat, row["gift"], row["description"], row["source"]])
    for row in result["vault_returns"]:
        writer.writerow(
            ["vault return", row["returns_to"], row["table"], "", row["gift"], row["description"], row["source"]]
        )
    # A byte-order mark first: Excel reads a CSV without one in the system's code page
    # and shows "TomÃ¡s" for "Tomás".
    response = HttpResponse("\ufeff" + out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="yankee-heist-{party.code}.csv"'
    return response


class _SafeWriter:
    """Guests type the names: a cell starting with = + - @ would run as a formula in a
    spreadsheet (CSV injection), so such cells are prefixed with a quote."""

    def __init__(self, writer):
        self.writer = writer

    def writerow(self, row):
        self.writer.writerow(["'" + c if isinstance(c, str) and c[:1] in ("=", "+", "-", "@") else c for c in row])
