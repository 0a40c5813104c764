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
