"""Build Blinks Heist games for rules tests.

`table(players, vault)` starts a real `new_game` and, since the seed draws who throws
first, hands the first turn to seat 0 the way the engine keeps it (the turn and the
first seat), so a test reads "seat 0 throws, then seat 1". `throw` records a throw and
has the captain confirm it, as a table does.

    g = table(3, vault=4)
    g, events = throw(g, hit=2)              # seat 0 hits Blink 2, confirmed
    g, events = throw(g, hit=None, touched=True)   # seat 1 misses and touches
"""

from __future__ import annotations

from collections.abc import Sequence

from games.blinks import Confirm, Event, Game, Throw, apply, new_game


def table(
    players: int, vault: int = 6, *, alternate: bool = False, teams: Sequence[int] | None = None, first: int = 0
) -> Game:
    g, _ = new_game(0, players, vault=vault, alternate=alternate, teams=teams)
    g.first = g.turn = first
    return g


def record(g: Game, hit: int | None = None, touched: bool = False) -> tuple[Game, list[Event]]:
    """The thrower whose turn it is records the next throw (not yet confirmed)."""
    return apply(g, Throw(g.turn, g.throws + 1, hit, touched))


def throw(g: Game, hit: int | None = None, touched: bool = False) -> tuple[Game, list[Event]]:
    """The thrower records the next throw and the captain confirms it."""
    g, events = record(g, hit, touched)
    g, more = apply(g, Confirm(g.throws))
    return g, events + more


def throws(g: Game, *hits: int | None) -> tuple[Game, list[Event]]:
    """Several confirmed throws in turn order, none touching."""
    events: list[Event] = []
    for hit in hits:
        g, more = throw(g, hit)
        events += more
    return g, events


def of(events: list[Event], type_: str) -> list[Event]:
    return [e for e in events if e.type == type_]
