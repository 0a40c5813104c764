"""Royal Heist's simulator plays real games: seeded, finished, replayable, and the
controls whose results follow from the rules."""

import random

import pytest

from games.royal import Phase, replay
from games.royal.party.simulate.play import play_game
from games.royal.party.simulate.stats import WIN_UNIT, SizeStats
from games.royal.party.simulate.strategies import DEFAULT_FIELD, check, strategy


@pytest.mark.parametrize("players", range(3, 9))
def test_games_finish_five_heists_and_replay_from_their_actions(players):
    for seed in range(6):
        g = play_game(seed=seed, players=players, field=DEFAULT_FIELD, record=True)
        assert len(g.decisions) == len(g.caught) == 5
        # a heist is decided at least once (its first room) and at most 21 times
        assert all(1 <= d <= 21 for d in g.decisions)
        assert set(g.strategies) <= set(DEFAULT_FIELD)
        final = replay(seed, players, list(g.actions))
        assert final.phase is Phase.OVER
        assert tuple(final.banks) == g.banks
        assert g.winners == tuple(s for s, b in enumerate(g.banks) if b == max(g.banks))


def test_a_seed_gives_the_same_game_and_another_seed_another():
    a = play_game(seed=11, players=6, field=DEFAULT_FIELD)
    assert play_game(seed=11, players=6, field=DEFAULT_FIELD) == a
    others = {play_game(seed=s, players=6, field=DEFAULT_FIELD) for s in range(12, 20)}
    assert a not in others and len(others) == 8


def test_pressing_on_never_banks_a_jewel():
    # Nobody ever gets out, so every heist ends on a repeated danger and nothing is banked:
    # every bank is 0 and the whole table shares every win.
    stats = SizeStats(5)
    for seed in range(20):
        g = play_game(seed=seed, players=5, seats=["press"] * 5)
        assert g.banks == (0,) * 5 and all(g.caught) and g.winners == tuple(range(5))
        stats.add(g)
    s = stats.summary()
    assert s["caught_share"]["mean"] == 1
    for seat in s["seats"]:
        assert seat["win_share"]["mean"] == pytest.approx(1 / 5) and seat["bank"]["mean"] == 0


def test_pressing_on_against_anybody_who_banks_never_wins_alone():
    for seed in range(20):
        g = play_game(seed=seed, players=4, seats=["press", "T8", "D2", "out"])
        assert g.banks[0] == 0
        assert (0 in g.winners) == (max(g.banks) == 0)


def test_getting_out_at_once_decides_once_a_heist_and_ties_the_table():
    # Everybody leaves after the first room: one decision per heist, the heist ends with
    # everybody out, and every seat banked the same share of the same rooms.
    for seed in range(20):
        g = play_game(seed=seed, players=4, seats=["out"] * 4)
        assert g.decisions == (1,) * 5 and not any(g.caught)
        assert len(set(g.banks)) == 1 and g.winners == (0, 1, 2, 3)


def test_win_shares_of_a_game_add_up_to_one_and_seats_to_the_games():
    stats = SizeStats(7)
    for seed in range(40):
        stats.add(play_game(seed=seed, players=7, field=DEFAULT_FIELD))
    assert sum(t.s for t in stats.seat_win) == 40 * WIN_UNIT
    assert sum(t.s for t in stats.win.values()) == 40 * WIN_UNIT
    assert sum(t.n for t in stats.win.values()) == 40 * 7


def test_statistics_merge_exactly_in_any_split():
    games = [play_game(seed=s, players=3, field=DEFAULT_FIELD) for s in range(30)]
    whole = SizeStats(3).add_all(games)
    parts = SizeStats(3).add_all(games[20:])
    parts.merge(SizeStats(3).add_all(games[:20]))
    assert parts.to_raw() == whole.to_raw()


def test_strategy_names_are_checked_and_resolved():
    r = random.Random(1)
    for name in ("T1", "T30", "D1", "D5", "R0", "R100", "press", "out"):
        assert check(name) == name and callable(strategy(name, r))
    for bad in ("T0", "D0", "D6", "R101", "X3", "T", "greedy"):
        with pytest.raises(ValueError, match="unknown strategy"):
            check(bad)
