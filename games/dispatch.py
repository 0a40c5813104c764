"""Applying one action, the step every game's `apply` shares: find the handler for the
action's type, work on a copy of the game (so that an illegal action, which raises,
changes nothing), stamp the version the action produces, and let the handler change
the copy and log its events."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, Self, TypeVar

from .errors import MalformedActionError


class Versioned(Protocol):
    """A game's state: it counts its accepted actions and copies itself."""

    version: int

    def clone(self) -> Self: ...


G = TypeVar("G", bound=Versioned)
L = TypeVar("L")


def dispatch(
    game: G,
    action: object,
    handlers: Mapping[type[Any], Callable[[G, Any, L], None]],
    log_at: Callable[[int], L],
    *,
    copy: bool = True,
) -> tuple[G, L]:
    """The game after `action` and the log its handler filled (`log_at(version)` makes
    it). `copy=False` changes `game` itself: only for actions known to be legal, as a
    handler that raises may leave it half changed. Raises MalformedActionError for an
    object no handler takes, and whatever the handler raises."""
    handler = handlers.get(type(action))
    if handler is None:
        raise MalformedActionError(f"not an action: {type(action).__name__}")
    g = game.clone() if copy else game
    g.version += 1
    log = log_at(g.version)
    handler(g, action, log)
    return g, log


__all__ = ["Versioned", "dispatch"]
