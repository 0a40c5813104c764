"""manage.py simulate --game royal: end to end with a small N; Yankee Heist's stays the default."""

import io
import json

import pytest
from django.core.management import CommandError, call_command


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("simulate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


ARGS = ("--game", "royal", "--games", "20", "--players", "3,4", "--guests", "4", "--parties", "5")
ARGS += ("--party-games", "1-2", "--chunk", "10", "--json")


def last_json(out):
    report = json.loads(out.strip().splitlines()[-1])
    report.pop("timing")
    report.pop("command")
    return report


def test_the_royal_report_is_reproduced_by_its_seed_with_any_number_of_workers():
    out, err = run(*ARGS, "--seed", "5", "--workers", "2")
    report = last_json(out)
    assert report["game"] == "royal" and report["players"] == [3, 4]
    assert "simulate royal: 40/40 (100 %)" in err
    for n in ("3", "4"):
        size = report["sizes"][n]
        assert size["games"] == 20 and len(size["seats"]) == int(n)
        assert sum(x["appearances"] for x in size["strategies"].values()) == 20 * int(n)
        # the shares of every game add up to one win
        assert sum(x["win_share"]["mean"] for x in size["seats"]) == pytest.approx(1)
        assert 1 <= size["heist_decisions"]["p50"] <= size["heist_decisions"]["p90"] <= 21
        assert report["game_minutes"][n]["mean"] > 0
    assert [(p["guests"], p["tables"], p["games"]) for p in report["pacing"]["parties"]] == [(4, [4], 1), (4, [4], 2)]
    assert report["pacing"]["recommended_games"] in (1, 2)
    again = last_json(run(*ARGS, "--seed", "5", "--workers", "1")[0])
    other = last_json(run(*ARGS, "--seed", "6", "--workers", "1")[0])
    assert again == report and other["raw"] != report["raw"]


def test_a_party_needs_its_table_sizes_simulated():
    # parties are sampled from the simulated games: 8 guests sit at one table of 8
    with pytest.raises(CommandError, match="tables of \\[8\\]"):
        run("--game", "royal", "--games", "5", "--players", "3", "--guests", "8", "--parties", "2", "--json")


def test_report_folder_holds_tables_plots_and_the_command(tmp_path):
    run(*ARGS[:-1], "--players", "3,8", "--guests", "8", "--workers", "1", "--report", str(tmp_path))
    names = {p.name for p in tmp_path.iterdir()}
    assert {"report.json", "strategies.csv", "seats.csv", "lengths.csv", "parties.csv", "RESULTS.md"} <= names
    assert {"royal_strategies.png", "royal_seats.png", "royal_party.png"} <= names
    results = (tmp_path / "RESULTS.md").read_text()
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["command"] in results and "Strategies head to head" in results


@pytest.mark.parametrize(
    "args, message",
    [
        (("--game", "royal", "--players", "2"), "3 to 8"),
        (("--game", "royal", "--field", "T10,greedy"), "unknown strategy"),
        (("--game", "royal", "--turn", "30"), "an option of yankee's simulator, not royal's"),
        (("--game", "royal", "--think", "-1"), "non-negative"),
        (("--think", "5"), "an option of royal's simulator, not yankee's"),  # the default game is still Yankee Heist
    ],
)
def test_bad_input_is_refused(args, message):
    with pytest.raises(CommandError, match=message):
        run("--games", "5", "--parties", "0", *args)
