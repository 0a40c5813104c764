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
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import qrcode
import qrcode.image.svg
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from events.access import ratelimit
from events.access.gate import NothingHere, bearer_token, give_pass, opens_party, party_gate
from events.broadcast.groups import send_on_commit
from events.models import DEFAULT_STEP_CLOCK, Party
from events.party import lobbycast, public_url, services, tablets
from events.party.language import party_language_activate
from events.party.secrets import token_matches
from events.party.selectors import party_by_code, party_result
from events.web.health import health_failures
from events.web.http import error_response
from events.web.screens import game_for_page, game_fragments, on_screens
from games.definition import HostOption, NamesDuties, TakesHostOptions
from games.registry import DEFAULT_GAME, GAMES, game_choices, game_named
from tables.context_processors import rules_for_screens
from tables.errors import ErrorCode, Forbidden, ServiceError
from tables.outcome import Outcome

MAX_BODY = 4096


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Health probe for compose, nginx and the test servers: 503 when PostgreSQL or
    Redis is unreachable, so a process that cannot serve a party says so."""
    failed = health_failures()
    if failed:
        return JsonResponse({"ok": False, "failed": failed}, status=503)
    return JsonResponse({"ok": True})


def _json_body(request: HttpRequest) -> dict[str, Any]:
    if len(request.body) > MAX_BODY:
        raise ServiceError(ErrorCode.TOO_LARGE, gettext("request too large"))
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, RecursionError):  # RecursionError: [[[[... nested past the parser's depth
        raise ServiceError(ErrorCode.MALFORMED, gettext("send a JSON object")) from None
    if not isinstance(data, dict):
        raise ServiceError(ErrorCode.MALFORMED, gettext("send a JSON object"))
    return data


def _rate_limited(message: str | None = None) -> JsonResponse:
    text = gettext("too many attempts from here; wait a minute") if message is None else message
    return error_response(ServiceError(ErrorCode.RATE_LIMITED, text))


@csrf_exempt
@require_POST
def party_create_api(request: HttpRequest) -> JsonResponse:
    if not ratelimit.allow("create", ratelimit.client_address_http(request)):
        return _rate_limited(gettext("too many new parties from here; wait a few minutes"))
    try:
        data = _json_body(request)
        created = services.party_create(
            name=data.get("name"),
            budget=data.get("budget", ""),
            jokes_welcome=data.get("jokes_welcome", True),
            vault_size=data.get("vault_size", 0),
            step_clock=data.get("step_clock", DEFAULT_STEP_CLOCK),
            step_clock_server=data.get("step_clock_server", False),
            game=data.get("game", DEFAULT_GAME),
            games=data.get("games"),
            language=data.get("language", "en"),
            options=data.get("options"),
        ).data
    except ServiceError as exc:
        return error_response(exc)
    code = created["code"]
    public_url.party_announce(request=request, code=code, name=str(data.get("name", "")).strip())
    response = JsonResponse(
        {"code": code, "host_token": created["host_token"], "host_url": reverse("host", args=[code])}, status=201
    )
    give_pass(response, request, code, secret=created["host_token"])
    return response


# What a wrong hand-over or pairing code gets, and the same for a code no party has:
# otherwise the answer would tell which join codes exist.
BAD_CLAIM = ServiceError(ErrorCode.BAD_CLAIM, gettext_lazy("that hand-over code is not valid (or has expired)"))
BAD_PAIRING = ServiceError(
    ErrorCode.BAD_PAIRING, gettext_lazy("that pairing code is not valid (or was used, or has expired)")
)


def _seat_api(
    request: HttpRequest,
    code: str,
    take_seat: Callable[[dict[str, Any]], Outcome],
    *,
    refused: ServiceError | None = None,
) -> JsonResponse:
    """Join and seat claim hand out a seat secret the same way: behind the gate (the
    join limit per address), JSON in, the secret only in the response body, messages
    after commit (a join's: its party's lobby broadcast, shared with the joins beside
    it). `refused`: the one answer for an unknown code and a wrong one-time code."""
    try:
        outcome = take_seat(_json_body(request))
    except ServiceError as exc:
        if refused is not None and exc.code in (ErrorCode.NO_PARTY, refused.code):
            raise NothingHere(error_response(refused)) from None
        if exc.code == ErrorCode.NO_PARTY:
            raise NothingHere(error_response(exc)) from None
        return error_response(exc)
    send_on_commit(outcome.messages)
    data = dict(outcome.data)
    lobby = data.pop("party", None)
    if lobby is not None:
        lobbycast.lobby_announce(lobby)
    response = JsonResponse({**data, "play_url": reverse("play", args=[data["code"]])}, status=201)
    give_pass(response, request, code, secret=data["token"])
    return response


@csrf_exempt
@require_POST
@party_gate(answer="json", bucket="join", holders=False)
def guest_join_api(request: HttpRequest, code: str) -> JsonResponse:
    return _seat_api(
        request,
        code,
        lambda data: services.guest_join(code=code, name=data.get("name"), description=data.get("description")),
    )


@csrf_exempt
@require_POST
@party_gate(answer="json", bucket="join", holders=False)
def seat_claim_api(request: HttpRequest, code: str) -> JsonResponse:
    """A substitute takes over a seat with the one-time code the host or captain got."""
    return _seat_api(
        request,
        code,
        lambda data: services.seat_claim(code=code, claim=data.get("claim"), name=data.get("name")),
        refused=BAD_CLAIM,
    )


@csrf_exempt
@require_POST
@party_gate(answer="json", bucket="join", holders=False)
def tablet_pair_api(request: HttpRequest, code: str) -> JsonResponse:
    """A captain's tablet trades the host's one-time pairing code for its own secret."""
    try:
        outcome = tablets.tablet_pair(code=code, pairing=_json_body(request).get("pairing"))
    except ServiceError as exc:
        if exc.code in (ErrorCode.NO_PARTY, BAD_PAIRING.code):
            raise NothingHere(error_response(BAD_PAIRING)) from None
        return error_response(exc)
    send_on_commit(outcome.messages)
    response = JsonResponse({**outcome.data, "code": code.upper()}, status=201)
    give_pass(response, request, code, secret=outcome.data["token"])
    return response


# What a renewal without a secret of the party gets, whether the party exists or not.
NOT_YOURS = Forbidden(gettext_lazy("that secret opens nothing at a party with this code"))


@csrf_exempt
@require_POST
@party_gate(answer="json", bucket="join")
def pass_renew_api(request: HttpRequest, code: str) -> HttpResponse:
    """A device that holds one of the party's secrets (in localStorage) but lost its
    pass (cookies cleared, or a phone from before passes existed) trades the secret,
    in the Authorization header, for a new pass. The gate let it through its address's
    limits because the secret opens the party."""
    party = party_by_code(code)
    token = bearer_token(request)
    if party is None or token is None or not opens_party(party, token):
        raise NothingHere(error_response(NOT_YOURS))
    response = HttpResponse(status=204)
    give_pass(response, request, party.code, secret=token)
    return response


def _host_options(definition: object) -> list[HostOption]:
    """The game's own rules the host's form offers (its host_options), none for most."""
    return list(definition.host_options()) if isinstance(definition, TakesHostOptions) else []


# The step clock's two hints in the host's form, in the host's plain words: what the
# clock times, and what the captain or host may play for a quiet guest instead of the
# server. The game chosen says them in its own (NamesDuties `clock_hint`, `stand_in_hint`).
PLAIN_CLOCK_HINTS = {
    "clock_hint": gettext_lazy("how long a quiet guest's step may wait"),
    "stand_in_hint": gettext_lazy("else the captain or you may play the rules' do-nothing choice for them"),
}


def _clock_hints(definition: object) -> dict[str, str]:
    """The form's step-clock hints for the game, in the request's language."""
    own = definition.duty_texts() if isinstance(definition, NamesDuties) else {}
    return {key: gettext(own[key]) if own.get(key) else str(plain) for key, plain in PLAIN_CLOCK_HINTS.items()}


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    # Each game's parts of the form: the gift fields only for a game with gifts, the vault
    # only for one with vaults, how many games in a row only for one that plays several,
    # the step clock's hints in its words (home.js shows them by the choice). Only games
    # with all their screens are offered.
    games = [
        {
            "name": name,
            "title": title,
            "gifts": GAMES[name].features.gifts,
            "vaults": GAMES[name].features.vaults,
            "games": GAMES[name].features.games,
            "max_games": GAMES[name].features.max_games,
            "options": _host_options(GAMES[name]),
            **_clock_hints(GAMES[name]),
        }
        for name, title in game_choices()
        if on_screens(name)
    ]
    context = {
        "games": games,
        "default_game": DEFAULT_GAME,
        "default_features": GAMES[DEFAULT_GAME].features,
        "default_hints": _clock_hints(GAMES[DEFAULT_GAME]),
    }
    return render(request, "events/home.html", context)


def _missing(request: HttpRequest, code: str) -> NothingHere:
    return NothingHere(render(request, "events/missing.html", {"code": code}, status=404))


def _page_party(request: HttpRequest, code: str) -> Party:
    """The party a page names (behind the gate), or the answer that refuses it."""
    party = party_by_code(code)
    if party is None:
        raise _missing(request, code)
    return party


# The big screen speaks the party's language, always; a tablet does unless its switch was
# used (events/party/language.py).
_ROOM_SCREENS = frozenset({"events/screen.html", "events/tablet.html"})


def _party_page(request: HttpRequest, code: str, template: str) -> HttpResponse:
    party = _page_party(request, code)
    party_language_activate(
        request,
        party_language=party.language,
        follows_party=template in _ROOM_SCREENS,
        room=template == "events/screen.html",
    )
    if party.expired:
        return render(request, "events/missing.html", {"code": code, "expired": True}, status=410)
    # The link and QR code a phone can open (events/party/public_url.py), and whether none can.
    links = {"join_url": public_url.join_url(request, party.code), "lan_missing": public_url.lan_missing(request)}
    return render(request, template, {"party": party, **_game_context(party.game, template), **links})


def _game_context(name: str, template: str | None) -> dict[str, Any]:
    """The party's game for a page: `game` (its facts, for the template and, as
    `heist-game`, for the page's scripts: events/web/screens.py), its rules for the
    scripts (`heist-rules`, in the page's language; base.html embeds them) and its
    templates' fragments (`fragments`: games/<name>/templates/<name>/)."""
    return {
        "game": game_for_page(name, template),
        "screen_rules": rules_for_screens(name),
        "fragments": game_fragments(name),
    }


@require_safe
@party_gate()
def host_page(request: HttpRequest, code: str) -> HttpResponse:
    return _party_page(request, code, "events/host.html")


@require_safe
@party_gate()
def join_page(request: HttpRequest, code: str) -> HttpResponse:
    party = _page_party(request, code)
    party_language_activate(request, party_language=party.language)
    if not party.expired and party.status == party.Status.OVER:
        # A latecomer to a finished party sees who took what home, not a seat offer;
        # told as the story tells it (a gift never unwrapped keeps its description).
        context = {"party": party, "result": party_result(party, public=True), **_game_context(party.game, None)}
        return render(request, "events/join.html", context)
    return _party_page(request, code, "events/join.html")


@require_safe
@party_gate()
def play_page(request: HttpRequest, code: str) -> HttpResponse:
    return _party_page(request, code, "events/play.html")


@require_safe
@party_gate()
def tablet_page(request: HttpRequest, code: str) -> HttpResponse:
    return _party_page(request, code, "events/tablet.html")


@require_safe
@party_gate()
def screen_page(request: HttpRequest, code: str) -> HttpResponse:
    return _party_page(request, code, "events/screen.html")


@require_safe
@party_gate()
def join_qr(request: HttpRequest, code: str) -> HttpResponse:
    """An SVG QR code of the join link (the link holds the code, never a secret)."""
    party = _page_party(request, code)
    url = public_url.join_url(request, party.code)
    img = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    buf = io.BytesIO()
    img.save(buf)
    return HttpResponse(buf.getvalue(), content_type="image/svg+xml")


# The CSV's answer without the host's secret, whether the party exists or not.
HOST_ONLY = Forbidden(gettext_lazy("only the party's host can download its result"))


@require_safe
@party_gate(answer="json")
def party_result_csv(request: HttpRequest, code: str) -> HttpResponse:
    """The party's result as CSV, for the host only: the host secret comes in the
    Authorization header (the dashboard fetches it and saves the file)."""
    party = party_by_code(code)
    token = bearer_token(request)
    if party is None or token is None or not token_matches(token, party.host_token_hash):
        raise NothingHere(error_response(HOST_ONLY))
    result = party_result(party)
    out = io.StringIO()
    writer = _SafeWriter(csv.writer(out))
    if "ranking" in result:  # a game without gifts: its ranking
        _ranking_csv(writer, result)
    else:
        _gifts_csv(writer, result)
    # A byte-order mark first: Excel reads a CSV without one in the system's code page
    # and shows "TomÃ¡s" for "Tomás".
    response = HttpResponse("\ufeff" + out.getvalue(), content_type="text/csv; charset=utf-8")
    slug = game_named(party.game).title.lower().replace(" ", "-")
    response["Content-Disposition"] = f'attachment; filename="{slug}-{party.code}.csv"'
    return response


def _ranking_csv(writer: _SafeWriter, result: dict[str, Any]) -> None:
    """A game without gifts: one row per seated guest, best first. `name` is the guest
    who sat down at the seat; `played by` everyone who played it (a substitute)."""
    games = max((len(r.get("games", ())) for r in result["ranking"]), default=0)
    per_game = [f"game {i}" for i in range(1, games + 1)]
    groups = {g["group"]: g["name"] for g in result.get("groups", ())}
    group = ["team"] if groups else []
    writer.writerow(
        ["rank", "name", "table", "seat", *group, "total", *per_game, "table winner", "champion", "played by"]
    )
    for row in result["ranking"]:
        banks = list(row.get("games", ()))
        team = [groups[row["group"]]] if groups else []
        writer.writerow(
            [
                row["rank"],
                row["guest"],
                row["table"],
                row["seat"] + 1,  # from 1, as on every screen
                *team,
                row["total"],
                *banks,
                *[""] * (games - len(banks)),
                "yes" if row["table_winner"] else "no",
                "yes" if row["champion"] else "no",
                ", then ".join(row["played_by"]),
            ]
        )
    # A game played in teams across tables: the teams' totals, the party's contest.
    for g in result.get("groups", ()):
        writer.writerow(
            [
                "team total",
                g["name"],
                "",
                "",
                g["name"],
                g["total"],
                *[""] * games,
                "",
                "yes" if g["winner"] else "no",
                "",
            ]
        )


def _gifts_csv(writer: _SafeWriter, result: dict[str, Any]) -> None:
    """A gift swap: who takes which gift home, the vault's returns and the late arrivals."""
    # `name` is who takes the gift home: for a seat a substitute played, the guest
    # who sat down there (docs/RULES.md); `played by` names everyone who played it.
    writer.writerow(["kind", "name", "table", "seat", "gift", "description", "source", "played by"])
    for row in result["keeps"]:
        # Seats are numbered from 1 here, as on every screen (the wire form counts from 0).
        seat = row["seat"] + 1
        played = ", then ".join(row["played_by"])
        writer.writerow(
            ["keeps", row["guest"], row["table"], seat, row["gift"], row["description"], row["source"], played]
        )
    for row in result["vault_returns"]:
        writer.writerow(
            ["vault return", row["returns_to"], row["table"], "", row["gift"], row["description"], row["source"], ""]
        )
    for row in result["late"]:
        # A late arrival takes their own gift home, seated as a substitute or not.
        played = "" if row["played_for"] is None else f"{row['guest']}, for {row['played_for']}"
        seat = "" if row["seat"] is None else row["seat"] + 1
        table = row["table"] or ""
        writer.writerow(
            [
                "late arrival keeps own gift",
                row["guest"],
                table,
                seat,
                row["gift"],
                row["description"],
                row["source"],
                played,
            ]
        )


class _RowWriter(Protocol):
    """What _SafeWriter needs of a csv.writer."""

    def writerow(self, row: Iterable[Any], /) -> Any: ...


class _SafeWriter:
    """Guests type the names: a cell starting with = + - @ would run as a formula in a
    spreadsheet (CSV injection), so such cells are prefixed with a quote."""

    def __init__(self, writer: _RowWriter) -> None:
        self.writer = writer

    def writerow(self, row: Iterable[Any]) -> None:
        self.writer.writerow(["'" + c if isinstance(c, str) and c[:1] in ("=", "+", "-", "@") else c for c in row])
