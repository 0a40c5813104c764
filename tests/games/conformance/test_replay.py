"""A game is a pure function of its setup and its actions, and its stored form is the game.

- determinism: the same setup and actions give identical stored states and events;
- replay: `replay(setup, actions)` stores exactly what applying the actions stored, at
  the end and part way;
- storage: `from_dict(to_dict(s))` (through JSON) stores the same and plays on the same;
- purity: `apply` leaves its input as it was; each action's events carry its version.
"""

from __future__ import annotations

import json
import random

from games.definition import Definition
from tests.games.conformance.play import played, sample_games, sizes


def test_the_same_setup_and_actions_give_the_same_states_and_events(definition: Definition) -> None:
    for n in (definition.min_players, definition.max_players):
        game = played(definition.name, n, 7, True)
        state, events = definition.setup(game.setup)
        assert definition.to_dict(state) == definition.to_dict(game.start)
        assert events == list(game.start_events)
        for step in game.steps:
            state, events = definition.apply(state, step.action)
            assert definition.to_dict(state) == definition.to_dict(step.after)
            assert events == list(step.events), f"{step.action}: other events the second time"


def test_another_seed_deals_another_game(definition: Definition) -> None:
    # Determinism must not come from ignoring the seed.
    n = definition.max_players
    dealt = {
        json.dumps(definition.to_dict(played(definition.name, n, s, False).start), sort_keys=True) for s in (1, 2, 3)
    }
    assert len(dealt) == 3, f"{definition.name}: three seeds dealt {len(dealt)} different tables"


def test_replay_stores_what_applying_stored(definition: Definition) -> None:
    for game in sample_games(definition):
        actions = game.actions
        assert definition.to_dict(definition.replay(game.setup, actions)) == definition.to_dict(game.final)
        cut = len(actions) // 2
        assert definition.to_dict(definition.replay(game.setup, actions[:cut])) == definition.to_dict(
            game.steps[cut - 1].after if cut else game.start
        )


def test_the_stored_form_is_the_game(definition: Definition) -> None:
    r = random.Random(3)
    for game in sample_games(definition):
        for step in r.sample(game.steps, min(25, len(game.steps))):
            stored = json.loads(json.dumps(definition.to_dict(step.before)))
            loaded = definition.from_dict(stored)
            assert definition.to_dict(loaded) == definition.to_dict(step.before)
            assert definition.version(loaded) == definition.version(step.before)
            after, events = definition.apply(loaded, step.action)
            assert definition.to_dict(after) == definition.to_dict(step.after), "the loaded game plays differently"
            assert events == list(step.events)


def test_apply_leaves_its_input_alone_and_stamps_its_events(definition: Definition) -> None:
    for n in sizes(definition):
        game = played(definition.name, n, 0, n % 2 == 0)
        for step in game.steps:
            before = definition.to_dict(step.before)
            after, events = definition.apply(step.before, step.action)
            assert definition.to_dict(step.before) == before, f"{step.action} changed the game it was applied to"
            assert definition.version(after) == definition.version(step.before) + 1
            assert all(e.version == definition.version(after) for e in events)
            assert definition.to_dict(after) == definition.to_dict(step.after)
