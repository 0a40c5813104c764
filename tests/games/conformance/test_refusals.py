"""Every refusal is typed, changes nothing, and `legal_actions` says exactly what is accepted.

For anything a screen could send (random JSON, a listed action with a field changed,
an action that was legal in another state of the game):

- `parse_action` either builds an action or raises an `IllegalActionError` subclass
  (games/errors.py) whose `rule` names the rule; nothing else escapes it;
- `apply` of a parsed action either accepts it or raises such an error, and then the
  game it was given is unchanged (`to_dict` before and after);
- it accepts it exactly when `legal_actions` lists it (a SERVER action bringing
  something from outside the table, the relay's gift, is not listable: only typed;
  nor is every word a player may type: play.py `accepted_unlisted`).
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.definition import Definition, Role
from games.errors import IllegalActionError
from tests.games.conformance.play import accepted_unlisted, all_legal, sample_games, sample_states

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

_legal_cache: dict[tuple[str, int], tuple[Any, list[Any]]] = {}


def legal_now(definition: Definition, state: Any) -> list[Any]:
    key = (definition.name, id(state))
    cached = _legal_cache.get(key)
    if cached is None or cached[0] is not state:
        cached = _legal_cache[key] = (state, all_legal(definition, state))
    return cached[1]


def assert_typed(error: IllegalActionError) -> None:
    assert isinstance(error.rule, str) and error.rule, f"{type(error).__name__} names no rule"
    assert error.message


def check(definition: Definition, state: Any, action: Any) -> bool:
    """Apply `action` to `state`: accepted exactly when listed, refused typed and harmless."""
    before = definition.to_dict(state)
    listed = action in legal_now(definition, state) or accepted_unlisted(definition, state, action)
    try:
        definition.apply(state, action)
    except IllegalActionError as error:
        assert_typed(error)
        assert definition.to_dict(state) == before, f"the refused {action} changed the game"
        assert not listed, f"legal_actions lists {action}, which apply refuses: {error}"
        return False
    assert listed or definition.role_of(action) is Role.SERVER, f"apply accepts {action}, which no list holds"
    assert definition.to_dict(state) == before, f"{action} changed the game it was applied to"
    return True


def parse(definition: Definition, data: Any) -> Any | None:
    try:
        return definition.parse_action(data)
    except IllegalActionError as error:
        assert_typed(error)
        return None


def vocabulary(definition: Definition) -> tuple[list[str], list[str]]:
    """The action types and field names the game's own actions use."""
    types, keys = set(), set()
    for game in sample_games(definition):
        for step in game.steps:
            d = definition.action_to_dict(step.action)
            types.add(str(d.get("type")))
            keys |= set(d)
    return sorted(types), sorted(keys)


def shapes(definition: Definition) -> dict[str, dict[str, list[Any]]]:
    """Each action type's fields and the values the game's own actions gave them: a
    well-shaped action with values from another moment reaches `apply` even in a game
    whose every action has fields."""
    out: dict[str, dict[str, list[Any]]] = {}
    for game in sample_games(definition):
        for step in game.steps:
            d = definition.action_to_dict(step.action)
            fields = out.setdefault(str(d.get("type")), {})
            for key, value in d.items():
                if key != "type" and value not in fields.setdefault(key, []):
                    fields[key].append(value)
    return out


def values(types: list[str]) -> st.SearchStrategy[Any]:
    leaf = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-3, 60),
        st.integers(),
        st.floats(allow_nan=False),
        st.text(max_size=6),
        st.sampled_from(types),
    )
    return st.recursive(
        leaf,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
        max_leaves=8,
    )


def test_random_json_is_parsed_or_refused_typed(definition: Definition) -> None:
    types, keys = vocabulary(definition)
    states = sample_states(definition, every=3)
    field = st.sampled_from(keys) | st.text(max_size=8)
    shaped = shapes(definition)
    junk = st.one_of(
        st.sampled_from(sorted(shaped)).flatmap(
            lambda kind: st.fixed_dictionaries(
                {"type": st.just(kind), **{k: st.sampled_from(v) | values(types) for k, v in shaped[kind].items()}}
            )
        ),
        st.fixed_dictionaries(
            {"type": st.sampled_from(types)}, optional={k: values(types) for k in keys if k != "type"}
        ),
        st.dictionaries(field, values(types), max_size=5),
        values(types),
    )
    parsed = []

    @SETTINGS
    @given(data=junk, index=st.integers(0, len(states) - 1))
    def run(data: Any, index: int) -> None:
        action = parse(definition, data)
        if action is not None:
            parsed.append(action)
            check(definition, states[index], action)

    run()
    assert parsed, "no random JSON ever parsed: the check never reached apply"


def mutants(definition: Definition, action: Any, r: random.Random) -> list[Any]:
    """The action's wire form with one thing changed: a field's value, a field gone, one more."""
    d = definition.action_to_dict(action)
    out: list[Any] = []
    for key, value in d.items():
        if key == "type":
            continue
        if isinstance(value, bool) or value is None:
            out.append({**d, key: r.randint(-1, 12)})
        elif isinstance(value, int):
            out += [{**d, key: value + r.choice((-1, 1))}, {**d, key: r.randint(-2, 60)}, {**d, key: str(value)}]
        elif isinstance(value, list):
            out.append({**d, key: value[:-1]})
            out.append({**d, key: [*value, r.randint(0, 60)]})
            if value:
                out.append({**d, key: [value[0], *value]})
                out.append({**d, key: list(reversed(value))})
        elif isinstance(value, dict):
            out.append({**d, key: {k: v for k, v in value.items() if k != r.choice(list(value))}})
        else:
            out.append({**d, key: r.randint(0, 3)})
        out.append({k: v for k, v in d.items() if k != key})
    out.append({**d, "surprise": 1})
    return out


def test_changed_actions_are_accepted_exactly_when_listed(definition: Definition) -> None:
    """Each listed action is accepted, and each change of it accepted exactly when the
    change is listed too. A game where one seat moves at a time lists few actions and
    accepts few changes (another seat's number is refused): the listed ones count as
    accepted, so the test asks of every shape of game only that both answers were seen."""
    r = random.Random(21)
    accepted = refused = 0
    for state in sample_states(definition, every=2):
        legal = legal_now(definition, state)
        for action in r.sample(legal, min(6, len(legal))):
            assert check(definition, state, action)
            accepted += 1
            for data in mutants(definition, action, r):
                changed = parse(definition, json.loads(json.dumps(data)))
                if changed is not None:
                    if check(definition, state, changed):
                        accepted += 1
                    else:
                        refused += 1
    assert refused and accepted, f"refused {refused}, accepted {accepted}: the test never saw both answers"


def test_actions_of_other_moments_are_accepted_exactly_when_listed(definition: Definition) -> None:
    r = random.Random(22)
    for game in sample_games(definition):
        states = game.states()
        for step in game.steps:
            for state in r.sample(states, min(4, len(states))):
                check(definition, state, step.action)
