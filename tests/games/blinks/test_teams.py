"""The four teams across tables: the host's balanced draw and the party's totals
(docs/RULES.md, "Blinks Heist": "Teams").
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.blinks import BLINKS, MalformedActionError, new_game
from games.blinks.teams import balanced_teams, leaders, team_counts, team_totals
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
