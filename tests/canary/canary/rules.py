"""Canary Heist's rules: one shuffled deck of cards 1-52, each seat draws once in seat
order, the highest card wins (tied cards share the win). Pure: the deck is shuffled at
setup by a `random.Random` seeded from the setup's seed, and kept in the state."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from games.errors import IllegalActionError, OutOfTurnError, WrongPhaseError
from games.event import Event

DECK = tuple(range(1, 53))
MIN_PLAYERS = 2
MAX_PLAYERS = 10


@dataclass(frozen=True, slots=True)
class Draw:
    """A seat draws the top card of the deck."""

    seat: int


@dataclass(frozen=True, slots=True)
class TimeoutDraw:
    """The captain (or the server's clock) draws for a quiet seat once its clock ran out."""

    seat: int


@dataclass(frozen=True, slots=True)
class CanaryState:
    players: int
    deck: tuple[int, ...]  # the cards left, top first: no screen sees their order
    cards: tuple[int | None, ...]  # each seat's drawn card, None until it draws
    version: int = 0

    @property
    def turn(self) -> int | None:
        """The seat that draws next (seat order); None once everybody drew."""
        return next((seat for seat, card in enumerate(self.cards) if card is None), None)


def canary_setup(*, players: int, seed: int | str) -> tuple[CanaryState, list[Event]]:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalActionError(
            f"Canary Heist seats {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}", rule="players"
        )
    deck = list(DECK)
    random.Random(f"canary:{seed}").shuffle(deck)
    state = CanaryState(players=players, deck=tuple(deck), cards=(None,) * players)
    return state, [Event("started", {"players": players})]


def canary_apply(state: CanaryState, action: Draw | TimeoutDraw) -> tuple[CanaryState, list[Event]]:
    turn = state.turn
    if turn is None:
        raise WrongPhaseError("the game is over: everybody has drawn", rule="over")
    if action.seat != turn:
        raise OutOfTurnError(f"seat {turn} draws now, not seat {action.seat}")
    card, *rest = state.deck
    cards = list(state.cards)
    cards[turn] = card
    version = state.version + 1
    after = replace(state, deck=tuple(rest), cards=tuple(cards), version=version)
    events = [Event("drew", {"seat": turn, "card": card}, version=version)]
    if after.turn is None:
        events.append(Event("over", {"winners": list(winners(after))}, version=version))
    return after, events


def winners(state: CanaryState) -> tuple[int, ...]:
    """The seats holding the highest card drawn so far (none before the first draw)."""
    drawn = [card for card in state.cards if card is not None]
    if not drawn:
        return ()
    best = max(drawn)
    return tuple(seat for seat, card in enumerate(state.cards) if card == best)
