"""Word Heist's story of a party (story/game.py): each table's play round by round, as
the game's pure telling reads it from the table's events (games/word/story.py): who
wrote what, the "Halt!" moments, the winners; the seats named by the host
(story/told.py), told by templates/word/story.html with the champions. No picture."""

from __future__ import annotations

from typing import Any

from events.models import Party
from games.word.story import table_story
from story.game import GameStory
from story.told import tables_told


class WordStory:
    template = "word/story.html"

    def tell(self, party: Party) -> dict[str, Any]:
        return tables_told(party, table_story)

    def page_context(self, story: dict[str, Any], *, screen: bool) -> dict[str, Any]:
        return {}

    def picture(self, story: dict[str, Any], *, table: str | None = None) -> str | None:
        return None


STORY: GameStory = WordStory()
