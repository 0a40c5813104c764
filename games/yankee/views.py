"""Who sees what. One function per audience; nothing else builds what a screen shows.

- `public_view`: the host's dashboard, a spectator screen: no hand, no answer in an
  open window, a description only for an unwrapped gift.
- `seat_view`: one player: the public view plus their own hand, the descriptions they
  have peeked, their own window answer and what they may do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.patch import TableCopies as StreamCopies
from games.patch import TableCopy as StreamCopy
from games.patch import apply_patch as apply_patch  # re-exported: moved to the shared games/patch.py
from games.patch import view_patch as view_patch

from .cards import CARD_OF
from .legal import can_swipe, can_use_vault, playable_cards, waiting_for
from .state import Game, Phase

# Every card's JSON, made once: a table's update lists each seat's hand, and reading
# an enum member's name, title and kind's value for every card of every hand was a
# sixth of building the update (cProfile, bench/live.py --profile-server).
_CARD_JSON: tuple[dict[str, Any], ...] = tuple(
    {"id": cid, "card": card.name, "title": card.title, "kind": card.kind.value} for cid, card in enumerate(CARD_OF)
)


def card_json(card_id: int) -> dict[str, Any]:
    return dict(_CARD_JSON[card_id])  # a copy: the caller may change its own


def public_view(g: Game) -> dict[str, Any]:
    p = g.pending
    window = None
    if p is not None and p.window is not None:
        w = p.window
        window = {
            "active": p.active,
            "label": p.label,
            "move": [list(pair) for pair in w.move],
            "affected": list(w.affected),
            "waiting": list(w.waiting()),
            "version": w.version,  # answers name it, so a late tap never lands in the next window
        }
    in_turn = g.phase in (Phase.ACTION, Phase.REACTION, Phase.TRIM)
    return {
        "version": g.version,
        "phase": g.phase.value,
        "round": g.round,
        "starter": g.starter,
        "turn": g.turn,
        "active": g.active if in_turn else None,
        "players": g.players,
        "waiting_for": list(waiting_for(g)),
        "seats": [
            {
                "seat": s,
                "gift": gift,
                "open": gift in g.open,
                "description": g.descriptions[gift] if gift in g.open else None,
                "cards": len(g.hands[s]),
            }
            for s, gift in enumerate(g.gifts)
        ],
        "vault": [
            {"gift": gift, "open": gift in g.open, "description": g.descriptions[gift] if gift in g.open else None}
            for gift in g.vault
        ],
        "draw_pile": len(g.draw_pile),
        "discards": len(g.discards),
        "window": window,
        "trims": {str(s): k for s, k in sorted(g.trims.items())},
        "gate": g.gate,
        "relay_seat": g.relay_seat,
        "relayed": g.relayed,
        "result": list(g.gifts) if g.phase is Phase.OVER else None,
    }


def seat_view(g: Game, seat: int) -> dict[str, Any]:
    v = public_view(g)
    known = g.peeks[seat]
    for entry in (*v["seats"], *v["vault"]):
        if not entry["open"] and entry["gift"] in known:
            entry["description"] = g.descriptions[entry["gift"]]
            entry["peeked"] = True
    v["you"] = seat
    v["gift"] = g.gifts[seat]
    v["hand"] = [card_json(c) for c in g.hands[seat]]
    w = g.pending.window if g.pending is not None else None
    v["asked"] = bool(w and seat in w.affected and seat not in w.answers)
    v["answer"] = None
    if w is not None and seat in w.answers:
        c = w.answers[seat]
        v["answer"] = {"block": c is not None, "card": c}
    v["must_trim"] = g.trims.get(seat, 0)
    v["playable"] = {str(c): list(t) for c, t in playable_cards(g, seat).items()}
    v["can_swipe"] = can_swipe(g, seat)
    v["can_use_vault"] = can_use_vault(g, seat)
    return v


# --- the same seat view in two parts (a table's broadcast) ---------------------------------
#
# A table's update goes to every screen as the public view plus, for a seat's own
# screens, a small private part: `merge_private(public_view(g), seat_private(g, seat))`
# equals `seat_view(g, seat)` (tests/engine/test_views_split.py). The public part is
# built and encoded once per action instead of once per seat.

PRIVATE_KEYS = ("you", "gift", "hand", "asked", "answer", "must_trim", "playable", "can_swipe", "can_use_vault")


def seat_private(g: Game, seat: int) -> dict[str, Any]:
    """What `seat_view(g, seat)` adds to `public_view(g)`: `peeked` lists [gift,
    description] for each unopened gift on the table or in the vault this seat knows."""
    known = g.peeks[seat]
    on_table = (*g.gifts, *g.vault)
    w = g.pending.window if g.pending is not None else None
    answer = None
    if w is not None and seat in w.answers:
        c = w.answers[seat]
        answer = {"block": c is not None, "card": c}
    return {
        "you": seat,
        "gift": g.gifts[seat],
        "hand": [card_json(c) for c in g.hands[seat]],
        "asked": bool(w and seat in w.affected and seat not in w.answers),
        "answer": answer,
        "must_trim": g.trims.get(seat, 0),
        "playable": {str(c): list(t) for c, t in playable_cards(g, seat).items()},
        "can_swipe": can_swipe(g, seat),
        "can_use_vault": can_use_vault(g, seat),
        "peeked": [[gift, g.descriptions[gift]] for gift in on_table if gift in known and gift not in g.open],
    }


def merge_private(public: dict[str, Any], private: dict[str, Any]) -> dict[str, Any]:
    """A seat's whole view from the public view and its private part (what
    static/heist/live.js does on a phone; the public dict is not changed)."""
    peeked = {gift: description for gift, description in private.get("peeked", ())}
    v = dict(public)
    for key in ("seats", "vault"):
        entries = []
        for entry in public[key]:
            if not entry["open"] and entry["gift"] in peeked:
                entry = {**entry, "description": peeked[entry["gift"]], "peeked": True}
            entries.append(entry)
        v[key] = entries
    for key in PRIVATE_KEYS:
        v[key] = private[key]
    return v


def merge_table_message(msg: dict[str, Any]) -> dict[str, Any]:
    """A `table` message as a screen uses it: with a `private` part (a seat's own
    screens), the seat's whole view and the seat's events; without, unchanged."""
    private = msg.get("private")
    if private is None:
        return msg
    out = {k: v for k, v in msg.items() if k != "private"}
    out["view"] = merge_private(msg["view"], private)
    if "events" in private:
        out["events"] = private["events"]
    return out


# A table's update as a patch of the version before: games/patch.py (any game's public view).


def unmerge_private(view: dict[str, Any]) -> dict[str, Any]:
    """The public view inside a seat's whole view: merge_private undone (what a screen
    patches after a snapshot, which carries its seat's whole view)."""
    out = {k: v for k, v in view.items() if k not in PRIVATE_KEYS}
    for key in ("seats", "vault"):
        out[key] = [
            {k: v for k, v in entry.items() if k != "peeked"} | {"description": None} if entry.get("peeked") else entry
            for entry in view[key]
        ]
    return out


class TableCopy(StreamCopy):
    """games/patch.py's TableCopy with Yankee Heist's merge (its peeks live in its seats)."""

    __slots__ = ()

    def __init__(
        self,
        unmerge: Callable[[dict[str, Any]], dict[str, Any]] = unmerge_private,
        merge: Callable[[dict[str, Any]], dict[str, Any]] = merge_table_message,
    ) -> None:
        super().__init__(unmerge, merge)


class TableCopies(StreamCopies):
    """games/patch.py's TableCopies of Yankee Heist's streams."""

    __slots__ = ()

    def __init__(self, make_copy: Callable[[], StreamCopy] = TableCopy) -> None:
        super().__init__(make_copy)
