"""Word Heist's story of a party (story/game.py): each table's play round by round, as
the game's pure telling reads it from the table's events (games/word/story.py): who
wrote what, the "Halt!" moments, the winners; the seats named by the host
(story/told.py), told by templates/word/story.html with the champions. No picture."""

from __future__ import annotations

from games.word.story import table_story
from story.game import GameStory
from story.told import TablesStory

STORY: GameStory = TablesStory("word/story.html", table_story)
