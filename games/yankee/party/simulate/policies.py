"""Bot players for the simulator (tables/simulate), behind one small interface.

Game code: a policy reads Yankee Heist's state as a player at the table would, so it
lives with the game (the game-seam contract keeps the game's names in its package).

A policy answers three questions for one seat: what to do on its turn (`turn`), whether
to block a move that threatens its gift (`react`, a reaction card or None), and which
cards to drop when over the hand limit (`trim`). It sees the game as that seat may: its
own hand, where every gift sits, which gifts are open, what it has peeked. Gift values
are the seat's private values (`Seat.values`, drawn per game); a gift it cannot see is
worth the prior mean to it. Randomness comes only from `Seat.r`, never the game's
generator (so bots never change the game's draws).

Policies, from naive to sensible:
- random:  the engine's random legal bot (bots.py);
- greedy:  a thief: goes for the best gift it can reach, blocks when its gift is worth keeping;
- hoarder: keeps its reactions (never spends them, digs for more) and blocks every
           threat it can; steals only with MOVE cards;
- never:   never steals and never blocks: the control, every gift stays where dealt.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass
from typing import TypeVar

from games.yankee.actions import Action, PlayCard, React, Regroup, Swipe, Trim, VaultExchange
from games.yankee.bots import bot_action
from games.yankee.cards import CARD_OF, REACTION_IDS, Card
from games.yankee.state import Direction, Game, open_window

T = TypeVar("T")

PRIOR = 0.5  # the mean of a private value drawn uniformly from [0, 1)
MARGIN = 0.05  # a greedy thief moves only for a gift clearly better than its own


@dataclass(slots=True)
class Seat:
    """What one bot knows besides the game: its seat, private values, its own dice."""

    seat: int
    values: dict[int, float]  # gift id -> this player's private value
    r: random.Random


def estimate(g: Game, me: Seat, gift: int) -> float:
    """The value `me` can put on `gift` now: its own value once seen, else the prior."""
    if gift in g.open or gift in g.peeks[me.seat]:
        return me.values[gift]
    return PRIOR


# How much a card is worth keeping, low first: payments and trims spend the cheapest.
_KEEP = {
    Card.CASE_THE_JOINT: 0,
    Card.SWITCHEROO: 1,
    Card.PICKPOCKET: 2,
    Card.INSIDE_MAN: 3,
    Card.THREE_GIFT_GRIFT: 4,
    Card.YANKEE_HEIST: 5,
    Card.SNATCH: 6,
    Card.NOT_SO_FAST: 7,
    Card.TRIPWIRE: 8,
}
KEEP = tuple(_KEEP[c] for c in CARD_OF)  # by card id


def cheapest(hand: Iterable[int], k: int, *, exclude: Container[int] = ()) -> tuple[int, ...] | None:
    cards = sorted((c for c in hand if c not in exclude), key=KEEP.__getitem__)
    return tuple(cards[:k]) if len(cards) >= k else None


def pick_best(
    r: random.Random, items: Iterable[T], score: Callable[[T], float]
) -> tuple[T, float] | tuple[None, float]:
    """(item, score) with the highest score; ties broken at random. Without the random
    tie-break a bot would always pick the lowest seat among equals (every wrapped gift
    is worth the prior), and seat numbers would carry an effect."""
    best, top = -float("inf"), list[T]()
    for x in items:
        v = score(x)
        if v > best:
            best, top = v, [x]
        elif v == best:
            top.append(x)
    if not top:
        return None, best
    return (top[0] if len(top) == 1 else top[int(r.random() * len(top))]), best


def _sure(value: T | None, what: str) -> T:
    """`value`, which the caller knows is there (an AssertionError names it if not)."""
    if value is None:
        raise AssertionError(f"no {what}")
    return value


def first_of(hand: Iterable[int], card: Card) -> int | None:
    for c in hand:
        if CARD_OF[c] is card:
            return c
    return None


class Policy:
    name = "policy"

    def turn(self, g: Game, me: Seat) -> Action:
        raise NotImplementedError

    def react(self, g: Game, me: Seat) -> int | None:
        raise NotImplementedError

    def trim(self, g: Game, me: Seat, count: int) -> tuple[int, ...]:
        return _sure(cheapest(g.hands[me.seat], count), f"{count} cards to trim")


class RandomPolicy(Policy):
    """Random legal play: exactly the engine's own bot."""

    name = "random"

    def turn(self, g: Game, me: Seat) -> Action:
        a = bot_action(g, me.r, me.seat)
        if a is None:
            raise AssertionError("the bot had no action on a turn")
        return a

    def react(self, g: Game, me: Seat) -> int | None:
        a = bot_action(g, me.r, me.seat)
        if not isinstance(a, React):
            raise AssertionError(f"asked to react, the bot chose {a!r}")
        return a.card

    def trim(self, g: Game, me: Seat, count: int) -> tuple[int, ...]:
        a = bot_action(g, me.r, me.seat)
        if not isinstance(a, Trim):
            raise AssertionError(f"asked to trim, the bot chose {a!r}")
        return a.cards


class NeverStealPolicy(Policy):
    """The control: never moves a gift, never blocks. Plays INSIDE MAN or passes."""

    name = "never"

    def turn(self, g: Game, me: Seat) -> Action:
        c = first_of(g.hands[me.seat], Card.INSIDE_MAN)
        if c is not None:
            return PlayCard(me.seat, c)
        return Regroup(me.seat, ())

    def react(self, g: Game, me: Seat) -> int | None:
        return None


def incoming(g: Game, seat: int) -> int:
    """The gift `seat` would hold if the open window's move went through."""
    for src, dst in open_window(g).move:
        if dst == seat:
            return g.gifts[src]
    return g.gifts[seat]


class GreedyPolicy(Policy):
    """A thief: takes the best gift it can reach if clearly better than its own (vault
    gifts too), with the cheapest way it has; blocks when its gift is worth keeping."""

    name = "greedy"
    spend_reactions = True  # may pay a SWIPE or the vault with reaction cards

    def turn(self, g: Game, me: Seat) -> Action:
        s = me.seat
        hand = g.hands[s]
        mine = estimate(g, me, g.gifts[s])
        gifts = g.gifts
        target, best = pick_best(me.r, [t for t in range(g.players) if t != s], lambda t: estimate(g, me, gifts[t]))
        vault_gift, vault_best = pick_best(me.r, g.vault, lambda gift: estimate(g, me, gift))
        exclude = () if self.spend_reactions else REACTION_IDS
        if vault_gift is not None and vault_best > max(best, mine + MARGIN):
            pay = cheapest(hand, 2, exclude=exclude)
            if pay is not None:
                return VaultExchange(s, pay, vault_gift)
        if target is not None and best > mine + MARGIN:
            a = self.steal(g, me, hand, target, exclude)
            if a is not None:
                return a
        return self.idle(g, me, hand)

    def steal(self, g: Game, me: Seat, hand: tuple[int, ...], target: int, exclude: Container[int]) -> Action | None:
        s, n = me.seat, g.players
        c = first_of(hand, Card.SNATCH)
        if c is not None:
            return PlayCard(s, c, (target,))
        if n >= 3:
            c = first_of(hand, Card.THREE_GIFT_GRIFT)
            if c is not None:
                # The active player receives from the ring's last seat: clockwise from
                # me the ring is (me, p, q); CLOCKWISE gives me q's gift.
                other = self.third(g, me, target)
                later = max((target, other), key=lambda x: (x - s) % n)
                direction = Direction.CLOCKWISE if later == target else Direction.COUNTERCLOCKWISE
                return PlayCard(s, c, (target, other), None, direction)
        c = first_of(hand, Card.YANKEE_HEIST)
        if c is not None and len(hand) >= 2:
            extra = _sure(cheapest(hand, 1, exclude=(c,)), "card to pay with")[0]
            if n == 2:
                return PlayCard(s, c, (target,), extra)
            # Swap with someone else first, then with the target: I end with its gift.
            return PlayCard(s, c, (self.third(g, me, target), target), extra)
        pay = cheapest(hand, 2, exclude=exclude)
        if pay is not None:
            return Swipe(s, pay, target)
        return None

    def third(self, g: Game, me: Seat, target: int) -> int:
        """A third seat to take part in a GRIFT or a HEIST's first step: the holder of
        the gift I value least."""
        s, gifts = me.seat, g.gifts
        others = [t for t in range(g.players) if t != s and t != target]
        return _sure(pick_best(me.r, others, lambda t: -estimate(g, me, gifts[t]))[0], "third seat")

    def idle(self, g: Game, me: Seat, hand: tuple[int, ...]) -> Action:
        s = me.seat
        c = first_of(hand, Card.INSIDE_MAN)
        if c is not None:
            return PlayCard(s, c)
        c = first_of(hand, Card.CASE_THE_JOINT)
        if c is not None:
            wrapped = [t for t, gift in enumerate(g.gifts) if t != s and gift not in g.open and gift not in g.peeks[s]]
            if wrapped:
                return PlayCard(s, c, (wrapped[int(me.r.random() * len(wrapped))],))
        c = first_of(hand, Card.PICKPOCKET)
        if c is not None:
            richest, _ = pick_best(me.r, [t for t in range(g.players) if t != s], lambda t: len(g.hands[t]))
            if richest is not None and g.hands[richest]:
                return PlayCard(s, c, (richest,))
        # Regroup away dead weight: cards that can do nothing useful now.
        dead = tuple(c for c in hand if CARD_OF[c] in (Card.CASE_THE_JOINT, Card.SWITCHEROO))[:2]
        return Regroup(s, dead)

    def react(self, g: Game, me: Seat) -> int | None:
        blocks = [c for c in g.hands[me.seat] if c in REACTION_IDS]
        if not blocks:
            return None
        if not self.worth_keeping(g, me):
            return None
        return max(blocks, key=KEEP.__getitem__)  # TRIPWIRE first: it draws 2

    def worth_keeping(self, g: Game, me: Seat) -> bool:
        s = me.seat
        return estimate(g, me, g.gifts[s]) > estimate(g, me, incoming(g, s))


class HoarderPolicy(GreedyPolicy):
    """A hoarder of reactions: never spends them, digs for more, and blocks every move
    on its gift while it has one. Steals only with MOVE cards (a SWIPE would cost cards)."""

    name = "hoarder"
    spend_reactions = False

    def steal(self, g: Game, me: Seat, hand: tuple[int, ...], target: int, exclude: Container[int]) -> Action | None:
        a = super().steal(g, me, hand, target, exclude)
        return None if isinstance(a, Swipe) else a

    def idle(self, g: Game, me: Seat, hand: tuple[int, ...]) -> Action:
        s = me.seat
        c = first_of(hand, Card.INSIDE_MAN)
        if c is not None:
            return PlayCard(s, c)
        digging = cheapest(hand, min(2, sum(1 for c in hand if c not in REACTION_IDS)), exclude=REACTION_IDS)
        return Regroup(s, digging or ())

    def worth_keeping(self, g: Game, me: Seat) -> bool:
        return True


POLICIES: dict[str, type[Policy]] = {p.name: p for p in (RandomPolicy, GreedyPolicy, HoarderPolicy, NeverStealPolicy)}


def policy_named(name: str) -> Policy:
    try:
        return POLICIES[name]()
    except KeyError:
        raise ValueError(f"unknown policy {name!r}: choose from {', '.join(POLICIES)}") from None


__all__ = ["POLICIES", "Policy", "Seat", "estimate", "policy_named"]
