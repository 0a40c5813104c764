"""What every page's scripts need of the rules, from the engine (not a copy in JS).

templates/base.html embeds `screen_rules` as <script id="heist-rules"
type="application/json">; static/heist/ui.js reads it once (`rules()`): the game's
rules exactly as its engine states them (`rules_for_screens()`, through the registry).
A party's page puts its own game's in the context (events/web/views.py); a page of no
party (the home page) gets the default game's.

The texts a screen shows (card effects, card titles, rank names) come in
the page's active language (issue 32); printed card names and round names stay as printed.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.http import HttpRequest
from django.utils import translation

from games.registry import DEFAULT_GAME, game_named


@cache
def _rules_in(game: str, language: str) -> dict[str, Any]:
    # The engine's rules do not change while the process runs: computed once per game
    # and language.
    with translation.override(language):
        return game_named(game).rules_for_screens(translation.gettext)


def rules_for_screens(game: str) -> dict[str, Any]:
    """A game's rules for the screens, its texts in the active language (shared: do not
    change the dict)."""
    return _rules_in(game, translation.get_language() or "en")


def screen_rules(request: HttpRequest) -> dict[str, Any]:
    return {"screen_rules": rules_for_screens(DEFAULT_GAME)}
