"""Every game the party can host, by the name stored with a party and a table."""

from __future__ import annotations

from games.definition import Definition

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
