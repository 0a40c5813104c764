"""Blinks Heist's story of a party (story/game.py): the teams' totals, then each table
Blink by Blink (who broke which Blink, who chipped at it), as the game's pure telling
reads it from the table's events (games/blinks/story.py), the seats named by the host
(story/told.py), told by templates/blinks/story.html. No picture."""

from __future__ import annotations

from typing import Any

from events.models import Party
from games.blinks.story import table_story
from story.game import GameStory
from story.told import tables_told


class BlinksStory:
    template = "blinks/story.html"

    def tell(self, party: Party) -> dict[str, Any]:
        return tables_told(party, table_story)

    def page_context(self, story: dict[str, Any], *, screen: bool) -> dict[str, Any]:
        return {}

    def picture(self, story: dict[str, Any], *, table: str | None = None) -> str | None:
        return None


STORY: GameStory = BlinksStory()
