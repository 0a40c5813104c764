"""What a game brings to the party's story: the host's protocol (docs/GAMES.md).

Once a party is over, `/story/<CODE>/` tells what happened. The telling is the game's:
its package's part `games/<name>/party/story`, found by the game's name
(`games.registry.part_of(game, "story")`), exports `STORY`, a `GameStory`:

- `template`: the page's template (it extends "story/base.html" and fills its `told`
  block with `<section>`s; a game's templates live in its package,
  `games/<name>/templates/<name>/`); what the big screen's slideshow shows of each
  section is marked `data-slide` (static/heist/story.js: a unit, or "ol", "ul",
  "tbody" for a list's item, "alone" for a slide of its own, "heading");
- `tell(party)`: the story of a finished party as JSON-able data, from the tables'
  action logs (story/replay.py replays a table, story/told.py names the seats of a
  game that tells its tables one by one from their events); the host caches it per
  party and language and serves it as `story.json`;
- `page_context(story, screen=...)`: what the template needs beyond the story (the
  big screen's slides, pictures drawn for the page);
- `picture(story, table=...)`: the story's picture as SVG (`flow.svg`), or None.

A game without the part gets the host's fallback page (story/result.html): the game's
result, no table-by-table story, no JSON, no picture.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

from events.models import Party
from games.registry import part_of

FALLBACK_TEMPLATE = "story/result.html"


class GameStory(Protocol):
    """How a game tells a finished party (its package's `party/story`, `STORY`)."""

    @property
    def template(self) -> str: ...

    def tell(self, party: Party) -> dict[str, Any]:
        """The story of `party` (over), JSON-able, in the active language. Tells only
        what the big screen showed; raises story.replay.ReplayMismatch rather than tell
        a log that does not replay to the tables' stored states."""
        ...

    def page_context(self, story: dict[str, Any], *, screen: bool) -> dict[str, Any]:
        """The page's context beyond party, title, screen, over and story."""
        ...

    def picture(self, story: dict[str, Any], *, table: str | None = None) -> str | None:
        """The story's picture as an SVG document (`table`: one table's, large for the
        big screen), every name escaped; None: the game draws none."""
        ...


def story_of(game: str) -> GameStory | None:
    """The story part of the game named `game`, None when it tells none (the fallback)."""
    part = part_of(game, "story")
    return None if part is None else cast(GameStory, part.STORY)


__all__ = ["FALLBACK_TEMPLATE", "GameStory", "story_of"]
