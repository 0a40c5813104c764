"""The bots finish every game, and every action anyone produces survives its wire form.

- for every table size, several seeds, with and without the party's gate, the
  definition's bot (the gate passed by `gate_opened` and the relay) plays to the end;
- every action the bot chooses is one `legal_actions` lists, for its seat (a SEAT
  action) or for the captain and the server (None);
- every action the bot or `legal_actions` produces comes back equal from
  `parse_action(json(action_to_dict(a)))`.
"""

from __future__ import annotations

import json
import random
from typing import Any

from games.definition import Definition, Role
from tests.games.conformance.play import all_legal, played, sample_states, sizes

SEEDS = range(4)


def wire(definition: Definition, action: Any) -> Any:
    return definition.parse_action(json.loads(json.dumps(definition.action_to_dict(action))))


def listed_for(definition: Definition, state: Any, action: Any) -> list[Any]:
    seat = definition.seat_of(action) if definition.role_of(action) is Role.SEAT else None
    return definition.legal_actions(state, seat)


def test_bots_finish_every_game(definition: Definition) -> None:
    for n in sizes(definition):
        for seed in SEEDS:
            for gate in (False, True):
                game = played(definition.name, n, seed, gate, mix=0.0)  # the bot alone, bar the gate
                assert definition.is_over(game.final)
                assert definition.bot_action(game.final, random.Random(seed)) is None, "a bot acts in a finished game"
                assert all_legal(definition, game.final) == [], "a finished game still lists legal actions"
                if gate and definition.features.gate:
                    assert any(definition.at_gate(s.before) for s in game.steps), "a gated game never stopped"
                if not gate:
                    assert not any(definition.at_gate(s) for s in game.states()), "an ungated game stopped at a gate"


def test_bots_choose_legal_actions_that_survive_the_wire(definition: Definition) -> None:
    for n in sizes(definition):
        for seed in SEEDS:
            game = played(definition.name, n, seed, seed % 2 == 0, mix=0.0)
            for step in game.steps:
                if definition.at_gate(step.before) and definition.role_of(step.action) is Role.SERVER:
                    pass  # the relay's gift: no list holds gifts from another table
                else:
                    assert step.action in listed_for(definition, step.before, step.action), (
                        f"the bot chose {step.action}, which legal_actions does not list"
                    )
                assert wire(definition, step.action) == step.action


def test_legal_actions_survive_the_wire(definition: Definition) -> None:
    r = random.Random(5)
    for state in sample_states(definition, every=2):
        legal = all_legal(definition, state)
        for action in r.sample(legal, min(40, len(legal))):
            assert wire(definition, action) == action
