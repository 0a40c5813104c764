"""Every game the party can host, by the name stored with a party and a table.

The one module outside a game's package that imports it (the `game-seam` contract in
pyproject.toml): the host finds a game's definition here, by the name on its row.
"""

from __future__ import annotations

from games.definition import Definition
from games.royal.definition import ROYAL
from games.yankee.definition import YANKEE

# The first is the party's default: the game the host gets without choosing.
GAMES: dict[str, Definition] = {d.name: d for d in (YANKEE, ROYAL)}
DEFAULT_GAME = YANKEE.name


def game_named(name: str) -> Definition:
    try:
        return GAMES[name]
    except KeyError:
        raise LookupError(f"no game named {name!r}: {sorted(GAMES)}") from None


def game_choices() -> list[tuple[str, str]]:
    """(name, title) of every registered game, for a model's and a form's choices."""
    return [(d.name, d.title) for d in GAMES.values()]
