"""Every game the party can host, by the name stored with a party and a table."""

from __future__ import annotations

from games.definition import Definition
from games.royal.definition import ROYAL
from games.yankee.definition import YANKEE

# The first is the party's default: the game the host gets without choosing.
GAMES: dict[str, Definition] = {d.name: d for d in (YANKEE, ROYAL)}
DEFAULT_GAME = YANKEE.name


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
