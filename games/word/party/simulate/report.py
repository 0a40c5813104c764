"""Word Heist's simulator report: report.json, a CSV per table of rows and RESULTS.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tables.simulate.common.output import write_files


def results(r: dict[str, Any], command: str) -> str:
    out = [
        "# Word Heist: simulated tables and parties",
        "",
        "Generated, do not edit:",
        "",
        f"    {command}",
        "",
        f"{r['games_per_size']:,} games per table size, dictionary `{r['language']}`, policy "
        + ", ".join(f"{k}={v}" for k, v in r["policy"].items())
        + "; pacing model "
        + ", ".join(f"{k}={v:g}" for k, v in r["model"].items())
        + "; clocks "
        + ", ".join(f"{k} {v:g} s" for k, v in r["clocks"].items())
        + ".",
        "",
        "## By table size",
        "",
        '| players | mean score | winning score | halts per seat-round | "Halt!" per seat-round '
        '| "Halt!" per round | matched per seat-round | letters | shared wins | minutes mean / p90 |',
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for n, s in r["sizes"].items():
        out.append(
            f"| {n} | {s['score']['mean']:.1f} | {s['winning_score']['mean']:.1f} "
            f"| {s['halts_made_per_seat_round']:.2f} | {s['halt_moments_per_seat_round']:.2f} "
            f"| {s['halt_moments_per_round']:.2f} | {s['matched_per_seat_round']:.2f} | {s['word_letters']:.1f} "
            f"| {100 * s['shared_wins']:.0f} % | {s['minutes']['mean']:.1f} / {s['minutes']['p90']:.1f} |"
        )
    out += [
        "",
        "## Parties by the largest table (minutes: mean, p10-p90)",
        "",
        "| tables of at most | guests | tables | sizes | mean | p10 | p90 |",
        "|---|---|---|---|---|---|---|",
    ]
    for cap, rows in r["parties_by_cap"].items():
        for p in rows:
            out.append(
                f"| {cap} | {p['guests']} | {p['tables']} | {'/'.join(map(str, sorted(set(p['sizes']))))} "
                f"| {p['mean']:.1f} | {p['p10']:.1f} | {p['p90']:.1f} |"
            )
    return "\n".join(out) + "\n"


def write_report(report: dict[str, Any], folder: Path, command: str) -> list[Path]:
    sizes = [
        {"players": int(n), **{k: v for k, v in s.items() if not isinstance(v, (dict, list))}}
        for n, s in report["sizes"].items()
    ]
    parties = [
        {"table_max": int(cap), **{k: v for k, v in p.items() if k != "sizes"}}
        for cap, rows in report["parties_by_cap"].items()
        for p in rows
    ]
    return write_files(
        folder, report, command, [("sizes.csv", sizes), ("parties.csv", parties)], results(report, command)
    )
