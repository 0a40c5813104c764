"""Yankee Heist behind the party's seam: `YANKEE`, a `games.definition.GameDefinition`.

A thin wrapper written on wip/hostseam so the table host can speak to Yankee Heist
through its definition; another branch writes the full one, and the lead reconciles
the two. Every method forwards to the engine: the state objects are the engine's own.
Not registered here: games/registry.py names the games the party hosts.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.definition import Clock, Features, GameDefinition, Role, Setup, Standing

from . import legal, rules, views
from .actions import Action, ConfirmReveal, DrawRelaySeat, RelayExchange, TimeoutPass, action_to_dict, parse_action
from .bots import bot_action
from .catalogue import rules_for_screens
from .errors import MalformedActionError
from .state import Event, Game, Gift, Phase

# The step clock's default; the party sets its own (events/models.py STEP_CLOCKS).
STEP_SECONDS = 120.0
_STEPS = {Phase.ACTION: "turn", Phase.REACTION: "reaction", Phase.TRIM: "trim", Phase.REVEAL: "reveal"}


def _gifts(raw: Any) -> list[Gift]:
    return [g if isinstance(g, Gift) else Gift(**g) for g in raw or ()]


class YankeeDefinition:
    name = "yankee"
    title = "Yankee Heist"
    min_players = 2
    max_players = 10
    table_max = 10
    features = Features(gifts=True, vaults=True, relay=True, gate=True)

    # --- setup, actions, rules ---------------------------------------------------------
    def setup(self, setup: Setup) -> tuple[Game, list[Event]]:
        o = setup.options
        return rules.new_game(
            seed=setup.seed,
            gifts=_gifts(o.get("gifts")),
            vault=_gifts(o.get("vault")),
            gate=setup.gate,
            last_call_draw=o.get("last_call_draw", 0),
        )

    def parse_action(self, data: Any) -> Action:
        return parse_action(data)

    def action_to_dict(self, action: Action) -> dict[str, Any]:
        return action_to_dict(action)

    def apply(self, state: Game, action: Action) -> tuple[Game, list[Event]]:
        return rules.apply(state, action)

    def replay(self, setup: Setup, actions: Sequence[Action]) -> Game:
        o = setup.options
        return rules.replay(
            seed=setup.seed,
            gifts=_gifts(o.get("gifts")),
            vault=_gifts(o.get("vault")),
            gate=setup.gate,
            last_call_draw=o.get("last_call_draw", 0),
            actions=actions,
        )

    # --- storage -------------------------------------------------------------------------
    def to_dict(self, state: Game) -> dict[str, Any]:
        return state.to_dict()

    def from_dict(self, data: Mapping[str, Any]) -> Game:
        return Game.from_dict(data)

    def version(self, state: Game) -> int:
        return state.version

    # --- views ----------------------------------------------------------------------------
    def public_view(self, state: Game) -> dict[str, Any]:
        return views.public_view(state)

    def seat_view(self, state: Game, seat: int) -> dict[str, Any]:
        return views.seat_view(state, seat)

    def private_keys(self) -> tuple[str, ...]:
        return views.PRIVATE_KEYS

    def seat_private(self, state: Game, seat: int) -> dict[str, Any]:
        return views.seat_private(state, seat)

    # --- who acts --------------------------------------------------------------------------
    def waiting_for(self, state: Game) -> tuple[int, ...]:
        return legal.waiting_for(state)

    def legal_actions(self, state: Game, seat: int | None) -> list[Action]:
        # Yankee Heist's full set of legal actions is large (every card on every target);
        # the stand-in is the one a clock or a host needs.
        chosen = legal.stand_in(state)
        return [chosen] if chosen is not None else []

    def role_of(self, action: Action) -> Role:
        if isinstance(action, RelayExchange):
            return Role.SERVER
        if isinstance(action, ConfirmReveal | DrawRelaySeat | TimeoutPass):
            return Role.DUTY
        if hasattr(action, "seat"):
            return Role.SEAT
        raise MalformedActionError(f"not a Yankee Heist action: {action!r}")

    def seat_of(self, action: Action) -> int | None:
        # The seat the action is for: a seat's own, or the one a pass stands in for.
        seat = getattr(action, "seat", None)
        return seat if isinstance(seat, int) else None

    def bot_action(self, state: Game, rng: random.Random, seat: int | None = None) -> Action | None:
        return bot_action(state, rng, seat)

    # --- clocks and the party ------------------------------------------------------------
    def clock(self, state: Game, seconds: Mapping[str, float]) -> Clock | None:
        step = _STEPS.get(state.phase)
        chosen = legal.stand_in(state)
        if step is None or chosen is None:
            return None
        return Clock(
            step=step, waiting=legal.waiting_for(state), stand_in=chosen, seconds=seconds.get(step, STEP_SECONDS)
        )

    def clock_steps(self) -> Mapping[str, float]:
        return dict.fromkeys(_STEPS.values(), STEP_SECONDS)

    def at_gate(self, state: Game) -> bool:
        return state.phase is Phase.GATE

    def gate_opened(self, state: Game) -> Action | None:
        return None  # the relay moves a gift between tables: the party's relay service, not one table

    def is_over(self, state: Game) -> bool:
        return state.phase is Phase.OVER

    def standings(self, state: Game) -> list[Standing]:
        # Yankee Heist ranks nobody: everyone leaves with a gift.
        return [Standing(seat=s, score=0, rank=1, winner=True) for s in range(state.players)]

    # --- what the screens need -------------------------------------------------------------
    def rules_for_screens(self) -> dict[str, Any]:
        return rules_for_screens()


YANKEE: GameDefinition[Game, Action] = YankeeDefinition()

__all__ = ["YANKEE", "YankeeDefinition"]
