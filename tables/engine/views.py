"""Who sees what. One function per audience; nothing else builds what a screen shows.

- `public_view`: the host's dashboard, a spectator screen: no hand, no answer in an
  open window, a description only for an unwrapped gift.
- `seat_view`: one player: the public view plus their own hand, the descriptions they
  have peeked, their own window answer and what they may do.
"""

from __future__ import annotations

from typing import Any

from .cards import card_of
from .legal import can_swipe, can_use_vault, playable_cards, waiting_for
from .state import Game, Phase


def card_json(card_id: int) -> dict[str, Any]:
    card = card_of(card_id)
    return {"id": card_id, "card": card.name, "title": card.title, "kind": card.kind.value}


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
