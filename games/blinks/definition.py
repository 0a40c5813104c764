"""Blinks Heist behind the party's seam: `BLINKS`, a `games.definition.GameDefinition`.

Not registered here: games/registry.py names the games the party hosts.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from games.definition import (
    Clock,
    Features,
    GameDefinition,
    HostOption,
    NamesDuties,
    NamesRules,
    Role,
    Setup,
    Standing,
    ranked,
)
from games.marks import gettext_noop

from . import legal, rules, teams, views
from .actions import Action, Confirm, EndTurn, Overrule, PassTurn, Throw, Undo, action_to_dict, parse_action
from .bots import bot_action
from .catalogue import RULE_TEXT, rules_for_screens
from .errors import MalformedActionError
from .state import Event, Game, Phase

# One throw: walk round to an angle, slide, retrieve the thief, tap the phone.
THROW_SECONDS = 60.0
_OPTIONS = frozenset({"vault", "alternate", "teams"})


def _options(setup: Setup) -> dict[str, Any]:
    """new_game's arguments from a Setup (rules.new_game checks their values)."""
    unknown = set(setup.options) - _OPTIONS
    if unknown:
        raise MalformedActionError(f"unknown Blinks Heist options: {sorted(unknown)}")
    if setup.games != 1:
        raise MalformedActionError(f"a Blinks Heist table empties one vault, not {setup.games!r} games")
    out: dict[str, Any] = {"seed": setup.seed, "players": setup.players}
    if "vault" in setup.options:
        out["vault"] = setup.options["vault"]
    if "alternate" in setup.options:
        out["alternate"] = setup.options["alternate"]
    if "teams" in setup.options:
        chosen = setup.options["teams"]
        if not isinstance(chosen, list | tuple):
            raise MalformedActionError("the option 'teams' lists each seat's team")
        out["teams"] = chosen
    return out


class BlinksDefinition:
    name = "blinks"
    title = "Blinks Heist"
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    table_max = rules.MAX_PLAYERS
    # No gifts, and no gate: a table's vault is on the table, and a table that stopped
    # half-way would stand round a half-broken cluster of Blinks. One vault a table.
    features = Features(gifts=False, vaults=False, relay=False, gate=False, games=1, max_games=1)

    # --- setup, actions, rules ---------------------------------------------------------
    def setup(self, setup: Setup) -> tuple[Game, list[Event]]:
        # `setup.gate` is not refused: the game has no gate (Features.gate), as a host
        # that asks for one at a party of several tables gets none.
        return rules.new_game(**_options(setup))

    def parse_action(self, data: Any) -> Action:
        return parse_action(data)

    def action_to_dict(self, action: Action) -> dict[str, Any]:
        return action_to_dict(action)

    def apply(self, state: Game, action: Action) -> tuple[Game, list[Event]]:
        return rules.apply(state, action)

    def replay(self, setup: Setup, actions: Sequence[Action]) -> Game:
        return rules.replay(_options(setup), actions)

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
        return legal.legal_actions(state, seat)

    def role_of(self, action: Action) -> Role:
        if isinstance(action, Throw | EndTurn):
            # The thrower records their own throw (docs/RULES.md, "Who records a throw").
            return Role.SEAT
        if isinstance(action, Confirm | Overrule | Undo | PassTurn):
            # The captain's tap settles a throw, so nobody claims a Blink alone; the
            # captain's call decides a disagreement; the captain takes a throw back and
            # passes the turn of a thrower who is not there (the clock's stand-in).
            return Role.DUTY
        raise MalformedActionError(f"not a Blinks Heist action: {action!r}")

    def seat_of(self, action: Action) -> int | None:
        return action.seat if isinstance(action, Throw | EndTurn | PassTurn) else None

    def bot_action(self, state: Game, rng: random.Random, seat: int | None = None) -> Action | None:
        return bot_action(state, rng, seat)

    # --- clocks and the party ------------------------------------------------------------
    def clock(self, state: Game, seconds: Mapping[str, float]) -> Clock | None:
        # Only the thrower's step is clocked: the captain's tap is a duty the host sees
        # waiting, and settling a throw by the clock would claim Blinks nobody confirmed.
        stand_in = legal.stand_in(state)
        if stand_in is None:
            return None
        return Clock(
            step="throw", waiting=state.waiting(), stand_in=stand_in, seconds=seconds.get("throw", THROW_SECONDS)
        )

    def clock_steps(self) -> Mapping[str, float]:
        return {"throw": THROW_SECONDS}

    def step_texts(self) -> Mapping[str, Mapping[str, str]]:
        # the words of the host's stand-in buttons and alerts (games/definition.py
        # NamesSteps): a quiet thrower's turn passes, nothing is thrown
        return {
            "throw": {
                "stand_in": gettext_noop("Pass the throw for %(name)s"),
                "before": gettext_noop("A quiet thrower's turn may be passed in "),
                "waited": gettext_noop("Table %(letter)s: a throw has waited %(seconds)s s for %(names)s"),
            }
        }

    def rule_texts(self) -> Mapping[str, str]:
        # the sentences its screens show of a refusal (catalogue.py), the server's too
        # outside English (games/definition.py NamesRules)
        return RULE_TEXT

    def duty_texts(self) -> Mapping[str, str]:
        # the host's words for the step clock and the captain's taps (games/definition.py
        # NamesDuties): only the thrower's turn is timed (docs/RULES.md, "A thrower who is
        # not there"); the captain's tap that settles a throw has no clock
        return {
            "clock": gettext_noop(
                "How long a quiet thrower's turn may wait. Then the table's captain or you may play the rules' "
                "do-nothing choice for them: pass the turn, with no throw and no skip."
            ),
            "tablet": gettext_noop(
                "No tablet yet. The captain's taps (settling each recorded throw, the captain's call, taking the "
                "last throw back, passing a quiet thrower's turn) can run on a tablet at the table."
            ),
            "clock_hint": gettext_noop("how long a quiet thrower's turn may wait"),
            "stand_in_hint": gettext_noop("else the captain or you may pass the turn, with no throw and no skip"),
        }

    def at_gate(self, state: Game) -> bool:
        return False

    def gate_opened(self, state: Game) -> Action | None:
        return None

    def is_over(self, state: Game) -> bool:
        return state.phase is Phase.OVER

    def standings(self, state: Game) -> list[Standing]:
        # The printed rule: the player holding the most gold Blinks wins the table; the
        # party's contest is the teams' (team_totals).
        return ranked(state.claims())

    # --- the party's teams -----------------------------------------------------------------
    def draw_teams(self, table_sizes: Sequence[int], rng: random.Random) -> list[list[int]]:
        """Each table's seats' teams, balanced over the party and at every table."""
        return teams.balanced_teams(table_sizes, rng)

    def team_totals(self, states: Iterable[Game]) -> list[int]:
        """Each team's claimed Blinks over the party's tables."""
        states = list(states)
        return teams.team_totals([s.claims() for s in states], [s.teams for s in states])

    # --- the host's choices for the party (games.definition.TakesHostOptions) ------------
    def host_options(self) -> Sequence[HostOption]:
        return (
            HostOption(
                "vault",
                gettext_noop("Gold Blinks in each table's vault"),
                rules.VAULT,
                rules.MIN_VAULT,
                rules.MAX_VAULT,
                gettext_noop("(from the sets you own; 10 plays 30-45 minutes at one hit in two)"),
            ),
            HostOption(
                "alternate",
                gettext_noop("The alternate rule: throw again after a hit; a miss skips your next turn"),
                False,
            ),
        )

    def table_options(
        self,
        chosen: Mapping[str, Any],
        table_sizes: Sequence[int],
        rng: random.Random,
        groups: Sequence[Sequence[int | None]] | None = None,
    ) -> list[dict[str, Any]]:
        # The party plays as four teams across its tables: the host's hand-set teams
        # kept, the rest drawn balanced over the party and at every table.
        if groups is None:
            drawn = self.draw_teams(table_sizes, rng)
        else:
            if [len(t) for t in groups] != list(table_sizes):
                raise ValueError("the hand-set teams name every seat of every table")
            drawn = teams.teams_around(groups, rng)
        return [{"vault": chosen["vault"], "alternate": chosen["alternate"], "teams": t} for t in drawn]

    # --- the party's teams (games.definition.PlaysInGroups) ------------------------------
    def group_names(self) -> Sequence[str]:
        return [teams.COLOUR_NAMES[c] for c in teams.COLOURS]

    def group_of(self, state: Game, seat: int) -> int:
        return state.teams[seat]

    # --- what the screens need -------------------------------------------------------------
    def rules_for_screens(self, say: Callable[[str], str] = str) -> dict[str, Any]:
        return rules_for_screens(say)


_BLINKS = BlinksDefinition()
BLINKS: GameDefinition[Game, Action] = _BLINKS
_DUTIES: NamesDuties = _BLINKS
_RULES: NamesRules = _BLINKS
DEFINITION = BLINKS  # what games/registry.py reads

__all__ = ["BLINKS", "DEFINITION", "THROW_SECONDS", "BlinksDefinition"]
