"""Blinks Heist's story of a party (story/game.py): the teams' totals, then each table
Blink by Blink (who broke which Blink, who chipped at it), as the game's pure telling
reads it from the table's events (games/blinks/story.py), the seats named by the host
(story/told.py), told by templates/blinks/story.html. No picture."""

from __future__ import annotations

from games.blinks.story import table_story
from story.game import GameStory
from story.told import TablesStory

STORY: GameStory = TablesStory("blinks/story.html", table_story)
