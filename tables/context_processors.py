"""What every page's scripts need of the rules, from the engine (not a copy in JS).

templates/base.html embeds `screen_rules` as <script id="heist-rules"
type="application/json">; static/heist/ui.js reads it once (`rules()`): card texts,
kinds and target counts, the two-player rule, round names, the hand limit and the
vault's gift-id base, exactly as games/yankee/catalogue.py states them (through the
registry: the pages' scripts are Yankee Heist's, the default game's).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games.registry import DEFAULT_GAME, game_named

# The engine's rules do not change while the process runs: computed once.
_RULES = game_named(DEFAULT_GAME).rules_for_screens()


def screen_rules(request: HttpRequest) -> dict[str, Any]:
    return {"screen_rules": _RULES}
