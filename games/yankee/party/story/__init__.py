"""Yankee Heist's story of a party (story/game.py): every gift's journey from who brought
it to who took it home, the most-stolen gift, the closest escapes, each table's rounds
and a picture of the gifts' flows and the relay. Built from the tables' replays
(inputs.py, build.py), drawn as SVG (svg.py), told by templates/yankee/story.html."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import mark_safe

from events.models import Party
from games.yankee import ROUND_NAMES
from story.game import GameStory

from .inputs import story_replay
from .svg import story_svg


def _by_round(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for e in entries:
        if not out or out[-1]["round"] != e["round"]:
            out.append({"round": e["round"], "name": ROUND_NAMES[e["round"]], "entries": []})
        out[-1]["entries"].append(e)
    return out


def _guests(story: dict[str, Any]) -> list[dict[str, Any]]:
    """The contents' guests, by name: the gifts each brought and took home (the journeys'
    anchors), so a guest finds their own without reading a hundred."""
    guests: dict[str, dict[str, Any]] = {}
    for g in story["gifts"]:
        if g["kind"] != "vault":
            guests.setdefault(g["brought_by"], {"brought": [], "home": []})["brought"].append(g["gift"])
        if not g["returned"]:
            guests.setdefault(g["home_with"], {"brought": [], "home": []})["home"].append(g["gift"])
    return [{"name": name, **gifts} for name, gifts in sorted(guests.items(), key=lambda kv: kv[0].casefold())]


class YankeeStory:
    template = "yankee/story.html"

    def tell(self, party: Party) -> dict[str, Any]:
        return story_replay(party)

    def page_context(self, story: dict[str, Any], *, screen: bool) -> dict[str, Any]:
        # Drawn by svg.py, which escapes every name and label it writes.
        context: dict[str, Any] = {
            "svg": mark_safe(story_svg(story)),
            "rounds": [{"table": t["table"], "rounds": _by_round(t["entries"])} for t in story["tables"]],
            "guests": _guests(story),
        }
        if screen:  # the big screen's slides: one table's picture each, large
            context["table_svgs"] = [mark_safe(story_svg(story, table=f["table"])) for f in story["flows"]]
        return context

    def picture(self, story: dict[str, Any], *, table: str | None = None) -> str | None:
        return story_svg(story, table=table)


STORY: GameStory = YankeeStory()
