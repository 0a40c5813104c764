"""The scaling rule: ceil(n/10) tables, balanced within one seat, 5-10 seats from 11
guests on; random seating, captains and vaults from the party's seed, recorded."""

import math

import pytest

from tables import seating


@pytest.mark.parametrize("n", range(2, 101))
def test_table_count_and_sizes_follow_the_scaling_rule(n):
    sizes = seating.table_sizes(n)
    assert len(sizes) == math.ceil(n / 10)
    assert sum(sizes) == n
    assert max(sizes) - min(sizes) <= 1  # balanced as evenly as possible
    assert max(sizes) <= 10
    if n >= 11:
        assert min(sizes) >= 5  # nobody sits at a tiny overflow table
    else:
        assert sizes == [n]  # 2 to 10 guests: one table, no relay


@pytest.mark.parametrize("n", [1, 0, 101, 150])
def test_party_sizes_outside_2_to_100_are_refused(n):
    with pytest.raises(ValueError):
        seating.table_sizes(n)


def test_plan_seats_everyone_once_with_a_captain_at_each_table_and_equal_vaults():
    guests = list(range(100, 137))  # 37 guests -> 4 tables of 10, 9, 9, 9
    vault = list(range(500, 508))  # 2 per table
    plan = seating.seating_plan(seed=42, guest_ids=guests, vault_ids=vault, vault_size=2)
    assert [t["letter"] for t in plan] == ["A", "B", "C", "D"]
    assert [len(t["guests"]) for t in plan] == [10, 9, 9, 9]
    seated = [g for t in plan for g in t["guests"]]
    assert sorted(seated) == guests
    for t in plan:
        assert t["captain"] in t["guests"]
        assert len(t["vault"]) == 2
    assert sorted(v for t in plan for v in t["vault"]) == vault
    assert len({t["seed"] for t in plan}) == 4  # each table its own game seed


def test_plan_is_replayable_from_the_seed_and_random_across_seeds():
    guests = list(range(30))
    a = seating.seating_plan(seed=7, guest_ids=guests, vault_ids=[], vault_size=0)
    b = seating.seating_plan(seed=7, guest_ids=list(reversed(guests)), vault_ids=[], vault_size=0)
    assert a == b  # the input order does not matter, only the seed
    c = seating.seating_plan(seed=8, guest_ids=guests, vault_ids=[], vault_size=0)
    assert a != c
    assert a[0]["guests"] != sorted(a[0]["guests"])  # really shuffled


def test_seating_is_uniform_enough_over_many_seeds():
    """Each guest lands at table A about as often as the table's share of seats."""
    guests = list(range(20))  # two tables of 10
    at_a = [0] * 20
    runs = 2000
    for seed in range(runs):
        plan = seating.seating_plan(seed=seed, guest_ids=guests, vault_ids=[], vault_size=0)
        for g in plan[0]["guests"]:
            at_a[g] += 1
    for count in at_a:
        assert abs(count / runs - 0.5) < 0.06


def test_vault_gift_count_must_fill_every_table_equally():
    with pytest.raises(ValueError, match="need 4 vault gifts"):
        seating.seating_plan(seed=1, guest_ids=list(range(12)), vault_ids=[1, 2, 3], vault_size=2)
