"""Canary Heist as the host sees it (games/definition.py GameDefinition)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.definition import Clock, Features, Role, Setup, Standing, ranked
from games.errors import IllegalActionError, MalformedActionError
from games.event import Event
from games.marks import gettext_noop as _

from .rules import MAX_PLAYERS, MIN_PLAYERS, CanaryState, Draw, TimeoutDraw, canary_apply, canary_setup, winners

Action = Draw | TimeoutDraw
KINDS: dict[str, type[Draw] | type[TimeoutDraw]] = {"draw": Draw, "timeout_draw": TimeoutDraw}

DRAW_SECONDS = 60.0


class CanaryDefinition:
    name = "canary"
    title = "Canary Heist"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    table_max = MAX_PLAYERS
    features = Features(gifts=False, vaults=False, relay=False, gate=False)

    def setup(self, setup: Setup) -> tuple[CanaryState, list[Event]]:
        if setup.games != 1:
            raise IllegalActionError("Canary Heist plays one game at a table", rule="games")
        return canary_setup(players=setup.players, seed=setup.seed)

    def parse_action(self, data: Any) -> Action:
        kind = data.get("type") if isinstance(data, dict) else None
        if not isinstance(kind, str) or kind not in KINDS or set(data) != {"type", "seat"}:
            raise MalformedActionError('a Canary Heist action is {"type": "draw" or "timeout_draw", "seat": n}')
        seat = data["seat"]
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < MAX_PLAYERS:
            raise MalformedActionError(f"no seat {seat!r}")
        return KINDS[data["type"]](seat=seat)

    def action_to_dict(self, action: Action) -> dict[str, Any]:
        return {"type": "draw" if isinstance(action, Draw) else "timeout_draw", "seat": action.seat}

    def apply(self, state: CanaryState, action: Action) -> tuple[CanaryState, list[Event]]:
        return canary_apply(state, action)

    def replay(self, setup: Setup, actions: Sequence[Action]) -> CanaryState:
        state, _events = self.setup(setup)
        for action in actions:
            state, _events = self.apply(state, action)
        return state

    def to_dict(self, state: CanaryState) -> dict[str, Any]:
        return {
            "players": state.players,
            "deck": list(state.deck),
            "cards": list(state.cards),
            "version": state.version,
        }

    def from_dict(self, data: Mapping[str, Any]) -> CanaryState:
        return CanaryState(
            players=int(data["players"]),
            deck=tuple(int(card) for card in data["deck"]),
            cards=tuple(None if card is None else int(card) for card in data["cards"]),
            version=int(data["version"]),
        )

    def version(self, state: CanaryState) -> int:
        return state.version

    def public_view(self, state: CanaryState) -> dict[str, Any]:
        # the deck's order is never shown: only the cards already drawn
        return {
            "players": state.players,
            "cards": list(state.cards),
            "turn": state.turn,
            "over": state.turn is None,
            "winners": list(winners(state)) if state.turn is None else [],
            "version": state.version,
        }

    def seat_view(self, state: CanaryState, seat: int) -> dict[str, Any]:
        return {**self.public_view(state), **self.seat_private(state, seat)}

    def private_keys(self) -> tuple[str, ...]:
        return ("you", "can_draw")

    def seat_private(self, state: CanaryState, seat: int) -> dict[str, Any]:
        # nothing is secret but the deck, which no seat sees: a seat's own part says
        # who it is and whether it draws now
        return {"you": seat, "can_draw": state.turn == seat}

    def waiting_for(self, state: CanaryState) -> tuple[int, ...]:
        return () if state.turn is None else (state.turn,)

    def legal_actions(self, state: CanaryState, seat: int | None) -> list[Action]:
        # None asks for the captain's and the server's actions: the draw for a quiet seat
        # (the host lets it through only once the seat's clock ran out, tables/clock.py)
        turn = state.turn
        if turn is None:
            return []
        if seat is None:
            return [TimeoutDraw(turn)]
        return [Draw(turn)] if seat == turn else []

    def role_of(self, action: Action) -> Role:
        return Role.SEAT if isinstance(action, Draw) else Role.DUTY

    def seat_of(self, action: Action) -> int | None:
        return action.seat

    def bot_action(self, state: CanaryState, rng: random.Random, seat: int | None = None) -> Action | None:
        legal = self.legal_actions(state, state.turn if seat is None else seat)
        return legal[0] if legal else None

    def clock(self, state: CanaryState, seconds: Mapping[str, float]) -> Clock | None:
        turn = state.turn
        if turn is None:
            return None
        return Clock(
            step="draw", waiting=(turn,), stand_in=TimeoutDraw(turn), seconds=seconds.get("draw", DRAW_SECONDS)
        )

    def clock_steps(self) -> Mapping[str, float]:
        return {"draw": DRAW_SECONDS}

    def at_gate(self, state: CanaryState) -> bool:
        return False

    def gate_opened(self, state: CanaryState) -> Action | None:
        return None

    def is_over(self, state: CanaryState) -> bool:
        return state.turn is None

    def standings(self, state: CanaryState) -> list[Standing]:
        return ranked([card or 0 for card in state.cards])

    def rules_for_screens(self, say: Callable[[str], str] = str) -> dict[str, Any]:
        return {
            "goal": say(_("Draw one card; the highest card wins.")),
            "draw": say(_("Draw")),
        }


DEFINITION = CanaryDefinition()
