"""Games played to the end through the seam only: the states every conformance test reads.

A `Game` is one table from `example_setup`, played by the definition's own bot with,
now and then, any other action `legal_actions` lists (a captain's pass, a rare card, a
block the bot would not choose). The gate is passed the party's way: `gate_opened`'s
actions, then (a relay game) a gift arriving from another table through `relay_arrival`.

Games are cached by (game, players, seed, gate, mix): every test module reads the same
few hundred states, played once per run.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol, runtime_checkable

from games.definition import Definition, HidesInformation, RelaysGifts, Role, Setup
from games.event import Event
from tests.games.conformance.definitions import DEFINITIONS, example_setup

MAX_STEPS = 20_000  # far beyond any real game: a game that has not ended by then never will
RELAY_GIFT_BASE = 1_000_000  # ids of gifts "from another table": far from any setup's


@dataclass(frozen=True)
class Step:
    before: Any
    action: Any
    events: tuple[Event, ...]
    after: Any


@dataclass
class Game:
    definition: Definition
    setup: Setup
    start: Any
    start_events: tuple[Event, ...]
    steps: list[Step] = field(default_factory=list)

    @property
    def actions(self) -> list[Any]:
        return [s.action for s in self.steps]

    @property
    def final(self) -> Any:
        return self.steps[-1].after if self.steps else self.start

    def states(self) -> list[Any]:
        return [self.start, *(s.after for s in self.steps)]


@runtime_checkable
class TakesTypedWords(Protocol):
    """A game whose players type words (Word Heist): no list holds every word a player may
    type, so `legal_actions` lists some and this says whether the rules accept another."""

    def accepts_typed(self, state: Any, action: Any) -> bool: ...


def accepted_unlisted(definition: Definition, state: Any, action: Any) -> bool:
    """Whether `action`, though no list holds it, is a typed word the game accepts."""
    return isinstance(definition, TakesTypedWords) and definition.accepts_typed(state, action)


def all_legal(definition: Definition, state: Any) -> list[Any]:
    """Every action `legal_actions` lists now, for every seat and for the duties."""
    seats: list[int | None] = [None, *range(players_of(definition, state))]
    return [a for seat in seats for a in definition.legal_actions(state, seat)]


def players_of(definition: Definition, state: Any) -> int:
    """The table's size: the seam has no accessor of its own, but standings name every seat."""
    return len(definition.standings(state))


def gate_action(definition: Definition, state: Any, arrivals: int) -> Any:
    """What passes the gate now: the opened gate's action, else the relay's gift."""
    action = definition.gate_opened(state)
    if action is not None:
        return action
    assert definition.features.relay, f"{definition.name}: at the gate, gate_opened gives nothing and there is no relay"
    assert isinstance(definition, RelaysGifts), f"{definition.name} has a relay but no relay_arrival"
    return definition.relay_arrival(state, RELAY_GIFT_BASE + arrivals, f"relay gift {arrivals}")


def next_action(definition: Definition, state: Any, r: random.Random, mix: float, arrivals: int) -> Any:
    """The bot's action, or (with probability `mix`) any legal action; the gate's at the gate."""
    if definition.at_gate(state):
        return gate_action(definition, state, arrivals)
    if mix and r.random() < mix:
        legal = all_legal(definition, state)
        if legal:
            return r.choice(legal)
    action = definition.bot_action(state, r)
    assert action is not None, f"{definition.name}: the bot has no action, yet the game is neither over nor at the gate"
    return action


@cache
def played(name: str, players: int, seed: int, gate: bool, mix: float = 0.1) -> Game:
    """One table played to its end, recorded step by step."""
    definition = next(d for d in DEFINITIONS if d.name == name)
    setup = example_setup(definition, players, seed, gate)
    state, events = definition.setup(setup)
    game = Game(definition, setup, state, tuple(events))
    r = random.Random(f"play:{name}:{players}:{seed}:{gate}:{mix}")
    arrivals = 0
    while not definition.is_over(state):
        assert len(game.steps) < MAX_STEPS, f"{name}: {players} players, seed {seed}: no end after {MAX_STEPS} actions"
        action = next_action(definition, state, r, mix, arrivals)
        arrivals += definition.role_of(action) is Role.SERVER
        after, events = definition.apply(state, action)
        game.steps.append(Step(state, action, tuple(events), after))
        state = after
    return game


def sizes(definition: Definition) -> list[int]:
    return list(range(definition.min_players, definition.max_players + 1))


def sample_games(definition: Definition, per_size: int = 2) -> list[Game]:
    """A few whole games: every table size, with and without the gate."""
    return [
        played(definition.name, n, seed, gate=(seed + n) % 2 == 0)
        for n in sizes(definition)
        for seed in range(per_size)
    ]


def sample_states(definition: Definition, every: int = 3, per_size: int = 2) -> list[Any]:
    """Every `every`-th state of `sample_games`, the first and the last of each included."""
    out: list[Any] = []
    for game in sample_games(definition, per_size):
        states = game.states()
        out += states[::every]
        if (len(states) - 1) % every:
            out.append(states[-1])
    return out


def hides(definition: Definition) -> bool:
    return isinstance(definition, HidesInformation)
