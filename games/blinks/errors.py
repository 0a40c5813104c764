"""Typed errors for Blinks Heist's refused actions.

Each names the rule it enforces (`rule`) and says in plain words what was wrong.
Raising one never changes the game: `apply` works on a copy.
"""

from __future__ import annotations

from games.errors import IllegalActionError, MalformedActionError, OutOfTurnError, WrongPhaseError


class NoSuchSeatError(IllegalActionError):
    """A seat that is not at this table."""

    rule = "seat"


class NoSuchBlinkError(IllegalActionError):
    """A vault Blink the table does not have (they are numbered from 1)."""

    rule = "blink"


class ClaimedError(IllegalActionError):
    """A claimed Blink has left the vault: nobody can hit it any more."""

    rule = "claimed"


class AlreadyRecordedError(IllegalActionError):
    """A throw number that is used already: a throw recorded twice (a phone's retry, a
    double tap) counts once, the second record is refused and changes nothing."""

    rule = "recorded"


class AlreadySettledError(IllegalActionError):
    """A confirmation or a captain's call for a throw that is no longer waiting for one
    (confirmed, called or taken back already): the first tap counted."""

    rule = "settled"


class NoSuchThrowError(IllegalActionError):
    """A throw number ahead of the table's next one, or one nobody recorded."""

    rule = "throw"


class UndoClosedError(IllegalActionError):
    """Only the last confirmed throw can be taken back, until the next throw is recorded."""

    rule = "undo"


class EndTurnError(IllegalActionError):
    """Ending a turn is the alternate rule's, once the thrower has thrown this turn."""

    rule = "end_turn"


__all__ = [
    "AlreadyRecordedError",
    "AlreadySettledError",
    "ClaimedError",
    "EndTurnError",
    "IllegalActionError",
    "MalformedActionError",
    "NoSuchBlinkError",
    "NoSuchSeatError",
    "NoSuchThrowError",
    "OutOfTurnError",
    "UndoClosedError",
    "WrongPhaseError",
]
