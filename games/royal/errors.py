"""Typed errors for Royal Heist's illegal actions.

Each names the rule it enforces (`rule`) and says in plain words what was wrong.
Raising one never changes the game: `apply` works on a copy.
"""

from __future__ import annotations

from games.errors import IllegalActionError, MalformedActionError, OutOfTurnError, WrongPhaseError


class NoSuchSeatError(IllegalActionError):
    """A seat that is not at this table."""

    rule = "seat"


class NotInsideError(OutOfTurnError):
    """A player who got out of this heist has nothing left to decide in it."""

    rule = "inside"


class AlreadyDecidedError(IllegalActionError):
    """A decision is final once given: nobody changes it before the reveal."""

    rule = "decided"


__all__ = [
    "AlreadyDecidedError",
    "IllegalActionError",
    "MalformedActionError",
    "NoSuchSeatError",
    "NotInsideError",
    "OutOfTurnError",
    "WrongPhaseError",
]
