"""The host's two rules of a step, read from the definition, hold for every shape of game.

A step is what the game waits on now (its `clock`): one seat's turn, a reaction window
several seats answer, a room everybody inside decides on at once. Two host rules rest
on the definition's word of when a step began (`Clock.since`, games/definition.py):

- stale checks (`is_stale`, for every action the game checks: all of them unless it
  says otherwise, `ChecksSeen`): an action a screen took on the step before never lands
  on the next one: a seat that stopped being waited for (it acted) and is waited for again
  does not have the old screen's tap applied (Royal Heist's double tap: a second
  "press on" stored for the next room, one the guest had not seen); yet two seats
  answering the same step at once both count, whatever the other did first;
- clocks (`starts_step`): every seat the game waits for gets the step's whole clock,
  counted from when it began to wait (a one-mover game's second player got 10 s of a
  60 s clock when the host knew only the first two games' event names).

The oracle is the game's own `waiting_for`, not the declaration under test: a seat's
wait is the run of states it is waited for in without a gap.
"""

from __future__ import annotations

from typing import Any

from games.definition import Definition, Role, checks_seen, is_stale, starts_step
from tests.games.conformance.play import Game, sample_games

LOOK_AHEAD = 40  # states after a screen's: a late tap lands within a few actions


def seat_actions(definition: Definition, state: Any) -> list[tuple[int, Any]]:
    """Every seat's own listed actions in `state`, with the seat."""
    return [
        (seat, action)
        for seat in definition.waiting_for(state)
        for action in definition.legal_actions(state, seat)
        if definition.role_of(action) is Role.SEAT
    ]


def accepted(definition: Definition, state: Any, action: Any) -> bool:
    return action in definition.legal_actions(state, definition.seat_of(action))


def test_a_tap_from_the_step_before_never_lands_on_the_next(definition: Definition) -> None:
    """A seat's action, seen on one screen, sent late, and still legal by the rules when
    it lands: applied only if the seat has been waited for without a gap since."""
    for game in sample_games(definition):
        states = game.states()
        waits = [set(definition.waiting_for(state)) for state in states]
        legal: dict[tuple[int, int], list[Any]] = {}
        for i, seen in enumerate(states):
            version = definition.version(seen)
            for seat, action in seat_actions(definition, seen):
                if not checks_seen(definition, action):
                    continue  # it names its own moment (the game's word): the rules judge it
                gap = next((j for j in range(i + 1, len(states)) if seat not in waits[j]), None)
                if gap is None:
                    continue
                for j in range(gap + 1, min(len(states), gap + 1 + LOOK_AHEAD)):
                    if seat not in waits[j]:
                        continue
                    if (j, seat) not in legal:
                        legal[j, seat] = definition.legal_actions(states[j], seat)
                    if action in legal[j, seat]:
                        assert is_stale(definition, states[j], action, version), (
                            f"{definition.name}: seat {seat}'s {definition.action_to_dict(action)} seen at "
                            f"version {version} would land at version {definition.version(states[j])}, after "
                            "its wait ended and began again: on a step the guest never saw"
                        )


def test_two_seats_answering_one_step_both_count(definition: Definition) -> None:
    """A seat still waited for after another seat's answer to the same step (the wait
    only narrowed) may send the action its screen showed before that answer."""
    narrowed = 0
    for game in sample_games(definition):
        for step in game.steps:
            before, after = step.before, step.after
            if definition.role_of(step.action) is not Role.SEAT:
                continue
            still = set(definition.waiting_for(after))
            if not still or not still < set(definition.waiting_for(before)):
                continue
            for seat, action in seat_actions(definition, before):
                if seat in still and seat != definition.seat_of(step.action) and accepted(definition, after, action):
                    narrowed += 1
                    assert not is_stale(definition, after, action, definition.version(before)), (
                        f"{definition.name}: seat {seat}'s {definition.action_to_dict(action)}, taken while "
                        f"seat {definition.seat_of(step.action)} answered the same step, refused as stale"
                    )
    if len({len(definition.waiting_for(s)) for g in sample_games(definition) for s in g.states()} - {0}) > 1:
        assert narrowed, f"{definition.name} waits on several seats at once, yet no step ever narrowed"


def deadlines(definition: Definition, game: Game, seconds: float) -> list[float | None]:
    """The host's step deadline at each state of `game`, one action a second: afresh when
    a step starts (or the clock had stopped), kept while the same step goes on."""
    out: list[float | None] = []
    due: float | None = None
    for t, state in enumerate(game.states()):
        if definition.clock(state, {}) is None:
            due = None
        elif due is None or (t > 0 and starts_step(definition, state)):
            due = t + seconds
        out.append(due)
    return out


def test_every_seat_waited_for_gets_the_whole_clock(definition: Definition) -> None:
    """Whoever the game waits for has at least the step's whole clock from when they
    began to wait: a new step for them is a new clock."""
    seconds = 1000.0  # far longer than a game: no clock runs out here
    checked = 0
    for game in sample_games(definition):
        states = game.states()
        due = deadlines(definition, game, seconds)
        waited_since: dict[int, int] = {}
        for t, state in enumerate(states):
            clock = definition.clock(state, {})
            waiting = set(clock.waiting) if clock else set()
            waited_since = {s: waited_since.get(s, t) for s in waiting}
            for seat, since in waited_since.items():
                checked += 1
                assert due[t] is not None and due[t] >= since + seconds, (
                    f"{definition.name}: seat {seat}, waited for since action {since}, has until "
                    f"{due[t]} at action {t}: less than the step's whole clock"
                )
    assert checked
