"""What is legal now: who the game waits for and what each may send. It only reads."""

from __future__ import annotations

from .actions import Action, Decide, OpenGate, TimeoutDecide
from .state import Game, Phase


def waiting_for(g: Game) -> tuple[int, ...]:
    """The seats whose decision the game needs now: those inside who have not decided.
    Empty at the gate (it waits for the host) and at the end."""
    return g.waiting()


def stand_in(g: Game) -> Action | None:
    """The rules' do-nothing choice for the first seat the game waits for (get out), or
    None when nobody's clock may run (the gate waits for the host, the end for nobody)."""
    waiting = g.waiting()
    return TimeoutDecide(waiting[0]) if waiting else None


def legal_actions(g: Game, seat: int | None) -> list[Action]:
    """Every action `seat` may send now; `seat=None`: what the host (the gate) and the
    server (a clock's stand-in for each waiting seat) may."""
    if seat is None:
        if g.phase is Phase.GATE:
            return [OpenGate()]
        return [TimeoutDecide(s) for s in g.waiting()]
    if seat in g.waiting():
        return [Decide(seat, True), Decide(seat, False)]
    return []


__all__ = ["legal_actions", "stand_in", "waiting_for"]
