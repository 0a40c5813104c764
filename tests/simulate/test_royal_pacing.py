"""Royal Heist's party clock and the lobby's estimate."""

import random

import pytest

from games.royal import ROYAL
from games.royal.party.simulate.lobby import MINUTES_BY_GAMES, royal_party_length_estimate
from games.royal.party.simulate.lobby_estimates import GAMES, MINUTES
from games.royal.party.simulate.pacing import (
    HALF_HEISTS,
    RoyalPacing,
    half_seconds,
    party_seconds,
    recommend_games,
    table_sizes,
)
from games.royal.party.simulate.runner import estimate_table, play_sizes
from games.royal.party.simulate.strategies import DEFAULT_FIELD
from games.yankee.party.simulate.lobby import party_length_estimate
from tables.simulate.estimates import lobby_estimate


def test_tables_are_ceil_n_over_8_balanced_and_5_to_8_from_17_guests():
    for n in range(3, 101):
        sizes = table_sizes(n)
        assert len(sizes) == -(-n // 8) and sum(sizes) == n
        assert max(sizes) - min(sizes) <= 1 and max(sizes) <= 8
        if n >= 17:
            assert min(sizes) >= 5
    assert table_sizes(9) == [5, 4]
    for bad in (2, 101):
        with pytest.raises(ValueError):
            table_sizes(bad)


def test_a_half_costs_its_rounds_and_heist_ends():
    m = RoyalPacing(think=7, reveal=3, heist_end=5, cv=0.5)
    mean, var = half_seconds(12, 2, m)
    assert mean == 12 * 10 + 2 * 5
    assert var == pytest.approx(12 * 5**2 + 2 * 2.5**2)


def test_a_party_without_spread_is_setup_plus_each_game_at_its_slowest_table():
    m = RoyalPacing(think=8, reveal=2, heist_end=6, game_start=40, gate=30, setup=100, cv=0)
    samples = {5: [(10, 20)], 4: [(14, 12)]}
    r = random.Random(1)
    one = party_seconds([5], 3, samples, m, r)
    assert one == 100 + 3 * (40 + 10 * 10 + 2 * 6 + 20 * 10 + 3 * 6)
    two = party_seconds([5, 4], 2, samples, m, r)  # the slower table in each half, the gate
    assert HALF_HEISTS == (2, 3)
    assert two == 100 + 2 * (40 + 14 * 10 + 2 * 6 + 20 * 10 + 3 * 6 + 30)


def test_the_recommendation_is_the_most_games_inside_the_target_everywhere():
    rows = [
        {"games": 2, "p90": 30.0},
        {"games": 2, "p90": 33.0},
        {"games": 3, "p90": 44.0},
        {"games": 3, "p90": 45.5},
        {"games": 4, "p90": 50.0},
    ]
    assert recommend_games(rows) == 2
    assert recommend_games([{"games": 3, "p90": 40.0}, {"games": 4, "p90": 44.9}]) == 4
    assert recommend_games([{"games": 1, "p90": 60.0}]) == 1


def test_pacing_parameters_are_validated():
    assert RoyalPacing.from_dict({"think": 5}).think == 5.0
    with pytest.raises(ValueError, match="unknown"):
        RoyalPacing.from_dict({"turn": 5})
    with pytest.raises(ValueError, match="non-negative"):
        RoyalPacing.from_dict({"gate": -1})


def test_the_lobby_estimate_covers_every_party_and_grows_with_tables():
    assert sorted(MINUTES) == list(range(3, 101)) and GAMES >= 1
    assert royal_party_length_estimate(guests=2) is None
    est = royal_party_length_estimate(guests=20)
    assert est == {"guests": 20, "tables": 3, "games": GAMES, "low": MINUTES[20][0], "high": MINUTES[20][1]}
    assert royal_party_length_estimate(guests=150)["guests"] == 100
    for low, high in MINUTES.values():
        assert 0 < low <= high
    # several tables wait for the slowest and at the gate: longer than one table of 8
    assert MINUTES[100][0] > MINUTES[8][0]


def test_the_lobby_has_an_estimate_for_every_choice_of_games_in_a_row_and_more_take_longer():
    assert sorted(MINUTES_BY_GAMES) == list(range(1, ROYAL.features.max_games + 1))
    assert MINUTES_BY_GAMES[GAMES] is MINUTES and ROYAL.features.games == GAMES
    for n in (3, 8, 20, 50, 100):
        lows = [MINUTES_BY_GAMES[g][n][0] for g in sorted(MINUTES_BY_GAMES)]
        assert lows == sorted(lows) and lows[0] < lows[-1], (n, lows)
    assert royal_party_length_estimate(guests=40, games=1)["games"] == 1
    assert royal_party_length_estimate(guests=40, games=5) is None
    # the party host asks by game: Yankee Heist's table, Royal Heist's by games in a row
    assert lobby_estimate(game="royal", games=2, guests=40) == royal_party_length_estimate(guests=40, games=2)
    assert lobby_estimate(game="yankee", games=1, guests=40) == party_length_estimate(guests=40)
    assert lobby_estimate(game="yankee", games=2, guests=40) is None


def test_the_precomputed_table_matches_a_fresh_simulation():
    per_size = play_sizes(
        seed=99, games=60, players=range(3, 9), field=DEFAULT_FIELD, workers=1, chunk=60, progress=None
    )
    fresh = estimate_table(per_size, seed=99, games=GAMES, count=40, model=RoyalPacing(), guests=[8, 40])
    for n, d in fresh.items():
        low, high = MINUTES[n]
        assert low - 2 <= d["p50"] <= high + 2, (n, d, MINUTES[n])
