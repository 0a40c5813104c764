"""The story's page, its JSON download and its picture. Anyone with the party's code
may read them (the join code is what everyone at the party has), and only once the
party is over. Before that, and for a code no party has (or an expired party), they
give the one same answer (events/access/gate.py): a story that is not told yet must not tell
that its party exists."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from events.access.gate import NothingHere, holder, party_gate
from events.models import Party
from events.party.selectors import party_by_code, party_result
from events.web.http import error_response
from games.registry import game_named
from tables.errors import ErrorCode, ServiceError

from .game import FALLBACK_TEMPLATE, story_of
from .selectors import party_story

_UNTOLD = ServiceError(ErrorCode.NO_STORY, "this party's game has no such story")


def _told(request: HttpRequest, code: str, *, page: bool) -> Party:
    """The party whose story is told, or the one answer for "no such party" and "not
    told yet" (the gate counts it as a miss)."""
    party = party_by_code(code)
    if page and party is not None and not party.expired and holder(request):
        return party  # one of the party's own may see the page wait for the end
    if party is None or party.expired or party.status != Party.Status.OVER:
        if page:
            raise NothingHere(render(request, "events/missing.html", {"code": code, "story": True}, status=404))
        untold = ServiceError(
            ErrorCode.NO_STORY, "no story with that code: no such party, or its story is not told yet"
        )
        raise NothingHere(error_response(untold, status=404))
    return party


@require_safe
@party_gate()
def story_page(request: HttpRequest, code: str) -> HttpResponse:
    party = _told(request, code, page=True)
    over, screen = party.status == Party.Status.OVER, request.GET.get("screen") == "1"
    context = {"party": party, "title": game_named(party.game).title, "screen": screen, "over": over}
    told = story_of(party.game)
    if told is None:  # a game that tells no story: the host's page, its result
        if over:
            context["result"] = party_result(party)
        return render(request, FALLBACK_TEMPLATE, context)
    if over:
        story = party_story(party)
        context["story"] = story
        context.update(told.page_context(story, screen=screen))
    return render(request, told.template, context)


@require_safe
@party_gate(answer="json")
def story_json(request: HttpRequest, code: str) -> HttpResponse:
    party = _told(request, code, page=False)
    if story_of(party.game) is None:
        raise NothingHere(error_response(_UNTOLD, status=404))
    response = HttpResponse(json.dumps(party_story(party), indent=1), content_type="application/json")
    response["Content-Disposition"] = (
        f'attachment; filename="{slugify(game_named(party.game).title)}-{party.code}-story.json"'
    )
    return response


@require_safe
@party_gate(answer="json")
def story_svg_view(request: HttpRequest, code: str) -> HttpResponse:
    party = _told(request, code, page=False)
    told = story_of(party.game)
    picture = told.picture(party_story(party)) if told is not None else None
    if picture is None:  # the game draws no picture of its story
        raise NothingHere(error_response(_UNTOLD, status=404))
    response = HttpResponse(picture, content_type="image/svg+xml")
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response
