"""Every game the party can host, by the name stored with a party and a table.

The one module outside a game's package that imports it (the `game-seam` contract in
pyproject.toml): the host finds a game's definition here, by the name on its row.
"""

from __future__ import annotations

from games.definition import Definition
from games.royal.definition import ROYAL
from games.yankee.definition import YANKEE

DEFAULT_GAME = "yankee"  # every party and table made before there was a choice

GAMES: dict[str, Definition] = {}


def register(definition: Definition) -> Definition:
    if definition.name in GAMES:
        raise ValueError(f"a game named {definition.name!r} is registered already")
    GAMES[definition.name] = definition
    return definition


def game_named(name: str) -> Definition:
    try:
        return GAMES[name]
    except KeyError:
        raise LookupError(f"no game named {name!r}: {sorted(GAMES)}") from None


def game_choices() -> list[tuple[str, str]]:
    """(name, title) of every registered game, for a model's and a form's choices."""
    return [(d.name, d.title) for d in GAMES.values()]


register(YANKEE)
register(ROYAL)
