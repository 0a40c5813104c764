"""The actions a game accepts, as frozen dataclasses, and their wire form.

Player actions carry the acting seat. Authority actions (ConfirmReveal, TimeoutPass,
DrawRelaySeat, RelayExchange) are sent by the host, a captain or the server: who may
send them and when (the step clocks) is decided by the services around the engine,
which has no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.parsing import action_type

from .errors import MalformedActionError
from .state import Direction, Gift


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play one MOVE or SCHEME from hand. `extra` pays for YANKEE HEIST;
    `direction` is THREE-GIFT GRIFT's rotation."""

    seat: int
    card: int
    targets: tuple[int, ...] = ()
    extra: int | None = None
    direction: Direction | None = None


@dataclass(frozen=True, slots=True)
class Swipe:
    """Cash in any two cards to try to exchange gifts with one other player."""

    seat: int
    cards: tuple[int, ...]
    target: int


@dataclass(frozen=True, slots=True)
class Regroup:
    """Discard 0, 1 or 2 cards and draw as many. Zero cards is a pass."""

    seat: int
    cards: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class VaultExchange:
    """Discard any two cards, give your gift to the vault and take vault gift `gift`."""

    seat: int
    cards: tuple[int, ...]
    gift: int


@dataclass(frozen=True, slots=True)
class React:
    """Answer a reaction window: block with `card`, or pass with None. `window` (the
    version that opened it, from the view) makes a late answer to a closed window an
    error instead of an answer to the next one; None answers whatever window is open."""

    seat: int
    card: int | None = None
    window: int | None = None


@dataclass(frozen=True, slots=True)
class Trim:
    """Discard down to 5 after an action: exactly the excess, chosen by the owner."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TimeoutPass:
    """The rules' do-nothing choice for `seat`, whose step's clock ran out: its turn
    passed, its reaction let happen, its trim discarded at random (rules.py). Sent by
    the host, the captain or the server's clock. `window` names the reaction window
    it answers (None outside a reaction)."""

    seat: int
    window: int | None = None


@dataclass(frozen=True, slots=True)
class ConfirmReveal:
    """After round 1 every gift is unwrapped and shown; the host confirms, round 2 starts."""


@dataclass(frozen=True, slots=True)
class DrawRelaySeat:
    """At the gate, the captain draws this table's relay seat (uniformly at random)."""


@dataclass(frozen=True, slots=True)
class RelayExchange:
    """The party relay: the drawn seat's gift leaves, `gift` arrives. Cannot be blocked,
    earns no comeback draw. Round 3 starts afterwards."""

    gift: Gift


Action = (
    PlayCard
    | Swipe
    | Regroup
    | VaultExchange
    | React
    | Trim
    | TimeoutPass
    | ConfirmReveal
    | DrawRelaySeat
    | RelayExchange
)

PLAYER_ACTIONS = (PlayCard, Swipe, Regroup, VaultExchange, React, Trim)


# --- wire form --------------------------------------------------------------------------
# One JSON shape per action: {"type": "play", ...}. Parsing is strict: unknown types,
# missing fields, wrong types and extra fields are all MalformedActionError.


def _int(d: dict[str, Any], key: str) -> int:
    v = _opt_int(d, key)
    if v is None:
        raise MalformedActionError(f"missing field {key!r}")
    return v


def _opt_int(d: dict[str, Any], key: str) -> int | None:
    v = d.get(key)
    if v is None:
        return None
    if type(v) is not int:  # bool is an int subclass: refuse it too
        raise MalformedActionError(f"field {key!r} must be an integer")
    return v


def _ints(d: dict[str, Any], key: str, *, max_len: int, default: tuple[int, ...] | None = ()) -> tuple[int, ...]:
    """A list of at most `max_len` ints; `default` when absent (None: the field is required)."""
    if key not in d:
        if default is not None:
            return default
        raise MalformedActionError(f"missing field {key!r}")
    v = d[key]
    if not isinstance(v, list) or len(v) > max_len or any(type(x) is not int for x in v):
        raise MalformedActionError(f"field {key!r} must be a list of at most {max_len} integers")
    return tuple(v)


_FIELDS = {
    "play": {"seat", "card", "targets", "extra", "direction"},
    "swipe": {"seat", "cards", "target"},
    "regroup": {"seat", "cards"},
    "vault": {"seat", "cards", "gift"},
    "react": {"seat", "card", "window"},
    "trim": {"seat", "cards"},
    "timeout_pass": {"seat", "window"},
    "confirm_reveal": set(),
    "draw_relay_seat": set(),
    "relay_exchange": {"gift"},
}


def parse_action(d: Any) -> Action:
    """Build an action from its JSON form, or raise MalformedActionError."""
    kind, d = action_type(d, _FIELDS)
    if kind == "play":
        direction = d.get("direction")
        if direction is not None:
            try:
                direction = Direction(direction)
            except (ValueError, TypeError):
                raise MalformedActionError("direction must be 'clockwise' or 'counterclockwise'") from None
        return PlayCard(
            seat=_int(d, "seat"),
            card=_int(d, "card"),
            targets=_ints(d, "targets", max_len=2),
            extra=_opt_int(d, "extra"),
            direction=direction,
        )
    if kind == "swipe":
        return Swipe(seat=_int(d, "seat"), cards=_ints(d, "cards", max_len=2, default=None), target=_int(d, "target"))
    if kind == "regroup":
        return Regroup(seat=_int(d, "seat"), cards=_ints(d, "cards", max_len=2))
    if kind == "vault":
        return VaultExchange(
            seat=_int(d, "seat"), cards=_ints(d, "cards", max_len=2, default=None), gift=_int(d, "gift")
        )
    if kind == "react":
        return React(seat=_int(d, "seat"), card=_opt_int(d, "card"), window=_opt_int(d, "window"))
    if kind == "trim":
        return Trim(seat=_int(d, "seat"), cards=_ints(d, "cards", max_len=60, default=None))
    if kind == "timeout_pass":
        return TimeoutPass(seat=_int(d, "seat"), window=_opt_int(d, "window"))
    if kind == "confirm_reveal":
        return ConfirmReveal()
    if kind == "draw_relay_seat":
        return DrawRelaySeat()
    g = d.get("gift")
    if not isinstance(g, dict) or set(g) - {"id", "description"}:
        raise MalformedActionError("relay_exchange needs gift {id, description}")
    desc = g.get("description")
    if not isinstance(desc, str):
        raise MalformedActionError("gift description must be a string")
    return RelayExchange(Gift(id=_int(g, "id"), description=desc))


def action_to_dict(a: Action) -> dict[str, Any]:
    """The JSON form of an action (the inverse of parse_action)."""
    if isinstance(a, PlayCard):
        out: dict[str, Any] = {"type": "play", "seat": a.seat, "card": a.card, "targets": list(a.targets)}
        if a.extra is not None:
            out["extra"] = a.extra
        if a.direction is not None:
            out["direction"] = a.direction.value
        return out
    if isinstance(a, Swipe):
        return {"type": "swipe", "seat": a.seat, "cards": list(a.cards), "target": a.target}
    if isinstance(a, Regroup):
        return {"type": "regroup", "seat": a.seat, "cards": list(a.cards)}
    if isinstance(a, VaultExchange):
        return {"type": "vault", "seat": a.seat, "cards": list(a.cards), "gift": a.gift}
    if isinstance(a, React):
        out = {"type": "react", "seat": a.seat, "card": a.card}
        if a.window is not None:
            out["window"] = a.window
        return out
    if isinstance(a, Trim):
        return {"type": "trim", "seat": a.seat, "cards": list(a.cards)}
    if isinstance(a, TimeoutPass):
        out = {"type": "timeout_pass", "seat": a.seat}
        if a.window is not None:
            out["window"] = a.window
        return out
    if isinstance(a, ConfirmReveal):
        return {"type": "confirm_reveal"}
    if isinstance(a, DrawRelaySeat):
        return {"type": "draw_relay_seat"}
    if isinstance(a, RelayExchange):
        return {"type": "relay_exchange", "gift": {"id": a.gift.id, "description": a.gift.description}}
    raise MalformedActionError(f"not an action: {a!r}")
