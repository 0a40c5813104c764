"""Blinks Heist's simulator through `manage.py simulate --game blinks`: the throw success
rates are its parameters, a table that hits more empties a vault in fewer throws, and
the report says which vault sizes fit a party's 30-45 minutes."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from games.blinks import HEALTH


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("simulate", "--game", "blinks", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_success_rate_sizes_the_vault(tmp_path):
    out, _ = run(
        "--games", "30", "--players", "6", "--rates", "0.3,0.7", "--rules", "printed",
        "--vaults", "4,6,8,10,12,14,16", "--json", "--report", str(tmp_path),
    )  # fmt: skip
    report = json.loads(out.strip().splitlines()[-1])
    slow, fast = report["rows"]
    assert (slow["rate"], fast["rate"]) == (0.3, 0.7)
    # a Blink takes HEALTH hits: about HEALTH / rate throws
    assert slow["throws_per_blink"]["mean"] == pytest.approx(HEALTH / 0.3, rel=0.15)
    assert fast["throws_per_blink"]["mean"] == pytest.approx(HEALTH / 0.7, rel=0.15)
    # the better table fits a larger vault in the same party
    assert slow["fits"] and fast["fits"] and max(slow["fits"]) < min(fast["fits"])
    assert (tmp_path / "report.json").exists()
    assert "vault for 30-45 min" in (tmp_path / "RESULTS.md").read_text()


def test_the_same_seed_gives_the_same_report():
    args = ("--games", "5", "--rates", "0.5", "--vaults", "5", "--players", "4", "--json")
    first, second = (json.loads(run(*args)[0].strip().splitlines()[-1]) for _ in range(2))
    assert first["rows"] == second["rows"]


@pytest.mark.parametrize("bad", [("--rates", "0"), ("--rates", "x"), ("--vaults", "2"), ("--rules", "house")])
def test_bad_parameters_are_refused(bad):
    with pytest.raises(CommandError):
        run("--games", "2", *bad)


def test_the_lobby_s_estimate_follows_the_host_s_vault_and_the_longest_table():
    from games.blinks.party.simulate.lobby import blinks_party_length_estimate, longest_quantile
    from games.blinks.party.simulate.lobby_estimates import MINUTES
    from tables.simulate.estimates import lobby_estimate

    # every rule, vault and table size the host can choose has its row
    assert set(MINUTES) == {(a, v, n) for a in (False, True) for v in range(3, 31) for n in range(2, 9)}
    # the default vault plays the rulebook's 30-45 minutes at one hit in two
    mean, sd = MINUTES[False, 10, 8]
    assert 30 <= mean <= 45 and 0 < sd < mean / 2
    ten = blinks_party_length_estimate(guests=40, options={"vault": 10, "alternate": False})
    assert ten is not None and (ten["guests"], ten["tables"], ten["games"]) == (40, 5, 1)
    assert 30 <= ten["low"] < ten["high"] <= 60
    # a bigger vault, a longer party; more tables, a longer wait for the last of them
    twenty = blinks_party_length_estimate(guests=40, options={"vault": 20})
    assert twenty is not None and twenty["low"] > ten["high"]
    one = blinks_party_length_estimate(guests=8, options={"vault": 10})
    assert one is not None and one["tables"] == 1 and one["high"] < ten["high"]
    # the longest of five like tables: its median is the one whose chance is 0.5 ** (1/5) each
    table = (40.0, 5.0)
    assert longest_quantile([table] * 5, 0.5) == pytest.approx(longest_quantile([table], 0.5 ** (1 / 5)), abs=0.01)
    assert longest_quantile([table], 0.5) == pytest.approx(40.0, abs=0.01)
    # none for one guest or for two games; the host's lobby reads it with the party's options
    assert blinks_party_length_estimate(guests=1, options={}) is None
    assert blinks_party_length_estimate(guests=20, games=2, options={}) is None
    assert lobby_estimate(game="blinks", games=1, guests=40, options={"vault": 20, "alternate": False}) == twenty
    assert lobby_estimate(game="blinks", games=1, guests=40) == blinks_party_length_estimate(guests=40, options={})


@pytest.mark.django_db
def test_the_host_s_lobby_shows_the_blinks_party_s_length_for_its_vault():
    from events.party.selectors import party_for_host
    from games.blinks.party.simulate.lobby import blinks_party_length_estimate
    from tests import shorthand

    party, _ = shorthand.party_create(name="Blinks estimate", game="blinks", options={"vault": 6, "alternate": True})
    for i in range(12):
        shorthand.guest_join(code=party.code, name=f"Guest {i}", description="")
    est = party_for_host(party)["estimate"]
    assert est == blinks_party_length_estimate(guests=12, options={"vault": 6, "alternate": True})
    assert est is not None and est["tables"] == 2
