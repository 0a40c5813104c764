"""The actions Royal Heist accepts, as frozen dataclasses, and their wire form.

`Decide` is a player's (from their phone); `TimeoutDecide` is the server's stand-in
when the decide clock runs out; `OpenGate` is the host's duty at a party's gate. There
is no "next heist" action: a heist that ends starts the next one at once, so the
table never waits on one person between heists (docs/RULES.md, "Royal Heist").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.parsing import action_type

from .errors import MalformedActionError


@dataclass(frozen=True, slots=True)
class Decide:
    """Press on (True) or get out (False): secret until everybody inside has decided."""

    seat: int
    press_on: bool


@dataclass(frozen=True, slots=True)
class TimeoutDecide:
    """The rules' do-nothing choice for `seat`, whose decide clock ran out: get out."""

    seat: int


@dataclass(frozen=True, slots=True)
class OpenGate:
    """The host opens the party's gate; the next heist starts."""


Action = Decide | TimeoutDecide | OpenGate

_FIELDS: dict[str, set[str]] = {"decide": {"seat", "press_on"}, "timeout_decide": {"seat"}, "open_gate": set()}


def _seat(d: dict[str, Any]) -> int:
    v = d.get("seat")
    if type(v) is not int:  # bool is an int subclass: refuse it too
        raise MalformedActionError("field 'seat' must be an integer")
    return v


def parse_action(d: Any) -> Action:
    """Build an action from its JSON form, or raise MalformedActionError. Strict: unknown
    types, missing fields, wrong types and extra fields are all refused."""
    kind, d = action_type(d, _FIELDS)
    if kind == "decide":
        press_on = d.get("press_on")
        if type(press_on) is not bool:
            raise MalformedActionError("field 'press_on' must be true or false")
        return Decide(seat=_seat(d), press_on=press_on)
    if kind == "timeout_decide":
        return TimeoutDecide(seat=_seat(d))
    return OpenGate()


def action_to_dict(a: Action) -> dict[str, Any]:
    """The JSON form of an action (the inverse of parse_action)."""
    if isinstance(a, Decide):
        return {"type": "decide", "seat": a.seat, "press_on": a.press_on}
    if isinstance(a, TimeoutDecide):
        return {"type": "timeout_decide", "seat": a.seat}
    if isinstance(a, OpenGate):
        return {"type": "open_gate"}
    raise MalformedActionError(f"not an action: {a!r}")


__all__ = ["Action", "Decide", "OpenGate", "TimeoutDecide", "action_to_dict", "parse_action"]
