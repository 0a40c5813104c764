"""The stand-in buttons the host's screens draw (static/heist/standin.js) from a table's
`step` (tables/selectors.py step_for_screens, issue 38): for every game, over states of
played games, the clock's stand-in sent with each waiting seat's own `seat` is an action
the definition parses and lists for the captain (legal_actions(state, None)), so the host
needs no game's step names to build it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from games.definition import Definition
from tables.selectors import step_for_screens
from tests.games.conformance.play import sample_states


def test_each_waiting_seats_stand_in_is_a_listed_duty(definition: Definition) -> None:
    table: Any = SimpleNamespace(definition=definition)
    built = 0
    for state in sample_states(definition, every=2):
        step = step_for_screens(table, state)
        clock = definition.clock(state, {})
        if clock is None:
            assert step is None
            continue
        assert step is not None and step["name"] == clock.step and step["waiting"] == list(clock.waiting)
        if "seat" not in step["stand_in"]:
            continue  # a duty, not a seat's step (a reveal): the screens draw no stand-in for it
        duties = definition.legal_actions(state, None)
        for seat in step["waiting"]:
            action = definition.parse_action({**step["stand_in"], "seat": seat})
            assert action in duties, (clock.step, seat)
            built += 1
    assert built, "no state had a seat's step to stand in for"
