"""Royal Heist behind the party's seam: `ROYAL`, a `games.definition.GameDefinition`.

Not registered here: games/registry.py names the games the party hosts.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.definition import (
    Clock,
    Features,
    GameDefinition,
    HidesInformation,
    NamesDuties,
    NamesRules,
    Role,
    ScoresEachGame,
    Setup,
    Standing,
    ranked,
)
from games.marks import gettext_noop as _

from . import hidden, legal, rules, views
from .actions import Action, Decide, OpenGate, TimeoutDecide, action_to_dict, parse_action
from .bots import bot_action
from .catalogue import rules_for_screens
from .errors import MalformedActionError
from .state import Event, Game, Phase

DECIDE_SECONDS = 20.0  # one room's choice: a glance at the rooms and a tap
_OPTIONS = frozenset({"heists"})


def _options(setup: Setup) -> dict[str, int]:
    """new_game's `heists` and `games` from a Setup (rules.new_game checks their ranges)."""
    unknown = set(setup.options) - _OPTIONS
    if unknown:
        raise MalformedActionError(f"unknown Royal Heist options: {sorted(unknown)}")
    heists = setup.options.get("heists", rules.HEISTS)
    if type(heists) is not int:
        raise MalformedActionError("the option 'heists' is an integer")
    return {"heists": heists, "games": setup.games}


class RoyalDefinition:
    name = "royal"
    title = "Royal Heist"
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    table_max = rules.MAX_PLAYERS
    # A party plays three games, a running total (docs/RULES.md, "A Royal Heist party");
    # four fit a single table's evening.
    features = Features(
        gifts=False, vaults=False, relay=False, gate=True, games=rules.PARTY_GAMES, max_games=rules.MAX_GAMES
    )

    # --- setup, actions, rules ---------------------------------------------------------
    def setup(self, setup: Setup) -> tuple[Game, list[Event]]:
        return rules.new_game(setup.seed, setup.players, gate=setup.gate, **_options(setup))

    def parse_action(self, data: Any) -> Action:
        return parse_action(data)

    def action_to_dict(self, action: Action) -> dict[str, Any]:
        return action_to_dict(action)

    def apply(self, state: Game, action: Action) -> tuple[Game, list[Event]]:
        return rules.apply(state, action)

    def replay(self, setup: Setup, actions: Sequence[Action]) -> Game:
        return rules.replay(setup.seed, setup.players, actions, gate=setup.gate, **_options(setup))

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

    def reshuffle_hidden(self, state: Game, viewer: int | None, rng: random.Random) -> Game:
        return hidden.reshuffle_hidden(state, viewer, rng)

    def private_keys(self) -> tuple[str, ...]:
        return views.PRIVATE_KEYS

    def seat_private(self, state: Game, seat: int) -> dict[str, Any]:
        return views.seat_private(state, seat)

    # --- who acts --------------------------------------------------------------------------
    def waiting_for(self, state: Game) -> tuple[int, ...]:
        return legal.waiting_for(state)

    def legal_actions(self, state: Game, seat: int | None) -> list[Action]:
        return legal.legal_actions(state, seat)

    def role_of(self, action: Action) -> Role:
        if isinstance(action, Decide):
            return Role.SEAT
        if isinstance(action, TimeoutDecide):
            # The clock's stand-in, as Yankee Heist's pass: the server plays it when the
            # host chose so, else the captain, the tablet or the host may once the clock
            # has run out (tables/clock.py pass_from). Were it the server's alone, a party
            # with the server's play off would wait for a quiet guest for ever.
            return Role.DUTY
        if isinstance(action, OpenGate):
            # The gate is the party's: every table waits until all are there, and the
            # host opens it for all at once (party_open_gate). A captain opening their
            # own table's gate would let it run ahead of the room.
            return Role.SERVER
        raise MalformedActionError(f"not a Royal Heist action: {action!r}")

    def seat_of(self, action: Action) -> int | None:
        return action.seat if isinstance(action, Decide | TimeoutDecide) else None

    def bot_action(self, state: Game, rng: random.Random, seat: int | None = None) -> Action | None:
        return bot_action(state, rng, seat)

    # --- clocks and the party ------------------------------------------------------------
    def clock(self, state: Game, seconds: Mapping[str, float]) -> Clock | None:
        waiting = legal.waiting_for(state)
        stand_in = legal.stand_in(state)
        if not waiting or stand_in is None:
            return None
        # Everybody inside decides on the room at once, and each decision is one action:
        # the room was turned up as many versions ago as there are decisions so far.
        since = state.version - len(state.decisions)
        return Clock(
            step="decide",
            waiting=waiting,
            stand_in=stand_in,
            seconds=seconds.get("decide", DECIDE_SECONDS),
            since=since,
        )

    def clock_steps(self) -> Mapping[str, float]:
        return {"decide": DECIDE_SECONDS}

    def step_texts(self) -> Mapping[str, Mapping[str, str]]:
        # the words of the host's stand-in buttons and alerts (games/definition.py NamesSteps)
        return {
            "decide": {
                "stand_in": _("Get out for %(name)s"),
                "before": _("A quiet guest's choice may be played for them in "),
                "waited": _("Table %(letter)s: a decision has waited %(seconds)s s for %(names)s"),
            }
        }

    def rule_texts(self) -> Mapping[str, str]:
        # a guest's refusal by Royal Heist's own rules, outside English (games/definition.py NamesRules)
        return {
            "inside": _("That seat is out of this heist."),
            "decided": _("That seat has decided already: a decision is final."),
        }

    def duty_texts(self) -> Mapping[str, str]:
        # the host's words for the step clock and the captain's one duty (games/definition.py
        # NamesDuties): the decide step is the only one timed, and its stand-in gets out
        return {
            "clock": _(
                "How long a quiet guest's choice in a room, press on or get out, may wait. Then the table's "
                "captain or you may play the rules' do-nothing choice for them: get out, banking their satchel."
            ),
            "tablet": _(
                "No tablet yet. The captain's duty (getting a quiet guest out once the step clock runs out) "
                "can run on a tablet at the table."
            ),
            "clock_hint": _("how long a quiet guest's choice, press on or get out, may wait"),
            "stand_in_hint": _("else the captain or you may get them out, banking their satchel"),
        }

    def at_gate(self, state: Game) -> bool:
        return state.phase is Phase.GATE

    def gate_opened(self, state: Game) -> Action | None:
        return OpenGate() if state.phase is Phase.GATE else None

    def is_over(self, state: Game) -> bool:
        return state.phase is Phase.OVER

    def standings(self, state: Game) -> list[Standing]:
        # the running total of a table's games (one game: its banks)
        return ranked(state.running_totals())

    def game_scores(self, events: Sequence[Event]) -> list[list[int]]:
        # each game's banks as it ended (game_ended between games, game_over at the last)
        return [list(e.data["banks"]) for e in events if e.type in ("game_ended", "game_over")]

    # --- what the screens need -------------------------------------------------------------
    def rules_for_screens(self, say: Callable[[str], str] = str) -> dict[str, Any]:
        return rules_for_screens(say)


_ROYAL = RoyalDefinition()
ROYAL: GameDefinition[Game, Action] = _ROYAL
# The type checker holds it to the seam and to its optional parts, as YANKEE.
_HIDES: HidesInformation[Game] = _ROYAL
_SCORES: ScoresEachGame = _ROYAL
_DUTIES: NamesDuties = _ROYAL
_RULES: NamesRules = _ROYAL
DEFINITION = ROYAL  # what games/registry.py reads

__all__ = ["DECIDE_SECONDS", "DEFINITION", "ROYAL", "RoyalDefinition"]
