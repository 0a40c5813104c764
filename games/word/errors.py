"""Typed errors for Word Heist's illegal actions: each names its rule (`rule`) and says
in plain words what was wrong. Raising one never changes the game."""

from __future__ import annotations

from games.errors import IllegalActionError, MalformedActionError, OutOfTurnError, WrongPhaseError


class NoSuchSeatError(IllegalActionError):
    rule = "seat"


class AlreadyDoneError(OutOfTurnError):
    """Each step's word, clues, halt or vote is final once given (everybody's are shown at once)."""

    rule = "done"


class NotAWordError(IllegalActionError):
    """Letters only, 3 or more: no hyphens, apostrophes, spaces or digits."""

    rule = "word"


class NotInTableauError(IllegalActionError):
    """A word uses only the Tableau's letters (each as often as you like; QU on the Q(u) card)."""

    rule = "tableau"


class ReusedWordError(IllegalActionError):
    """No word of the Word Gallery again, nor one that shares its root with one."""

    rule = "gallery"


class BadCluesError(IllegalActionError):
    """1 to 5 tokens, each clued letter carrying exactly as many tokens as the word has of it."""

    rule = "clues"


class OwnWordError(IllegalActionError):
    """Your Heist and Halt words cannot be the same."""

    rule = "own_word"


class BadVoteError(IllegalActionError):
    """A vote overrules the dictionary on words that were clued, each once, and never
    rejects your own word."""

    rule = "vote"


__all__ = [
    "AlreadyDoneError",
    "BadCluesError",
    "BadVoteError",
    "IllegalActionError",
    "MalformedActionError",
    "NoSuchSeatError",
    "NotAWordError",
    "NotInTableauError",
    "OutOfTurnError",
    "OwnWordError",
    "ReusedWordError",
    "WrongPhaseError",
]
