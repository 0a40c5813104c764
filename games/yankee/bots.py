"""A bot that picks a random legal action. Used by the benchmark, the property tests
and the party's bot guests. Its randomness is the caller's `random.Random`, never the
global one, and never the game's own generator (so bots don't change the game's draws).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from .actions import Action, ConfirmReveal, DrawRelaySeat, PlayCard, React, Regroup, Swipe, Trim, VaultExchange
from .cards import Card, card_of, target_count
from .legal import card_targets, reaction_cards
from .state import Direction, Game, Phase, open_window

T = TypeVar("T")


def bot_action(g: Game, r: random.Random, seat: int | None = None) -> Action | None:
    """A random legal action for `seat` (default: a seat the game waits for), or the
    authority action a host would take at the reveal / gate (None at the relay itself,
    which needs a gift from another table, and when the game is over)."""
    phase = g.phase
    if phase is Phase.ACTION:
        return _turn_action(g, r, g.active)
    if phase is Phase.REACTION:
        window = open_window(g)
        waiting = window.waiting()
        s = seat if seat is not None else _pick(r, waiting)
        blocks = reaction_cards(g, s)
        if blocks and r.random() < 0.5:
            return React(s, _pick(r, blocks), window.version)
        return React(s, None, window.version)
    if phase is Phase.TRIM:
        s = seat if seat is not None else min(g.trims)
        return Trim(s, tuple(r.sample(g.hands[s], g.trims[s])))
    if phase is Phase.REVEAL:
        return ConfirmReveal()
    if phase is Phase.GATE and g.relay_seat is None:
        return DrawRelaySeat()
    return None


def _pick(r: random.Random, items: Sequence[T]) -> T:
    # r.random() is one C call; randrange/choice/sample go through several Python frames,
    # and the benchmark spends a third of its time in the bot otherwise.
    return items[int(r.random() * len(items))]


def _pick_two(r: random.Random, items: Sequence[T]) -> tuple[T, T]:
    i = int(r.random() * len(items))
    j = int(r.random() * (len(items) - 1))
    if j >= i:
        j += 1
    return items[i], items[j]


def _turn_action(g: Game, r: random.Random, seat: int) -> Action:
    hand = g.hands[seat]
    roll = r.random()
    if roll < 0.6 and hand:
        # Try the hand's cards from a random starting point; the first with a legal
        # target is played.
        start = int(r.random() * len(hand))
        for k in range(len(hand)):
            card = hand[(start + k) % len(hand)]
            targets = card_targets(g, seat, card)
            if targets is None:
                continue
            kind = card_of(card)
            chosen: tuple[int, ...]
            if target_count(kind, g.players) == 2:
                chosen = _pick_two(r, targets)
            elif targets:
                chosen = (_pick(r, targets),)
            else:
                chosen = ()
            extra = None
            if kind is Card.YANKEE_HEIST:
                extra = _pick(r, [c for c in hand if c != card])
            direction = None
            if kind is Card.THREE_GIFT_GRIFT:
                direction = Direction.CLOCKWISE if r.random() < 0.5 else Direction.COUNTERCLOCKWISE
            return PlayCard(seat, card, chosen, extra, direction)
    if roll < 0.8 and len(hand) >= 2:
        cards = _pick_two(r, hand)
        if g.vault and r.random() < 0.3:
            return VaultExchange(seat, cards, _pick(r, g.vault))
        target = int(r.random() * (g.players - 1))
        return Swipe(seat, cards, target if target < seat else target + 1)
    k = int(r.random() * (min(2, len(hand)) + 1))
    if k == 2:
        return Regroup(seat, _pick_two(r, hand))
    return Regroup(seat, (_pick(r, hand),) if k else ())
