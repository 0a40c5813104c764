"""The games the conformance suite checks, and how it sets each one's table up.

`DEFINITIONS` is the one list every conformance test is parametrized over (the
`definition` fixture, conftest.py): the registry's games once games/registry.py has
any, until then the definitions this module can import, and the packages of
`UNREGISTERED`: a game whose package has landed before its registry line (the party
does not offer it yet), checked all the same. A new game is checked by registering it.

`example_setup` is the table a test plays: `Setup(players, seed, gate)` for any game,
with richer options for a game listed in `OPTIONS` (Yankee Heist: gifts whose
descriptions are `SECRET-` strings, so a leak is found by looking for that prefix, and
a vault of 0 to 3 gifts). A game that lets a party's table play several games in a
row (Features.max_games) plays one or two, so every property holds across them. A game whose options carry its secrets as `SECRET-` strings
gets the events' leak check for free.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from typing import Any

from games.definition import Definition, Setup
from games.registry import GAMES
from games.yankee.definition import YANKEE

SECRET = "SECRET-"  # every string a viewer may not see unless the rules show it begins so


# Packages checked before games/registry.py names them; a registered one is skipped here.
UNREGISTERED: tuple[str, ...] = ("games.blinks",)


def _definitions() -> list[Definition]:
    registered = list(GAMES.values()) or [YANKEE]
    waiting = [importlib.import_module(f"{package}.definition").DEFINITION for package in UNREGISTERED]
    return registered + [d for d in waiting if d.name not in {r.name for r in registered}]


DEFINITIONS: list[Definition] = _definitions()


def _yankee_options(players: int, r: random.Random) -> dict[str, Any]:
    def secret() -> str:
        return f"{SECRET}{r.getrandbits(64):016x}"

    gifts = [{"id": s + 1, "description": secret(), "brought_by": s} for s in range(players)]
    vault = [{"id": 1001 + i, "description": secret()} for i in range(r.randrange(4))]
    return {"gifts": gifts, "vault": vault, "last_call_draw": r.choice((0, 0, 2, 5))}


def _blinks_options(players: int, r: random.Random) -> dict[str, Any]:
    # a small vault keeps the games short; the alternate rule and the teams vary
    return {"vault": r.randint(3, 8), "alternate": r.random() < 0.5, "teams": [r.randrange(4) for _ in range(players)]}


OPTIONS: Mapping[str, Callable[[int, random.Random], dict[str, Any]]] = {
    "yankee": _yankee_options,
    "blinks": _blinks_options,
}


def example_setup(definition: Definition, players: int, seed: int, gate: bool) -> Setup:
    """The table a test plays: its options drawn from `seed` (the same seed, the same table)."""
    options = OPTIONS.get(definition.name)
    r = random.Random(f"options:{seed}")
    games = r.choice((1, 1, 2)) if definition.features.max_games > 1 else 1
    return Setup(players=players, seed=seed, gate=gate, games=games, options=options(players, r) if options else {})
