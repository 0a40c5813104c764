"""The actions Blinks Heist accepts, as frozen dataclasses, and their wire form.

The throw is physical: the party records it. `Throw` is the thrower's record from their
phone (the throw's number, the Blink it hit or None for a miss, whether the thief touched
the vault on the way back); the captain settles it with `Confirm` (one tap) or, when they
saw it otherwise, `Overrule` (the captain's call). `Undo` takes the last settled throw
back until the next is recorded. `EndTurn` is the alternate rule's stop; `PassTurn` the
captain's (or the step clock's) for a thrower who is not there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.parsing import action_type

from .errors import MalformedActionError


@dataclass(frozen=True, slots=True)
class Throw:
    """`seat` records throw number `throw`: Blink `hit` (1-based) or a miss (None), and
    whether the thief touched the vault on the way back."""

    seat: int
    throw: int
    hit: int | None
    touched: bool


@dataclass(frozen=True, slots=True)
class Confirm:
    """The captain confirms the recorded throw `throw` as recorded."""

    throw: int


@dataclass(frozen=True, slots=True)
class Overrule:
    """The captain's call on throw `throw`: what it was, whatever the thrower recorded."""

    throw: int
    hit: int | None
    touched: bool


@dataclass(frozen=True, slots=True)
class Undo:
    """The captain takes back the settled throw `throw` (a mis-tap seen too late)."""

    throw: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    """The alternate rule: the thrower stops after a hit instead of throwing again."""

    seat: int


@dataclass(frozen=True, slots=True)
class PassTurn:
    """`seat`'s turn passes without a throw (away from the table; the clock's stand-in)."""

    seat: int


Action = Throw | Confirm | Overrule | Undo | EndTurn | PassTurn

_FIELDS: dict[str, set[str]] = {
    "throw": {"seat", "throw", "hit", "touched"},
    "confirm": {"throw"},
    "overrule": {"throw", "hit", "touched"},
    "undo": {"throw"},
    "end_turn": {"seat"},
    "pass_turn": {"seat"},
}


def _int(d: dict[str, Any], key: str) -> int:
    v = d.get(key)
    if type(v) is not int:  # bool is an int subclass: refuse it too
        raise MalformedActionError(f"field {key!r} must be an integer")
    return v


def _hit(d: dict[str, Any]) -> int | None:
    if "hit" not in d:
        raise MalformedActionError("field 'hit' is a Blink's number, or null for a miss")
    v = d["hit"]
    if v is not None and type(v) is not int:
        raise MalformedActionError("field 'hit' is a Blink's number, or null for a miss")
    return v


def _touched(d: dict[str, Any]) -> bool:
    v = d.get("touched")
    if type(v) is not bool:
        raise MalformedActionError("field 'touched' must be true or false")
    return v


def parse_action(d: Any) -> Action:
    """Build an action from its JSON form, or raise MalformedActionError. Strict: unknown
    types, missing fields, wrong types and extra fields are all refused."""
    kind, d = action_type(d, _FIELDS)
    if kind == "throw":
        return Throw(seat=_int(d, "seat"), throw=_int(d, "throw"), hit=_hit(d), touched=_touched(d))
    if kind == "confirm":
        return Confirm(throw=_int(d, "throw"))
    if kind == "overrule":
        return Overrule(throw=_int(d, "throw"), hit=_hit(d), touched=_touched(d))
    if kind == "undo":
        return Undo(throw=_int(d, "throw"))
    if kind == "end_turn":
        return EndTurn(seat=_int(d, "seat"))
    return PassTurn(seat=_int(d, "seat"))


def action_to_dict(a: Action) -> dict[str, Any]:
    """The JSON form of an action (the inverse of parse_action)."""
    if isinstance(a, Throw):
        return {"type": "throw", "seat": a.seat, "throw": a.throw, "hit": a.hit, "touched": a.touched}
    if isinstance(a, Confirm):
        return {"type": "confirm", "throw": a.throw}
    if isinstance(a, Overrule):
        return {"type": "overrule", "throw": a.throw, "hit": a.hit, "touched": a.touched}
    if isinstance(a, Undo):
        return {"type": "undo", "throw": a.throw}
    if isinstance(a, EndTurn):
        return {"type": "end_turn", "seat": a.seat}
    if isinstance(a, PassTurn):
        return {"type": "pass_turn", "seat": a.seat}
    raise MalformedActionError(f"not an action: {a!r}")


__all__ = ["Action", "Confirm", "EndTurn", "Overrule", "PassTurn", "Throw", "Undo", "action_to_dict", "parse_action"]
