"""Who sees what. One function per audience; nothing else builds what a screen shows.

Blinks Heist has no secrets: the vault, every throw and every claim happen in front of
the table. `public_view` is the big screen's and the captain's tablet's (the vault with
each Blink's health and who claimed it, the teams, whose turn, the record waiting for
the captain); `seat_view` adds what one phone needs of it (its team, its Blinks, whether
it is up and what it may record).
"""

from __future__ import annotations

from typing import Any

from .legal import waiting_for
from .rules import HEALTH, top_seats
from .state import Game, Phase
from .teams import COLOURS, leaders

PRIVATE_KEYS = ("you", "your_team", "your_blinks", "your_turn", "can_end_turn")


def public_view(g: Game) -> dict[str, Any]:
    over = g.phase is Phase.OVER
    claims = g.claims()
    teams = g.team_claims()
    return {
        "version": g.version,
        "phase": g.phase.value,
        "players": g.players,
        "alternate": g.alternate,
        "health": HEALTH,
        "vault": [
            {
                "blink": i + 1,
                "health": health,
                "claimed_by": seat,
                "team": None if seat is None else g.teams[seat],
            }
            for i, (health, seat) in enumerate(zip(g.health, g.owner, strict=True))
        ],
        "left": len(g.in_vault()),
        "seats": [
            {
                "seat": s,
                "team": g.teams[s],
                "colour": COLOURS[g.teams[s]],
                "claimed": claims[s],
                "skips_next": g.skips[s],
            }
            for s in range(g.players)
        ],
        "team_claims": teams,
        "turn": None if over else g.turn,
        "turns": g.turns,
        "thrown": g.thrown,
        "waiting_for": list(waiting_for(g)),
        "next_throw": g.throws + 1,
        # the record waiting for the captain's tap, and the settled throw the captain may
        # still take back (until the next record)
        "pending": g.pending.to_dict() if g.pending else None,
        "undoable": g.last.to_dict() if g.last else None,
        "winners": top_seats(claims) if over else None,
        "winning_teams": leaders(teams) if over else None,
    }


def seat_private(g: Game, seat: int) -> dict[str, Any]:
    """What `seat_view(g, seat)` adds to `public_view(g)`: the phone's own part."""
    up = seat in waiting_for(g)
    return {
        "you": seat,
        "your_team": g.teams[seat],
        "your_blinks": [i + 1 for i, owner in enumerate(g.owner) if owner == seat],
        "your_turn": up,
        "can_end_turn": up and g.alternate and g.thrown > 0,
    }


def seat_view(g: Game, seat: int) -> dict[str, Any]:
    return {**public_view(g), **seat_private(g, seat)}


__all__ = ["PRIVATE_KEYS", "public_view", "seat_private", "seat_view"]
