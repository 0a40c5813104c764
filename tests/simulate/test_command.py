"""manage.py simulate: JSON on the last line, a seed reproduces it, bad input is refused."""

import io
import json

import pytest
from django.core.management import CommandError, call_command


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("simulate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


ARGS = ("--games", "60", "--players", "3,5", "--parties", "6", "--guests", "12", "--chunk", "20", "--json")


def test_json_report_on_the_last_line_reproduced_by_its_seed():
    out, err = run(*ARGS, "--seed", "7", "--workers", "2")
    report = json.loads(out.strip().splitlines()[-1])
    assert report["games"] == 120 and report["players"] == [3, 5]
    assert set(report["last_actor"]) == {"3", "5"}
    assert {"advantage", "favourite", "fair_share", "real"} <= set(report["last_actor"]["5"])
    assert [p["tables"] for p in report["pacing"]["scenarios"]] == [[12], [6, 6], [4, 4, 4]]
    assert "simulate yankee: 138/138 (100 %)" in err  # progress on stderr
    again = json.loads(run(*ARGS, "--seed", "7", "--workers", "1")[0].strip().splitlines()[-1])
    other = json.loads(run(*ARGS, "--seed", "8", "--workers", "1")[0].strip().splitlines()[-1])
    for r in (report, again, other):
        r.pop("timing")
        r.pop("command")
    assert again == report
    assert other["raw"] != report["raw"]


def test_pacing_parameters_are_adjustable():
    base = json.loads(run(*ARGS, "--players", "", "--seed", "3")[0].strip().splitlines()[-1])
    slow = json.loads(run(*ARGS, "--players", "", "--seed", "3", "--turn", "60")[0].strip().splitlines()[-1])
    assert slow["pacing"]["model"]["turn"] == 60
    for a, b in zip(base["pacing"]["scenarios"], slow["pacing"]["scenarios"], strict=False):
        assert b["mean"] > a["mean"] + 8  # at least 24 turns on the critical path, 30 s more each


@pytest.mark.parametrize(
    "args, message",
    [
        (("--players", "1,4"), "2 to 10"),
        (("--policy", "cheater"), "unknown policy"),
        (("--players", "x"), "not a list"),
        (("--vault", "5"), "0 to 3"),
        (("--turn", "-3"), "non-negative"),
    ],
)
def test_bad_input_is_refused_with_a_clear_error(args, message):
    with pytest.raises(CommandError, match=message):
        run("--games", "5", "--parties", "0", *args)


def test_report_folder_holds_the_numbers_the_plots_and_the_command(tmp_path):
    run(
        "--games",
        "40",
        "--players",
        "3,4",
        "--parties",
        "4",
        "--guests",
        "12",
        "--chunk",
        "20",
        "--workers",
        "1",
        "--report",
        str(tmp_path),
    )
    names = {p.name for p in tmp_path.iterdir()}
    assert {"report.json", "fairness.csv", "order.csv", "pacing.csv", "RESULTS.md"} <= names
    assert {"last_actor.png", "favourite.png", "rank_by_order.png", "per_game.png", "pacing.png"} <= names
    for png in tmp_path.glob("*.png"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    fairness = (tmp_path / "fairness.csv").read_text().splitlines()
    assert fairness[0].startswith("players,games,") and [r.split(",")[0] for r in fairness[1:]] == ["3", "4"]
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["command"].startswith("python manage.py simulate") and report["games"] == 80
    results = (tmp_path / "RESULTS.md").read_text()
    assert report["command"] in results and "| 12 | scaling rule: 2 tables |" in results
