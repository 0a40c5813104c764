"""Typed errors for illegal actions.

Every error names the rule it enforces (`rule`, a stable code the screens and logs can
key on) and says in plain words what was wrong. Raising one never changes the game:
`apply` works on a copy.
"""

from __future__ import annotations

from games.errors import IllegalActionError, MalformedActionError, OutOfTurnError, WrongPhaseError


class CardNotInHandError(IllegalActionError):
    """A card that is not in the acting player's hand."""

    rule = "hand"


class IllegalTargetError(IllegalActionError):
    """A target the card does not allow (yourself, a vault gift, an empty hand...)."""

    rule = "target"


class IllegalCardError(IllegalActionError):
    """A card that cannot be used this way (a reaction as an action, and so on)."""

    rule = "card"


__all__ = [
    "CardNotInHandError",
    "IllegalActionError",
    "IllegalCardError",
    "IllegalTargetError",
    "MalformedActionError",
    "OutOfTurnError",
    "WrongPhaseError",
]
