"""What is legal now: who the game waits for and what each may send. It only reads."""

from __future__ import annotations

from .actions import Action, Confirm, EndTurn, Overrule, PassTurn, Throw, Undo
from .state import Game, Phase


def waiting_for(g: Game) -> tuple[int, ...]:
    """The thrower while their throw is unrecorded; nobody while the captain settles it
    (a duty) or after the end."""
    return g.waiting()


def stand_in(g: Game) -> Action | None:
    """The rules' do-nothing choice for the thrower the game waits for (their turn
    passes), or None when no seat's clock may run (the captain's tap, the end)."""
    return PassTurn(g.turn) if g.phase is Phase.THROW else None


def outcomes(g: Game) -> list[tuple[int | None, bool]]:
    """Every outcome a throw may have now: a miss or a hit on a Blink still in the vault,
    each with or without a touch on the way back."""
    return [(hit, touched) for hit in (None, *g.in_vault()) for touched in (False, True)]


def legal_actions(g: Game, seat: int | None) -> list[Action]:
    """Every action `seat` may send now; `seat=None`: what the captain (a throw's
    settling, an undo, a passed turn) may."""
    if g.phase is Phase.OVER:
        return []
    if seat is None:
        if g.phase is Phase.CONFIRM:
            assert g.pending is not None
            k = g.pending.throw
            return [Confirm(k), *(Overrule(k, hit, touched) for hit, touched in outcomes(g))]
        out: list[Action] = [PassTurn(g.turn)]
        if g.last is not None:
            out.append(Undo(g.last.throw))
        return out
    if seat not in g.waiting():
        return []
    out = [Throw(seat, g.throws + 1, hit, touched) for hit, touched in outcomes(g)]
    if g.alternate and g.thrown:
        out.append(EndTurn(seat))
    return out


__all__ = ["legal_actions", "outcomes", "stand_in", "waiting_for"]
