"""The story's page, its JSON download and its picture. Anyone with the party's code
may read them (the join code is what everyone at the party has), and only once the
party is over. Before that, and for a code no party has (or an expired party), they
give the one same answer (events/access/gate.py): a story that is not told yet must not tell
that its party exists."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from events.access.gate import NothingHere, holder, party_gate
from events.models import Party
from events.party.selectors import party_by_code, party_result
from events.web.http import error_response
from games.registry import game_named
from games.yankee import ROUND_NAMES
from tables.errors import ErrorCode, ServiceError

from .heists import tells_its_story
from .selectors import party_story
from .svg import story_svg

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
    context = {"party": party, "screen": request.GET.get("screen") == "1", "over": party.status == Party.Status.OVER}
    if not game_named(party.game).features.gifts:
        # A game without gifts: its tables' play as the game tells it (story/heists.py),
        # or, for a game that tells none, its result; never a gift swap's words.
        context["title"] = game_named(party.game).title
        if context["over"]:
            context["story"] = party_story(party) if tells_its_story(party) else {"result": party_result(party)}
        return render(request, "story/heists.html", context)
    if context["over"]:
        story = party_story(party)
        context["story"] = story
        # Built by story.svg, which escapes every name and label it writes.
        context["svg"] = mark_safe(story_svg(story))
        if context["screen"]:  # the big screen's slides: one table's picture each, large
            context["table_svgs"] = [mark_safe(story_svg(story, table=f["table"])) for f in story["flows"]]
        context["rounds"] = [{"table": t["table"], "rounds": _by_round(t["entries"])} for t in story["tables"]]
    return render(request, "story/story.html", context)


def _by_round(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for e in entries:
        if not out or out[-1]["round"] != e["round"]:
            out.append({"round": e["round"], "name": ROUND_NAMES[e["round"]], "entries": []})
        out[-1]["entries"].append(e)
    return out


@require_safe
@party_gate(answer="json")
def story_json(request: HttpRequest, code: str) -> HttpResponse:
    party = _told(request, code, page=False)
    if not game_named(party.game).features.gifts and not tells_its_story(party):
        raise NothingHere(error_response(_UNTOLD, status=404))
    response = HttpResponse(json.dumps(party_story(party), indent=1), content_type="application/json")
    slug = game_named(party.game).title.lower().replace(" ", "-")
    response["Content-Disposition"] = f'attachment; filename="{slug}-{party.code}-story.json"'
    return response


@require_safe
@party_gate(answer="json")
def story_svg_view(request: HttpRequest, code: str) -> HttpResponse:
    party = _told(request, code, page=False)
    if not game_named(party.game).features.gifts:
        # The picture is of gifts moving between seats and tables: a gift swap's only.
        raise NothingHere(error_response(_UNTOLD, status=404))
    response = HttpResponse(story_svg(party_story(party)), content_type="image/svg+xml")
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response
