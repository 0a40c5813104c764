"""The four teams across tables: the host's balanced draw and the party's totals
(docs/RULES.md, "Blinks Heist": "Teams").
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.blinks import BLINKS, MalformedActionError, new_game
from games.blinks.teams import balanced_teams, leaders, team_counts, team_totals, teams_around
from games.definition import Setup
from tests.games.blinks.builders import table, throws


@settings(max_examples=200, deadline=None)
@given(sizes=st.lists(st.integers(2, 8), min_size=1, max_size=14), seed=st.integers())
def test_the_draw_balances_the_party_and_every_table(sizes, seed):
    drawn = balanced_teams(sizes, random.Random(seed))
    assert [len(t) for t in drawn] == sizes
    party = team_counts(t for table_ in drawn for t in table_)
    assert max(party) - min(party) <= 1
    for teams in drawn:
        counts = team_counts(teams)
        assert max(counts) - min(counts) <= 1
    assert drawn == balanced_teams(sizes, random.Random(seed))  # the same generator, the same draw


def test_the_draw_is_the_generator_s():
    draws = {str(balanced_teams([5, 5, 4], random.Random(seed))) for seed in range(30)}
    assert len(draws) > 10
    with pytest.raises(ValueError):
        balanced_teams([3, -1], random.Random(0))


def test_a_table_is_set_up_with_the_host_s_teams():
    g, _ = BLINKS.setup(Setup(players=3, seed=1, options={"teams": [3, 3, 0]}))
    assert g.teams == (3, 3, 0)
    for bad in ([0, 1], [0, 1, 4], [0, 1, True], "012"):
        with pytest.raises(MalformedActionError):
            BLINKS.setup(Setup(players=3, seed=1, options={"teams": bad}))
    # without the host's teams, a lone table's seats take the colours in turn
    assert new_game(1, 6)[0].teams == (0, 1, 2, 3, 0, 1)


def test_team_totals_add_up_across_tables():
    a = table(3, vault=3, teams=[0, 1, 2])
    a, _ = throws(a, 1, None, None, 1, None, None, 1, None, None, 1)  # seat 0 (team 0) claims
    b = table(2, vault=3, teams=[2, 0])
    b, _ = throws(b, 1, 1, 1, 1, 2, 2, 2, 2)  # seat 1 (team 0) claims both
    assert a.claims() == [1, 0, 0] and b.claims() == [0, 2]
    assert BLINKS.team_totals([a, b]) == [3, 0, 0, 0]
    c = table(4, vault=3, teams=[2, 2, 3, 3])
    c, _ = throws(c, 3, 3, 3, 3, 2, 2, 2, 2)  # seat 3 (team 3) and seat 3 again
    assert c.claims() == [0, 0, 0, 2]
    totals = BLINKS.team_totals([a, b, c])
    assert totals == [3, 0, 0, 2] and leaders(totals) == [0]
    assert team_totals([[1, 1]], [[2, 3]]) == [0, 0, 1, 1] and leaders([0, 0, 1, 1]) == [2, 3]
    assert leaders([0, 0, 0, 0]) == []


def test_the_definition_draws_for_the_host():
    drawn = BLINKS.draw_teams([4, 3], random.Random(2))
    assert sorted(drawn[0]) == [0, 1, 2, 3] and len(set(drawn[1])) == 3


@settings(max_examples=200, deadline=None)
@given(
    fixed=st.lists(st.lists(st.one_of(st.none(), st.integers(0, 3)), min_size=2, max_size=8), min_size=1, max_size=13),
    seed=st.integers(),
)
def test_hand_set_teams_are_kept_and_the_drawn_seats_even_the_party_out(fixed, seed):
    drawn = teams_around(fixed, random.Random(seed))
    assert [len(t) for t in drawn] == [len(t) for t in fixed]
    for set_, got in zip(fixed, drawn, strict=True):
        assert all(s is None or s == g for s, g in zip(set_, got, strict=True))  # the host's choices stand
    hand = team_counts(t for table_ in fixed for t in table_ if t is not None)
    party = team_counts(t for table_ in drawn for t in table_)
    free = sum(t is None for table_ in fixed for t in table_)
    # every drawn seat went to a team no bigger than the rest allowed: the teams the
    # host over-filled keep only their hand-set members, the others differ by one at most
    level = [n for n, h in zip(party, hand, strict=True) if n > h] if free else []
    if level:
        assert max(level) - min(party) <= 1
        assert all(n == h for n, h in zip(party, hand, strict=True) if n > max(level))
    assert drawn == teams_around(fixed, random.Random(seed))  # the same generator, the same draw


def test_a_few_hand_set_teams_and_the_rest_drawn_balanced_at_every_table():
    # 3 tables of 6, 5, 5: Ann and Bea red at table A, Cy blue at table C, the rest drawn
    fixed = [[0, 0, None, None, None, None], [None] * 5, [None, None, 1, None, None]]
    for seed in range(40):
        drawn = teams_around(fixed, random.Random(seed))
        assert drawn[0][:2] == [0, 0] and drawn[2][2] == 1
        party = team_counts(t for table_ in drawn for t in table_)
        assert sorted(party) == [4, 4, 4, 4]
        for teams in drawn:
            counts = team_counts(teams)
            assert max(counts) - min(counts) <= 1, drawn
    # nobody set by hand: the draw is the balanced one, seat for seat
    assert teams_around([[None] * 5, [None] * 4], random.Random(7)) == balanced_teams([5, 4], random.Random(7))
    for bad in ([[0, 4]], [[0, True]], [[0, "red"]], [[-1]]):
        with pytest.raises(ValueError):
            teams_around(bad, random.Random(0))


def test_the_seating_s_table_options_keep_the_host_s_teams():
    chosen = {"vault": 5, "alternate": False}
    out = BLINKS.table_options(chosen, [3, 2], random.Random(1), groups=[[3, None, None], [None, 3]])
    assert [o["teams"][0] for o in out][:1] == [3] and out[1]["teams"][1] == 3
    assert all(o["vault"] == 5 for o in out)
    assert BLINKS.table_options(chosen, [3, 2], random.Random(1), groups=[[None] * 3, [None] * 2]) == (
        BLINKS.table_options(chosen, [3, 2], random.Random(1))
    )
    with pytest.raises(ValueError):
        BLINKS.table_options(chosen, [3, 2], random.Random(1), groups=[[None] * 3])
