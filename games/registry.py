"""Every game the party can host, by the name stored with a party and a table.

A game is one package (docs/GAMES.md): `<package>.definition.DEFINITION` is its pure
definition, and the package's other parts (its screens' modules, printables, story,
simulator hook, translations) are found by the host from the package's path. Adding a
game is one line in `PACKAGES`; a game registered by the tests only (the canary) is
installed by the settings' `HEIST_GAME_PACKAGES` (tables/apps.py), never by a line here.

The packages are imported by name, so nothing outside a game's package imports it (the
`game-seam` contract in pyproject.toml), and the database keeps plain names: a stored
game is checked here, not by a column's choices, so adding a game needs no migration.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import cast

from games.definition import Definition, TakesPartyData

# The games every party may choose, in the host form's order; the first is the party's
# default, the game the host gets without choosing.
PACKAGES: tuple[str, ...] = ("games.yankee", "games.royal", "games.word", "games.blinks")

GAMES: dict[str, Definition] = {}
_PACKAGE_OF: dict[str, str] = {}


def install(package: str) -> Definition:
    """Register the game in `package` (idempotent); return its definition."""
    definition = cast(Definition, importlib.import_module(f"{package}.definition").DEFINITION)
    known = _PACKAGE_OF.get(definition.name)
    if known is not None and known != package:
        raise LookupError(f"two packages name the game {definition.name!r}: {known}, {package}")
    if isinstance(definition, TakesPartyData):
        # The party's data for the rules (games/definition.py TakesPartyData): loaded by
        # the part itself, lazily, so registering costs an import, not a read.
        data_part = importlib.import_module(f"{package}.party.{definition.data_part}")
        definition.take_party_data(data_part.DATA)
    GAMES[definition.name] = definition
    _PACKAGE_OF[definition.name] = package
    return definition


for _package in PACKAGES:
    install(_package)

DEFAULT_GAME = next(iter(GAMES))


def warm() -> None:
    """Load now every game's party data that its part offers to load ahead (the part's
    optional `WARM`): a server calls this at start (config/asgi.py), so that no request,
    and no act applied on the event loop, reads files on first use."""
    for name, definition in GAMES.items():
        if isinstance(definition, TakesPartyData):
            data_part = importlib.import_module(f"{_PACKAGE_OF[name]}.party.{definition.data_part}")
            warm_part = getattr(data_part, "WARM", None)
            if warm_part is not None:
                warm_part()


def game_named(name: str) -> Definition:
    try:
        return GAMES[name]
    except KeyError:
        raise LookupError(f"no game named {name!r}: {sorted(GAMES)}") from None


def package_of(name: str) -> str:
    """The package of the game named `name` ("games.royal"): where its parts live."""
    game_named(name)
    return _PACKAGE_OF[name]


def part_of(name: str, part: str) -> ModuleType | None:
    """The module `<package>.party.<part>` of the game named `name` (its printables, its
    story, its simulator hook...: what the game brings to the party beyond its pure
    rules, docs/GAMES.md), or None when the game has no such part."""
    module = f"{package_of(name)}.party.{part}"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as missing:
        if missing.name is not None and module.startswith(missing.name):
            return None  # the game has no such part (not: the part failed to import)
        raise


def game_choices() -> list[tuple[str, str]]:
    """(name, title) of every registered game, for a form's choices."""
    return [(d.name, d.title) for d in GAMES.values()]
