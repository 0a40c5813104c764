"""Royal Heist strategies by name, for the command line and the report.

    T12     leave once the satchel plus an equal share of the rooms' leftovers (what
            getting out now would bank) reaches 12 jewels (games.royal.SatchelThreshold)
    D2      leave once 2 different danger ranks are showing this heist (DangerLimit)
    R50     press on with probability 50 %, whatever the table shows (Coin)
    press   always press on: the control that never banks a jewel
    out     always get out at the first decision

A name is resolved per game with that game's own `random.Random`, so a coin's draws
are the game's and a seed reproduces them.
"""

from __future__ import annotations

import random

from games.royal import Coin, DangerLimit, Game, SatchelThreshold, Strategy

# The field every table size is played with: satchel thresholds, danger limits and a
# coin, seats drawn from it at random, so every strategy meets every other.
DEFAULT_FIELD = ("T5", "T10", "T15", "T20", "T30", "D1", "D2", "D3", "R50")


def _press(g: Game, seat: int) -> bool:
    return True


def _out(g: Game, seat: int) -> bool:
    return False


def check(name: str) -> str:
    """`name` if it names a strategy, else ValueError."""
    if name in ("press", "out"):
        return name
    kind, digits = name[:1], name[1:]
    if kind in "TDR" and digits.isdigit():
        value = int(digits)
        if kind == "T" and value >= 1:
            return name
        if kind == "D" and 1 <= value <= 5:
            return name
        if kind == "R" and value <= 100:
            return name
    raise ValueError(f"unknown strategy {name!r}: T<jewels> (>= 1), D<dangers> (1-5), R<percent>, press or out")


def strategy(name: str, r: random.Random) -> Strategy:
    """The strategy `name` plays, its coin (if any) drawn from `r`."""
    check(name)
    if name == "press":
        return _press
    if name == "out":
        return _out
    value = int(name[1:])
    if name[0] == "T":
        return SatchelThreshold(value)
    if name[0] == "D":
        return DangerLimit(value)
    return Coin(value / 100, r)


def describe(name: str) -> str:
    check(name)
    if name == "press":
        return "always press on"
    if name == "out":
        return "always get out at once"
    value = int(name[1:])
    if name[0] == "T":
        return f"get out once getting out would bank {value}+ jewels"
    if name[0] == "D":
        return f"get out once {value} danger rank{'s' if value > 1 else ''} showing"
    return f"press on with probability {value} %"
