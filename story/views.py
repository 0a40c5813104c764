"""The story's page, its JSON download and its picture. Anyone with the party's code
may read them (the join code is what everyone at the party has), and only once the
party is over: before that the page says so and the downloads answer 409."""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from events.http import error_response
from events.models import Party
from events.selectors import party_by_code
from tables.engine import ROUND_NAMES
from tables.errors import ServiceError

from .selectors import party_story
from .svg import story_svg


def _party(code: str) -> Party:
    party = party_by_code(code)
    if party is None or party.expired:
        raise Http404("no such party")
    return party


def _not_over() -> JsonResponse:
    return error_response(ServiceError("not_over", "the story is told once every table has finished"))


@require_safe
def story_page(request: HttpRequest, code: str) -> HttpResponse:
    party = party_by_code(code)
    if party is None:
        return render(request, "events/missing.html", {"code": code}, status=404)
    if party.expired:
        return render(request, "events/missing.html", {"code": code, "expired": True}, status=410)
    context = {"party": party, "screen": request.GET.get("screen") == "1", "over": party.status == Party.Status.OVER}
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
def story_json(request: HttpRequest, code: str) -> HttpResponse:
    party = _party(code)
    if party.status != Party.Status.OVER:
        return _not_over()
    response = HttpResponse(json.dumps(party_story(party), indent=1), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="yankee-heist-{party.code}-story.json"'
    return response


@require_safe
def story_svg_view(request: HttpRequest, code: str) -> HttpResponse:
    party = _party(code)
    if party.status != Party.Status.OVER:
        return _not_over()
    response = HttpResponse(story_svg(party_story(party)), content_type="image/svg+xml")
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response
