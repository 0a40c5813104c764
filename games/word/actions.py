"""The actions Word Heist accepts, as frozen dataclasses, and their wire form.

`Write` (a Heist word), `Clue` (the clue tokens), `Halt` (a guess, or none) and `Vote`
(the challenge vote) are a player's; `StandIn` is the clock's do-nothing choice for a
quiet seat (no word, no clues, no guess, no vote); `OpenGate` is the host's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.parsing import action_type

from .errors import MalformedActionError


@dataclass(frozen=True, slots=True)
class Write:
    """The seat's secret Heist word, as typed (the rules fold it, games/word/spelling.py)."""

    seat: int
    word: str


@dataclass(frozen=True, slots=True)
class Clue:
    """Clue tokens by letter card, in alphabetical order (the wire's object is a mapping)."""

    seat: int
    tokens: tuple[tuple[str, int], ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tokens", tuple(sorted(self.tokens)))


@dataclass(frozen=True, slots=True)
class Halt:
    """The seat's secret Halt word (None: no guess)."""

    seat: int
    word: str | None


@dataclass(frozen=True, slots=True)
class Vote:
    """The seats whose word this seat rules against the dictionary: accepts a word it
    lacks, rejects a word it has (ascending, each once)."""

    seat: int
    overrule: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "overrule", tuple(sorted(self.overrule)))


@dataclass(frozen=True, slots=True)
class StandIn:
    """The clock ran out on `seat`: the step's do-nothing choice (docs/RULES.md)."""

    seat: int


@dataclass(frozen=True, slots=True)
class OpenGate:
    """The host opens the party's gate; the next round starts."""


Action = Write | Clue | Halt | Vote | StandIn | OpenGate

_FIELDS: dict[str, set[str]] = {
    "write": {"seat", "word"},
    "clue": {"seat", "tokens"},
    "halt": {"seat", "word"},
    "vote": {"seat", "overrule"},
    "stand_in": {"seat"},
    "open_gate": set(),
}


def _seat(d: dict[str, Any]) -> int:
    v = d.get("seat")
    if type(v) is not int:  # bool is an int subclass: refuse it too
        raise MalformedActionError("field 'seat' must be an integer")
    return v


def _text(d: dict[str, Any], key: str) -> str:
    v = d.get(key)
    if type(v) is not str or len(v) > 64:
        raise MalformedActionError(f"field '{key}' must be a word (text of at most 64 characters)")
    return v


def _tokens(d: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    v = d.get("tokens")
    if not isinstance(v, dict):
        raise MalformedActionError("field 'tokens' must be an object: letter -> tokens")
    out = []
    for letter, count in v.items():
        if type(letter) is not str or type(count) is not int:
            raise MalformedActionError("field 'tokens' maps a letter to a whole number of tokens")
        out.append((letter, count))
    return tuple(out)


def _overrule(d: dict[str, Any]) -> tuple[int, ...]:
    v = d.get("overrule")
    if not isinstance(v, list) or any(type(s) is not int for s in v):
        raise MalformedActionError("field 'overrule' must be a list of seats")
    if len(set(v)) != len(v):
        raise MalformedActionError("field 'overrule' names a seat twice")
    return tuple(v)


def parse_action(d: Any) -> Action:
    """Build an action from its JSON form, or raise MalformedActionError (strict: unknown
    types, missing fields, wrong types and extra fields are refused)."""
    kind, d = action_type(d, _FIELDS)
    if kind == "write":
        return Write(seat=_seat(d), word=_text(d, "word"))
    if kind == "clue":
        return Clue(seat=_seat(d), tokens=_tokens(d))
    if kind == "halt":
        if "word" not in d:
            raise MalformedActionError("field 'word' is missing (null: no guess)")
        return Halt(seat=_seat(d), word=None if d["word"] is None else _text(d, "word"))
    if kind == "vote":
        return Vote(seat=_seat(d), overrule=_overrule(d))
    if kind == "stand_in":
        return StandIn(seat=_seat(d))
    return OpenGate()


def action_to_dict(a: Action) -> dict[str, Any]:
    """The JSON form of an action (the inverse of parse_action)."""
    if isinstance(a, Write):
        return {"type": "write", "seat": a.seat, "word": a.word}
    if isinstance(a, Clue):
        return {"type": "clue", "seat": a.seat, "tokens": dict(a.tokens)}
    if isinstance(a, Halt):
        return {"type": "halt", "seat": a.seat, "word": a.word}
    if isinstance(a, Vote):
        return {"type": "vote", "seat": a.seat, "overrule": list(a.overrule)}
    if isinstance(a, StandIn):
        return {"type": "stand_in", "seat": a.seat}
    if isinstance(a, OpenGate):
        return {"type": "open_gate"}
    raise MalformedActionError(f"not an action: {a!r}")


__all__ = ["Action", "Clue", "Halt", "OpenGate", "StandIn", "Vote", "Write", "action_to_dict", "parse_action"]
