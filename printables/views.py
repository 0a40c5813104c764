"""Downloads: the deck and Royal Heist's rules card for anyone (they hold nothing about
a party), a party's
printables for its host only (guest names and the seating are on them): the host
secret comes in the Authorization header, as for the result CSV, and the dashboard
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

from .party import KINDS, NotAvailable
from .services import deck_pdf_cached, party_printables, royal_rules_pdf_cached
from .sheet import PAPERS

PARTY_KINDS = ("all", *KINDS)


def _pdf(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


@require_safe
def deck_download(request: HttpRequest) -> HttpResponse:
    response = _pdf(deck_pdf_cached(), "yankee-heist-deck.pdf")
    response["Cache-Control"] = "public, max-age=3600"
    patch_vary_headers(response, ("Cookie", "Accept-Language"))  # the page's language picks the words
    return response


@require_safe
def royal_rules_download(request: HttpRequest) -> HttpResponse:
    """?paper=a4 for A4; US Letter otherwise, like every printable."""
    paper = request.GET.get("paper", "letter")
    if paper not in PAPERS:
        refusal = ServiceError(ErrorCode.INVALID, f"no paper {paper!r}: choose from {', '.join(PAPERS)}")
        return error_response(refusal, status=404)
    response = _pdf(royal_rules_pdf_cached(paper), f"royal-heist-rules-{paper}.pdf")
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
    if kind not in PARTY_KINDS:
        refusal = ServiceError(ErrorCode.INVALID, f"no printable {kind!r}: choose from {', '.join(PARTY_KINDS)}")
        return error_response(refusal, status=404)
    kinds = KINDS if kind == "all" else (kind,)
    base_url = public_url.base_url(request)  # the address phones open (events/party/public_url.py)
    try:
        data = party_printables(party=party, base_url=base_url, kinds=kinds)
    except NotAvailable as exc:
        return error_response(ServiceError(ErrorCode.NOT_SEATED, str(exc)))
    return _pdf(data, f"yankee-heist-{party.code}-{kind}.pdf")
