"""Write Royal Heist's simulation report to a folder: report.json, strategies.csv,
seats.csv, lengths.csv, parties.csv, RESULTS.md and PNG plots. matplotlib is imported
here only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tables.simulate.common.output import Figures, ci_columns, write_files

from .pacing import TARGET


def _ci(c: dict[str, float], scale: float = 100, fmt: str = ".1f") -> str:
    return f"{scale * c['mean']:{fmt}} [{scale * c['low']:{fmt}}, {scale * c['high']:{fmt}}]"


def strategy_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for n, s in report["sizes"].items():
        for name in report["field"]:
            if name not in s["strategies"]:
                continue
            x = s["strategies"][name]
            rows.append(
                {
                    "players": int(n),
                    "strategy": name,
                    "appearances": x["appearances"],
                    **ci_columns("win_share", "win", x["win_share"]),
                    "fair_share": s["fair_share"],
                    "won_or_shared": x["won_or_shared"]["mean"],
                    **ci_columns("bank", "bank", x["bank"]),
                    "vs_fair": x["vs_fair"],
                }
            )
    return rows


def seat_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for n, s in report["sizes"].items():
        for i, x in enumerate(s["seats"]):
            rows.append(
                {
                    "players": int(n),
                    "seat": i,
                    **ci_columns("win_share", "win", x["win_share"]),
                    "fair_share": s["fair_share"],
                    "bank": x["bank"]["mean"],
                    "vs_fair": x["vs_fair"],
                }
            )
    return rows


def length_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for n, s in report["sizes"].items():
        h, g, m = s["heist_decisions"], s["game_decisions"], report["game_minutes"][n]
        rows.append(
            {
                "players": int(n),
                "heist_mean": h["mean"],
                "heist_p50": h["p50"],
                "heist_p90": h["p90"],
                "game_mean": g["mean"],
                "game_p50": g["p50"],
                "game_p90": g["p90"],
                "caught_share": s["caught_share"]["mean"],
                "minutes_mean": m["mean"],
                "minutes_p50": m["p50"],
                "minutes_p90": m["p90"],
            }
        )
    return rows


def markdown(report: dict[str, Any], command: str) -> str:
    p = report["pacing"]
    out = [
        "# Royal Heist simulation results (generated)",
        "",
        f"Made by `{command}`: {report['games_per_size']:,} games per table size, seed {report['seed']}, "
        f"{report['timing']['wall_seconds']:.0f} s wall, {report['timing']['cpu_seconds']:.0f} s CPU. Every seat "
        "draws its strategy at random from the field:",
        "",
    ]
    out += [f"- `{k}`: {v}" for k, v in report["strategies"].items()]
    out += [
        "",
        "## Strategies head to head (win share %, 95% CI; a shared win counts 1/k; fair = 100/n)",
        "",
        "| players | strategy | appearances | win share | fair | won or shared | mean bank [95% CI] |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in strategy_rows(report):
        out.append(
            f"| {r['players']} | {r['strategy']} | {r['appearances']:,} | {100 * r['win_share']:.1f} "
            f"[{100 * r['win_low']:.1f}, {100 * r['win_high']:.1f}] ({r['vs_fair']}) | {100 * r['fair_share']:.1f} | "
            f"{100 * r['won_or_shared']:.1f} | {r['bank']:.1f} [{r['bank_low']:.1f}, {r['bank_high']:.1f}] |"
        )
    out += [
        "",
        "## Seat advantage (win share % by seat, 95% CI, against 100/n)",
        "",
        "| players | fair | " + " | ".join(f"seat {i}" for i in range(8)) + " |",
        "| --- " * 10 + "|",
    ]
    for n, s in report["sizes"].items():
        cells = [_ci(x["win_share"]) for x in s["seats"]]
        out.append(f"| {n} | {100 * s['fair_share']:.1f} | " + " | ".join(cells + [""] * (8 - len(cells))) + " |")
    m = p["model"]
    out += [
        "",
        "## Length: decisions (rounds) per heist and per game, minutes per game",
        "",
        "Pacing model: " + ", ".join(f"{k} {v:g}" for k, v in m.items()) + " (seconds; cv = spread of each step).",
        "",
        "| players | heist: mean | p50 | p90 | game: mean | p50 | p90 | heists ending caught | minutes/game: mean | p50 | p90 |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in length_rows(report):
        out.append(
            f"| {r['players']} | {r['heist_mean']:.1f} | {r['heist_p50']} | {r['heist_p90']} | {r['game_mean']:.1f} | "
            f"{r['game_p50']} | {r['game_p90']} | {100 * r['caught_share']:.0f} % | {r['minutes_mean']:.1f} | "
            f"{r['minutes_p50']:.1f} | {r['minutes_p90']:.1f} |"
        )
    lo, hi = TARGET
    out += [
        "",
        f"## A party: games of five heists in a row (minutes; Yankee Heist's party: {lo:.0f}-{hi:.0f})",
        "",
        f"{p['parties_per_row']:,} sampled parties per row. Recommended games per party (most games with "
        f"p90 <= {hi:.0f} min at every guest count): **{p['recommended_games']}**.",
        "",
        "| guests | tables | games | mean | p10 | p50 | p90 | within target |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in p["parties"]:
        out.append(
            f"| {r['guests']} | {'+'.join(map(str, r['tables']))} | {r['games']} | {r['mean']:.1f} | {r['p10']:.1f} | "
            f"{r['p50']:.1f} | {r['p90']:.1f} | {100 * r['within_target']:.0f} % |"
        )
    return "\n".join(out) + "\n"


def write_report(report: dict[str, Any], folder: Path, command: str) -> list[Path]:
    tables = (
        ("strategies.csv", strategy_rows(report)),
        ("seats.csv", seat_rows(report)),
        ("lengths.csv", length_rows(report)),
        ("parties.csv", report["pacing"]["parties"]),
    )
    return write_files(folder, report, command, tables, markdown(report, command)) + plots(report, folder)


def plots(report: dict[str, Any], folder: Path) -> list[Path]:
    figures = Figures(folder)
    save = figures.save
    import matplotlib.pyplot as plt

    rows = strategy_rows(report)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for i, name in enumerate(report["field"]):
        mine = [r for r in rows if r["strategy"] == name]
        xs = [r["players"] + (i - len(report["field"]) / 2) * 0.06 for r in mine]
        ratio = [r["win_share"] / r["fair_share"] for r in mine]
        err = [
            [(r["win_share"] - r["win_low"]) / r["fair_share"] for r in mine],
            [(r["win_high"] - r["win_share"]) / r["fair_share"] for r in mine],
        ]
        ax.errorbar(xs, ratio, yerr=err, fmt="o-", capsize=2, ms=3, lw=0.8, label=name)
    ax.axhline(1, color="black", lw=0.8)
    ax.set_xlabel("players at the table")
    ax.set_ylabel("win share / fair share (1 = fair)")
    ax.set_title("Royal Heist: strategies head to head, 95% CI")
    ax.legend(fontsize=7, ncol=3)
    save(fig, "royal_strategies.png")

    fig, ax = plt.subplots(figsize=(7, 4))
    for n, s in report["sizes"].items():
        seats = s["seats"]
        ax.errorbar(
            [i + 0.04 * int(n) for i in range(len(seats))],
            [x["win_share"]["mean"] * int(n) for x in seats],
            yerr=[(x["win_share"]["high"] - x["win_share"]["low"]) / 2 * int(n) for x in seats],
            fmt="o",
            capsize=2,
            ms=3,
            label=f"{n} players",
        )
    ax.axhline(1, color="black", lw=0.8)
    ax.set_xlabel("seat")
    ax.set_ylabel("win share x n (1 = fair)")
    ax.set_title("Seat advantage, 95% CI")
    ax.legend(fontsize=7, ncol=3)
    save(fig, "royal_seats.png")

    parties = report["pacing"]["parties"]
    if parties:
        fig, ax = plt.subplots(figsize=(7, 4))
        for guests in sorted({r["guests"] for r in parties}):
            mine = [r for r in parties if r["guests"] == guests]
            ax.errorbar(
                [r["games"] for r in mine],
                [r["p50"] for r in mine],
                yerr=[[r["p50"] - r["p10"] for r in mine], [r["p90"] - r["p50"] for r in mine]],
                fmt="o-",
                capsize=3,
                label=f"{guests} guests",
            )
        lo, hi = TARGET
        ax.axhspan(lo, hi, color="green", alpha=0.12, label=f"{lo:.0f}-{hi:.0f} min")
        ax.set_xlabel("games of five heists per party")
        ax.set_ylabel("party minutes (median, p10-p90)")
        ax.set_title("Royal Heist: party length by games played")
        ax.legend(fontsize=7)
        save(fig, "royal_party.png")
    return figures.written
