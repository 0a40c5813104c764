"""Royal Heist's story of a party (story/game.py): each table's play heist by heist, as
the game's pure telling reads it from the table's events (games/royal/story.py), the
seats named by the host (story/told.py), told by templates/royal/story.html with the
champions. No picture: nothing moves between seats but jewels."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext

from events.models import Party
from games.royal.state import Event
from games.royal.story import table_story
from story.game import GameStory
from story.told import tables_told


def _told_in_the_readers_words(events: Sequence[Event]) -> dict[str, Any]:
    return table_story(events, gettext)  # the cards' titles in the active language


class RoyalStory:
    template = "royal/story.html"

    def tell(self, party: Party) -> dict[str, Any]:
        return tables_told(party, _told_in_the_readers_words)

    def page_context(self, story: dict[str, Any], *, screen: bool) -> dict[str, Any]:
        # The contents' guests, by name, each with their table (a substitute too).
        guests = {(name, t["table"]) for t in story["tables"] for s in t["seats"] for name in s["played_by"]}
        return {"guests": [{"name": n, "table": t} for n, t in sorted(guests, key=lambda g: (g[0].casefold(), g[1]))]}

    def picture(self, story: dict[str, Any], *, table: str | None = None) -> str | None:
        return None


STORY: GameStory = RoyalStory()
