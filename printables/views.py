"""Downloads: a game's deck and rules card for anyone (they hold nothing about a party),
a party's printables for its host only (guest names and the seating are on them): the
host secret comes in the Authorization header, as for the result CSV, and the dashboard
saves the file it fetched."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_safe

from events.access.gate import NothingHere, bearer_token, party_gate
from events.party import public_url
from events.party.secrets import token_matches
from events.party.selectors import party_by_code
from events.web.http import error_response
from tables.errors import ErrorCode, Forbidden, ServiceError

from .party import NotAvailable, kinds_of
from .services import file_slug, handout_of, handout_pdf_cached, party_printables


def _pdf(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


@require_safe
def handout_download(request: HttpRequest, game: str, what: str) -> HttpResponse:
    """A game's deck or rules card (`what`); ?paper=a4 for A4 where the game prints it on
    A4, its first paper (US Letter, like every printable) otherwise. A game without one,
    an unknown game or another paper: 404."""
    try:
        handout = handout_of(game, what)
    except LookupError:
        handout = None
    if handout is None:
        return error_response(ServiceError(ErrorCode.INVALID, f"no game {game!r} prints a {what}"), status=404)
    paper = request.GET.get("paper", handout.papers[0])
    if paper not in handout.papers:
        refusal = ServiceError(ErrorCode.INVALID, f"no paper {paper!r}: choose from {', '.join(handout.papers)}")
        return error_response(refusal, status=404)
    name = f"{file_slug(game)}-{what}" + (f"-{paper}" if len(handout.papers) > 1 else "")
    response = _pdf(handout_pdf_cached(game, what, paper), f"{name}.pdf")
    response["Cache-Control"] = "public, max-age=3600"
    patch_vary_headers(response, ("Cookie", "Accept-Language"))  # the page's language picks the words
    return response


# The answer without the host's secret, whether the party exists or not (events/access/gate.py).
HOST_ONLY = Forbidden("only the party's host can download its printables")


@require_safe
@party_gate(answer="json")
def party_printables_download(request: HttpRequest, code: str, kind: str) -> HttpResponse:
    party = party_by_code(code)
    token = bearer_token(request)
    if party is None or token is None or not token_matches(token, party.host_token_hash):
        raise NothingHere(error_response(HOST_ONLY))
    kinds = kinds_of(party.game)
    if kind != "all" and kind not in kinds:
        choices = ", ".join(("all", *kinds))
        refusal = ServiceError(ErrorCode.INVALID, f"no printable {kind!r}: choose from {choices}")
        return error_response(refusal, status=404)
    base_url = public_url.base_url(request)  # the address phones open (events/party/public_url.py)
    try:
        data = party_printables(party=party, base_url=base_url, kinds=kinds if kind == "all" else (kind,))
    except NotAvailable as exc:
        return error_response(ServiceError(ErrorCode.NOT_SEATED, str(exc)))
    return _pdf(data, f"{file_slug(party.game)}-{party.code}-{kind}.pdf")
