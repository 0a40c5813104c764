"""Who sees what. One function per audience; nothing else builds what a screen shows.

- `public_view`: the big screen, a spectator: the rooms and their jewels, who is inside,
  every satchel and bank (counters on the table: docs/RULES.md), who has decided, and
  never what until the reveal.
- `seat_view`: one player: the public view plus their own decision while it is secret.
"""

from __future__ import annotations

from typing import Any

from .cards import kind, rank_of
from .legal import waiting_for
from .rules import gate_point, top_seats
from .state import Game, Phase

PRIVATE_KEYS = ("you", "inside", "decision", "can_decide")


def public_view(g: Game) -> dict[str, Any]:
    over = g.phase is Phase.OVER
    totals = g.running_totals()
    gate_game, gate_heist = gate_point(g.heists, g.games) if g.gate else (None, None)
    return {
        "version": g.version,
        "phase": g.phase.value,
        "players": g.players,
        "heist": g.heist,
        "heists": g.heists,
        "game": g.game,
        "games": g.games,
        "gate": g.gate,
        # the gate stands after heist `gate_after` of game `gate_game`
        "gate_after": gate_heist,
        "gate_game": gate_game,
        "gate_opened": g.gate_opened,
        "rooms": [
            {
                "card": r.card,
                "kind": kind(r.card),
                "rank": rank_of(r.card),
                "bonus": r.bonus,
                "value": r.value,
                "jewels": r.jewels,
            }
            for r in g.rooms
        ],
        "jewels_in_rooms": sum(r.jewels for r in g.rooms),
        "seats": [
            {
                "seat": s,
                "inside": s in g.inside,
                "satchel": g.satchels[s],
                "bank": g.banks[s],
                # the banks of this table's games so far, this one's included
                "total": totals[s],
                "decided": s in g.decisions,
            }
            for s in range(g.players)
        ],
        "waiting_for": list(waiting_for(g)),
        "dangers": list(g.dangers),
        "retired": list(g.retired),
        "deck": len(g.deck),
        "side_stack": len(g.side),
        "revealed": {str(s): c for s, c in sorted(g.revealed.items())},
        "turned_up": g.turned_up,
        "lost": g.lost,
        "last_heist": g.last_heist,
        "winners": top_seats(totals) if over else None,
    }


def seat_private(g: Game, seat: int) -> dict[str, Any]:
    """What `seat_view(g, seat)` adds to `public_view(g)`: the seat's own decision while
    it is secret (None: not decided, or already revealed)."""
    waiting = waiting_for(g)
    return {
        "you": seat,
        "inside": seat in g.inside,
        "decision": g.decisions.get(seat),
        "can_decide": seat in waiting,
    }


def seat_view(g: Game, seat: int) -> dict[str, Any]:
    # "inside" at the top level is the seat's own; the public part keeps it per seat.
    return {**public_view(g), **seat_private(g, seat)}


__all__ = ["PRIVATE_KEYS", "public_view", "seat_private", "seat_view"]
