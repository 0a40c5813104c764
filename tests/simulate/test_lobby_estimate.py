"""The host's lobby shows the simulator's party length for the guests so far."""

import pytest

from events.party.selectors import party_for_host
from games.royal.party.simulate.lobby import MINUTES_BY_GAMES
from games.yankee.party.simulate.lobby import party_length_estimate
from games.yankee.party.simulate.lobby_estimates import MINUTES
from games.yankee.party.simulate.runner import estimate_table
from tests import shorthand


@pytest.mark.django_db
def test_the_host_payload_carries_the_estimate_for_the_guests_so_far():
    party, _ = shorthand.party_create(name="Estimate")
    shorthand.guest_join(code=party.code, name="Ann", description="a book")
    assert party_for_host(party)["estimate"] is None  # one guest cannot play
    for i in range(11):
        shorthand.guest_join(code=party.code, name=f"Guest {i}", description="socks")
    est = party_for_host(party)["estimate"]
    assert est == {"guests": 12, "tables": 2, "low": MINUTES[12][0], "high": MINUTES[12][1]}


@pytest.mark.django_db
def test_a_royal_party_s_lobby_estimates_its_games_in_a_row():
    for games in (3, 1):
        party, _ = shorthand.party_create(name="Royal estimate", game="royal", games=games)
        for i in range(12):
            shorthand.guest_join(code=party.code, name=f"Guest {i}", description="")
        minutes = MINUTES_BY_GAMES[games][12]
        est = party_for_host(party)["estimate"]
        assert est == {"guests": 12, "tables": 2, "games": games, "low": minutes[0], "high": minutes[1]}


def test_the_table_covers_every_party_size_and_grows_sensibly():
    assert sorted(MINUTES) == list(range(2, 101))
    for _n, (low, high) in MINUTES.items():
        assert 0 < low <= high
    assert party_length_estimate(guests=10)["tables"] == 1
    assert party_length_estimate(guests=100)["tables"] == 10
    # more guests at one table take longer; a second table brings it down again
    assert MINUTES[10][0] > MINUTES[3][1]
    assert MINUTES[11][1] < MINUTES[10][1]


def test_the_precomputed_table_matches_a_fresh_simulation_of_the_model():
    fresh = estimate_table(seed=99, guests=[6, 23], parties=40, workers=1)
    for n, d in fresh.items():
        low, high = MINUTES[n]
        assert low <= d["p50"] <= high, (n, d, MINUTES[n])
