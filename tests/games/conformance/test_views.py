"""No view shows what its viewer may not see.

The proof is indistinguishability: a game with secrets re-deals everything a viewer may
not know (`reshuffle_hidden`, games/definition.py `HidesInformation`), and that viewer's
view of the re-dealt game must be the very same, over every state of many games, for
the public screen and every seat. What it may do (`legal_actions`) must be the same too:
a seat's options depend only on what it knows. The re-dealt game is one the rules could
reach, so it plays on.

Events: a field an event type keeps for its owners is never shown to everybody in
another event of that type; every `SECRET-` string (definitions.py) an event shows a viewer must be in
that viewer's view before or after the action: an event never tells what the view
keeps back. And a seat's private keys are never in the public view.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.definition import Definition, HidesInformation
from tests.games.conformance.definitions import DEFINITIONS, SECRET
from tests.games.conformance.play import all_legal, players_of, sample_games, sample_states

HIDING = [d for d in DEFINITIONS if isinstance(d, HidesInformation)]


def viewers(definition: Definition, state: Any) -> list[int | None]:
    return [None, *range(players_of(definition, state))]


def view(definition: Definition, state: Any, viewer: int | None) -> dict[str, Any]:
    return definition.public_view(state) if viewer is None else definition.seat_view(state, viewer)


@pytest.mark.parametrize("hiding", HIDING, ids=[d.name for d in HIDING])
def test_a_view_is_the_same_whatever_its_viewer_may_not_know(hiding: HidesInformation[Any]) -> None:
    definition: Definition = hiding  # type: ignore[assignment]
    r = random.Random(11)
    changed = checked = 0
    for state in sample_states(definition, every=1):
        for viewer in viewers(definition, state):
            other = hiding.reshuffle_hidden(state, viewer, r)
            checked += 1
            changed += definition.to_dict(other) != definition.to_dict(state)
            assert view(definition, other, viewer) == view(definition, state, viewer), (
                f"{'the public' if viewer is None else f'seat {viewer}'}'s view depends on something it may not know"
            )
            assert definition.legal_actions(other, viewer) == definition.legal_actions(state, viewer), (
                f"what {viewer} may do depends on something it may not know"
            )
    # Not a vacuous proof: the re-dealt games really differ from the dealt ones.
    assert changed > 0.9 * checked, f"reshuffle_hidden changed only {changed} of {checked} games"


@pytest.mark.parametrize("hiding", HIDING, ids=[d.name for d in HIDING])
def test_a_re_dealt_game_plays_on(hiding: HidesInformation[Any]) -> None:
    # Every action listed in a re-dealt game applies, and the bot plays on from it.
    definition: Definition = hiding  # type: ignore[assignment]
    r = random.Random(12)
    for state in sample_states(definition, every=1):
        game = hiding.reshuffle_hidden(state, r.choice(viewers(definition, state)), r)
        legal = all_legal(definition, game)
        for action in r.sample(legal, min(8, len(legal))):
            definition.apply(game, action)
        for _ in range(4):
            if definition.is_over(game) or definition.at_gate(game):
                break
            action = definition.bot_action(game, r)
            assert action is not None
            game, _ = definition.apply(game, action)


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings(v)


def secrets_in(value: Any) -> set[str]:
    return {s for s in strings(value) if SECRET in s}


def test_an_event_shows_no_secret_its_viewer_s_view_keeps(definition: Definition) -> None:
    shown = 0
    for game in sample_games(definition):
        pairs = [(None, game.start_events, game.start)] + [(s.before, s.events, s.after) for s in game.steps]
        for before, events, after in pairs:
            for viewer in viewers(definition, after):
                known = secrets_in(view(definition, after, viewer))
                if before is not None:
                    known |= secrets_in(view(definition, before, viewer))
                for e in events:
                    seen = e.view(viewer)
                    leaked = secrets_in(seen) - known
                    assert not leaked, f"{e.type} shows {'the public' if viewer is None else f'seat {viewer}'} {leaked}"
                    shown += bool(secrets_in(seen))
    if any(secrets_in(dict(game.setup.options)) for game in sample_games(definition)):
        assert shown, "no event ever showed a secret: the check saw none of the game's secrets"


def test_a_field_kept_secret_is_never_public(definition: Definition) -> None:
    # A field an event type ever keeps for its owners (Event.secret) is never in the data
    # everybody sees of that event type: one secret draw is enough to make every draw secret.
    secret: dict[str, set[str]] = {}
    public: dict[str, set[str]] = {}
    for game in sample_games(definition):
        for e in [*game.start_events, *(e for s in game.steps for e in s.events)]:
            secret.setdefault(e.type, set()).update(e.secret or ())
            if e.to is None:
                public.setdefault(e.type, set()).update(e.data)
    for type_, keys in secret.items():
        assert not keys & public.get(type_, set()), (
            f"{type_} shows everybody {keys & public[type_]}, kept secret elsewhere"
        )


def test_private_keys_are_a_seat_s_own(definition: Definition) -> None:
    private = set(definition.private_keys())
    assert private
    for state in sample_states(definition, every=4):
        public = definition.public_view(state)
        json.dumps(public)
        assert not private & set(public), f"the public view holds private keys {private & set(public)}"
        for seat in range(players_of(definition, state)):
            mine = definition.seat_view(state, seat)
            json.dumps(mine)
            assert private <= set(mine), f"seat {seat}'s view lacks {private - set(mine)}"
