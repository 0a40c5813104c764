"""What the host reads of a game agrees with itself.

- the definition's facts: a name the registry could key on, table sizes the party can
  seat, clocked steps with their seconds, JSON rules for the screens;
- setup refuses a table size outside [min_players, max_players] with a typed error, and
  more games in a row than the game offers a party (Features.max_games);
- who the game waits for is exactly who has a legal action; every seat action names
  its seat and is a SEAT action, every other listed action a DUTY or SERVER one; a
  game neither over nor at its gate always has something legal to do;
- the step clock: a clocked step's waiting seats are the game's, its stand-in is one of
  the actions listed and applies; no clock at the gate or the end;
- standings: one per seat, ranks that follow the scores, winners ranked first;
- the party's features are parts the game has: gifts (`HoldsGifts`: a gift in front of
  every seat, each labelled apart) and the relay (`RelaysGifts`: the gate's draw is the
  relay draw, and names a seat).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from games.definition import Clock, Definition, Features, HoldsGifts, RelaysGifts, Role, Setup
from games.errors import IllegalActionError
from games.registry import GAMES
from tests.games.conformance.definitions import example_setup
from tests.games.conformance.play import all_legal, players_of, sample_games, sample_states


def test_the_definition_s_facts(definition: Definition) -> None:
    assert definition.name and definition.name == definition.name.strip().lower()
    assert GAMES.get(definition.name, definition) is definition
    assert definition.title
    assert 1 <= definition.min_players <= definition.max_players
    assert definition.min_players <= definition.table_max <= definition.max_players
    assert isinstance(definition.features, Features)
    assert 1 <= definition.features.games <= definition.features.max_games
    steps = definition.clock_steps()
    assert steps and all(seconds > 0 for seconds in steps.values())
    json.dumps(definition.rules_for_screens())


def test_setup_refuses_a_table_it_cannot_seat(definition: Definition) -> None:
    for players in (definition.min_players - 1, definition.max_players + 1):
        with pytest.raises(IllegalActionError) as refused:
            definition.setup(Setup(players=players, seed=1))
        assert refused.value.rule


def test_setup_plays_as_many_games_as_it_offers_and_refuses_more(definition: Definition) -> None:
    """A party's table plays 1 to Features.max_games games in a row; more is refused."""
    base = example_setup(definition, definition.min_players, seed=3, gate=False)
    for games in range(1, definition.features.max_games + 1):
        definition.setup(dataclasses.replace(base, games=games))
    with pytest.raises(IllegalActionError) as refused:
        definition.setup(dataclasses.replace(base, games=definition.features.max_games + 1))
    assert refused.value.rule


def test_setup_seats_every_size_it_claims(definition: Definition) -> None:
    for players in range(definition.min_players, definition.max_players + 1):
        state, _ = definition.setup(Setup(players=players, seed="a seed"))
        assert players_of(definition, state) == players


def test_who_acts(definition: Definition) -> None:
    for state in sample_states(definition, every=1):
        n = players_of(definition, state)
        can_act = set()
        for seat in range(n):
            for action in definition.legal_actions(state, seat):
                assert definition.role_of(action) is Role.SEAT, f"{action} listed for seat {seat}"
                assert definition.seat_of(action) == seat
                can_act.add(seat)
        assert can_act == set(definition.waiting_for(state))
        for action in definition.legal_actions(state, None):
            assert definition.role_of(action) in (Role.DUTY, Role.SERVER), f"{action} listed as a duty"
        if not definition.is_over(state) and not definition.at_gate(state):
            assert all_legal(definition, state), "the game waits, yet nothing is legal"


def test_the_step_clock(definition: Definition) -> None:
    steps = definition.clock_steps()
    clocked = set()
    for state in sample_states(definition, every=1):
        clock = definition.clock(state, steps)
        if definition.is_over(state) or definition.at_gate(state):
            assert clock is None, "a clock at the gate or the end"
            continue
        if clock is None:
            continue
        assert isinstance(clock, Clock)
        assert clock.step in steps and clock.seconds == steps[clock.step]
        assert clock.waiting == definition.waiting_for(state)
        clocked.add(clock.step)
        assert clock.stand_in in all_legal(definition, state), f"the stand-in {clock.stand_in} is not legal"
        if clock.waiting and definition.seat_of(clock.stand_in) is not None:
            assert definition.seat_of(clock.stand_in) == clock.waiting[0]
        definition.apply(state, clock.stand_in)
    assert clocked == set(steps), f"steps never clocked in play: {set(steps) - clocked}"


def test_standings(definition: Definition) -> None:
    for game in sample_games(definition):
        for state in (game.start, game.final):
            table: list[Any] = definition.standings(state)
            assert [s.seat for s in table] == list(range(players_of(definition, state)))
            for s in table:
                assert s.rank == 1 + sum(1 for t in table if t.score > s.score)
                assert not s.winner or s.rank == 1


def test_the_features_are_parts_the_game_has(definition: Definition) -> None:
    features = definition.features
    assert isinstance(definition, HoldsGifts) == features.gifts
    assert isinstance(definition, RelaysGifts) == features.relay
    assert not (features.vaults or features.relay) or features.gifts, "a vault or a relay moves gifts"
    if isinstance(definition, HoldsGifts):
        for game in sample_games(definition):
            for state in (game.start, game.final):
                seats = list(definition.seat_gifts(state))
                assert len(seats) == players_of(definition, state)
                held = seats + list(definition.vault_gifts(state))
                labels = [definition.gift_label(gift) for gift in held]
                assert len(set(held)) == len(held) and len(set(labels)) == len(labels), labels
                assert all(definition.gift_description(state, gift) for gift in held)
        vault_ids = [definition.vault_gift_id(number) for number in (1, 2, 3)]
        assert len({*vault_ids, *range(1, definition.max_players + 1)}) == 3 + definition.max_players
    if isinstance(definition, RelaysGifts):
        gated = [s for s in sample_states(definition, every=1) if definition.at_gate(s)]
        assert gated, "no sample game reached the gate"
        for state in gated:
            draw = definition.gate_opened(state)
            if draw is None:  # drawn already: the table waits for the relay's gift
                assert definition.relay_seat(state) is not None
                continue
            assert definition.relay_seat(state) is None and definition.draws_relay_seat(draw)
            drawn, _ = definition.apply(state, draw)
            assert definition.relay_seat(drawn) in range(players_of(definition, state))
