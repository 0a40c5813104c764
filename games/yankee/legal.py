"""What is legal now: who the game waits for and which cards can be played on whom.

Screens use this to grey out cards with no legal target; bots and property tests use
it to pick legal actions. It only reads the game.
"""

from __future__ import annotations

from .actions import Action, ConfirmReveal, TimeoutPass
from .cards import REACTION_IDS, Card, Kind, card_of, target_count
from .state import Game, Phase, open_window


def waiting_for(g: Game) -> tuple[int, ...]:
    """The seats whose answer the game needs now. Empty when it waits for the host or
    captain (reveal, gate) or is over."""
    if g.phase is Phase.ACTION:
        return (g.active,)
    if g.phase is Phase.REACTION:
        return open_window(g).waiting()
    if g.phase is Phase.TRIM:
        return tuple(sorted(g.trims))
    return ()


# The steps a step clock runs for (docs/RULES.md, "When a guest does not answer"): each
# waits for one guest's answer, or, for the reveal, for the captain's go-ahead.
CLOCKED_PHASES = frozenset({Phase.ACTION, Phase.REACTION, Phase.TRIM, Phase.REVEAL})


def stand_in(g: Game) -> Action | None:
    """The rules' do-nothing choice for the step the game waits on now, for the first
    seat it waits for (clockwise for a reaction, the lowest seat for a trim): a turn
    passed, a reaction let happen, a trim discarded at random, the reveal confirmed.
    None when the game waits for nobody a clock may stand in for (the gate, the end)."""
    if g.phase is Phase.ACTION:
        return TimeoutPass(seat=g.active)
    if g.phase is Phase.REACTION:
        w = open_window(g)
        waiting = w.waiting()
        return TimeoutPass(seat=waiting[0], window=w.version) if waiting else None
    if g.phase is Phase.TRIM:
        return TimeoutPass(seat=min(g.trims)) if g.trims else None
    if g.phase is Phase.REVEAL:
        return ConfirmReveal()
    return None


_OTHERS: dict[tuple[int, int], tuple[int, ...]] = {}


def _others(n: int, seat: int) -> tuple[int, ...]:
    """Every seat but `seat`, cached: bots and screens ask for it on every turn."""
    key = (n, seat)
    out = _OTHERS.get(key)
    if out is None:
        out = _OTHERS[key] = tuple(s for s in range(n) if s != seat)
    return out


def card_targets(g: Game, seat: int, card_id: int) -> tuple[int, ...] | None:
    """The seats `card_id` may name when `seat` plays it now, () for a card with no
    target, or None when the card cannot be played (a reaction, or no legal target).

    For two-target cards (SWITCHEROO, THREE-GIFT GRIFT, YANKEE HEIST) these are the
    seats either target may be; the two must differ.
    """
    card = card_of(card_id)
    if card.kind is Kind.REACTION:
        return None
    others = _others(g.players, seat)
    if card is Card.INSIDE_MAN:
        return ()
    if card is Card.SNATCH:
        return others
    if card in (Card.SWITCHEROO, Card.THREE_GIFT_GRIFT):
        return others if len(others) >= 2 else None
    if card is Card.YANKEE_HEIST:
        # It needs one other card in hand to pay with.
        return others if len(g.hands[seat]) >= 2 else None
    if card is Card.CASE_THE_JOINT:
        wrapped = tuple(s for s in others if g.gifts[s] not in g.open)
        return wrapped or None
    if card is Card.PICKPOCKET:
        with_cards = tuple(s for s in others if g.hands[s])
        return with_cards or None
    raise AssertionError(card)


def playable_cards(g: Game, seat: int) -> dict[int, tuple[int, ...]]:
    """Card id -> legal targets, for every card `seat` could play as its action now."""
    if g.phase is not Phase.ACTION or seat != g.active:
        return {}
    out = {}
    for c in g.hands[seat]:
        targets = card_targets(g, seat, c)
        if targets is not None:
            out[c] = targets
    return out


def can_swipe(g: Game, seat: int) -> bool:
    return g.phase is Phase.ACTION and seat == g.active and len(g.hands[seat]) >= 2


def can_use_vault(g: Game, seat: int) -> bool:
    return can_swipe(g, seat) and bool(g.vault)


def reaction_cards(g: Game, seat: int) -> list[int]:
    return [c for c in g.hands[seat] if c in REACTION_IDS]


def heist_steps(g: Game) -> int:
    """How many swaps YANKEE HEIST attempts at this table (one with two players)."""
    return target_count(Card.YANKEE_HEIST, g.players)  # one swap per player named
