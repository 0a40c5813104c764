"""Word Heist's simulator (games/word/party/simulate/): its bots play the real engine by
policy (a simulated game replays from its seed and actions), its figures follow the
policy, its party clock waits for the slowest table and stops at every step's clock,
and the lobby reads its precomputed table (issue 39)."""

from __future__ import annotations

import random

import pytest

from games.definition import Setup
from games.registry import game_named
from games.word.definition import STEP_SECONDS
from games.word.party.simulate.lobby import word_party_length_estimate
from games.word.party.simulate.lobby_estimates import MINUTES, TABLE_MAX
from games.word.party.simulate.pacing import WordPacing, party_minutes, round_seconds
from games.word.party.simulate.play import Policy, TableGame, play_table
from tables.seating import table_count
from tables.simulate.estimates import lobby_estimate
from tables.simulate.hook import Run, simulator_of

WORD = game_named("word")


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_simulated_game_is_the_engines_and_replays_from_its_seed_and_actions(players):
    game = play_table(WORD, players, seed=players * 11, policy=Policy(), r=random.Random(players))
    replayed = WORD.replay(
        Setup(players=players, seed=players * 11, gate=False, options={"language": "en"}), game.actions
    )
    assert WORD.is_over(replayed) and list(replayed.scores) == game.scores
    assert game.answers["word"] == [players] * 3  # nobody quiet: every seat answered every round
    assert game.stand_ins == 0 and len(game.word_letters) <= 3 * players


def test_the_policy_decides_the_halts_and_the_quiet_seats():
    never = [play_table(WORD, 5, seed=s, policy=Policy(halt_rate=0.0), r=random.Random(s)) for s in range(6)]
    always = [play_table(WORD, 5, seed=s, policy=Policy(halt_rate=1.0), r=random.Random(s)) for s in range(6)]
    assert sum(g.halts_made for g in never) == 0 and sum(g.halts_caught for g in never) == 0
    assert sum(g.halts_made for g in always) > 0
    quiet = play_table(WORD, 4, seed=3, policy=Policy(quiet=0.5), r=random.Random(3))
    assert quiet.stand_ins > 0 and min(min(v) for v in quiet.answers.values()) < 4
    with pytest.raises(ValueError):
        Policy(max_tokens=6)


def _game(players: int, answered: int) -> TableGame:
    steps = ("word", "clues", "halt", "vote")
    return TableGame(players=players, scores=[0] * players, winners=[0], answers={s: [answered] * 3 for s in steps})


def test_a_step_lasts_until_its_slowest_seat_never_past_its_clock_and_a_quiet_seat_costs_the_clock():
    model = WordPacing(word=1000.0, clues=0.0, halt=0.0, vote=0.0, reveal=0.0, round_end=0.0, cv=0.0)
    # a word step of 1000 s medians is cut at its clock; the other steps take nothing
    assert round_seconds(_game(3, 3), 0, model, STEP_SECONDS, random.Random(1)) == STEP_SECONDS["word"]
    fast = WordPacing(word=1.0, clues=1.0, halt=1.0, vote=1.0, reveal=0.0, round_end=0.0, cv=0.0)
    assert round_seconds(_game(3, 3), 0, fast, STEP_SECONDS, random.Random(1)) == pytest.approx(4.0)
    # one seat quiet at every step: each step waits for its whole clock
    assert round_seconds(_game(3, 2), 0, fast, STEP_SECONDS, random.Random(1)) == sum(STEP_SECONDS.values())


def test_a_party_waits_for_its_slowest_table_at_the_gate_and_the_end():
    fast = WordPacing(word=1.0, clues=1.0, halt=1.0, vote=1.0, reveal=0.0, round_end=0.0, gate=30.0, setup=0.0, cv=0.0)
    by_size = {2: [_game(2, 2)], 3: [_game(3, 2)]}  # every 3-seat table has a quiet seat
    one = party_minutes(3, by_size, fast, STEP_SECONDS, random.Random(1), table_max=6, gate_after=1)
    assert one == pytest.approx(3 * sum(STEP_SECONDS.values()) / 60)  # one table: no gate
    # 5 guests at tables of at most 3: 3 + 2, the slow table sets both halves, the gate between
    two = party_minutes(5, by_size, fast, STEP_SECONDS, random.Random(1), table_max=3, gate_after=1)
    assert two == pytest.approx((3 * sum(STEP_SECONDS.values()) + 30) / 60)


def test_the_lobby_reads_the_precomputed_table_at_the_definitions_table_size():
    assert WORD.table_max == TABLE_MAX and set(MINUTES) == set(range(2, 101))
    assert all(low <= high for low, high in MINUTES.values())
    est = lobby_estimate(game="word", games=1, guests=100)
    assert est == word_party_length_estimate(guests=100, games=1)
    assert est is not None and est["tables"] == table_count(100, WORD.table_max) == 17
    assert (est["low"], est["high"]) == MINUTES[100]
    assert lobby_estimate(game="word", games=1, guests=1) is None
    assert lobby_estimate(game="word", games=2, guests=20) is None  # a table plays one game


def test_the_hook_reports_each_table_size_and_each_largest_table():
    sim = simulator_of("word")
    assert sim is not None
    report = sim.simulate(
        Run(seed=1, workers=1, games=4, players="2-6", parties=5, guests="11,30", chunk=2, progress=None),
        {"halt_rate": 1.0},
    )
    assert set(report["sizes"]) == {"2", "3", "4", "5", "6"} and report["policy"]["halt_rate"] == 1.0
    assert report["sizes"]["6"]["games"] == 4 and report["sizes"]["6"]["halts_made_per_seat_round"] > 0
    assert set(report["parties_by_cap"]) == {"4", "5", "6"}
    (eleven, thirty) = report["parties_by_cap"]["6"]
    assert (eleven["tables"], thirty["tables"]) == (2, 5)
    assert "Word Heist" in sim.summary(report)
    with pytest.raises(ValueError):
        sim.simulate(Run(1, 1, 2, "2", 1, "", 1, None), {"language": "fr"})
