"""Typed errors for illegal actions, shared by every game.

Every error names the rule it enforces (`rule`, a stable code the screens and logs can
key on) and says in plain words what was wrong. Raising one never changes the game:
a game's `apply` works on a copy. A game adds its own subclasses for its own rules.
"""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action the rules do not allow right now."""

    rule = "illegal"

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        if rule is not None:
            self.rule = rule

    @property
    def message(self) -> str:
        return str(self.args[0])


class MalformedActionError(IllegalActionError):
    """The action itself is not well formed (wrong fields, wrong types)."""

    rule = "malformed"


class WrongPhaseError(IllegalActionError):
    """The game is not waiting for this kind of action."""

    rule = "phase"


class OutOfTurnError(IllegalActionError):
    """Somebody other than the player the game waits for tried to act."""

    rule = "turn"


__all__ = ["IllegalActionError", "MalformedActionError", "OutOfTurnError", "WrongPhaseError"]
