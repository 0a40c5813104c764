"""A game registered by the tests only, with no party parts (no `party/` folder): the
host must print and tell it with its fallbacks. Its rules are Royal Heist's under
another name and title, so a page naming either real game is caught."""

from __future__ import annotations

import pytest


def register(monkeypatch: pytest.MonkeyPatch) -> str:
    """Register the bare game for one test (undone after it); return its name."""
    from games import registry
    from tests.bare_game.definition import DEFINITION

    # The registry's own dicts (modules hold them by reference), restored after the test.
    monkeypatch.setitem(registry.GAMES, DEFINITION.name, DEFINITION)
    monkeypatch.setitem(registry._PACKAGE_OF, DEFINITION.name, "tests.bare_game")
    return DEFINITION.name
