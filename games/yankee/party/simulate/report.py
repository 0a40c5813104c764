"""Write a simulation report to a folder: the numbers (JSON, CSV), the plots (PNG) and
a generated RESULTS.md with the tables. matplotlib is imported here only, so the
simulator itself needs nothing outside the standard library."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tables.simulate.common.output import Figures, ci_columns, write_files

from .pacing import TARGET


def _pct(x: float) -> str:
    return f"{100 * x:+.2f}"


def fairness_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for n, s in report["sizes"].items():
        la = s["last_actor"]
        adv = la["advantage"]
        rows.append(
            {
                "players": int(n),
                "games": s["games"],
                "last_rank": la["rank"]["mean"],
                "others_rank": la["others_rank"]["mean"],
                **ci_columns("advantage", "advantage", adv),
                "real": la["real"],
                "last_favourite": la["favourite"]["mean"],
                "others_favourite": la["others_favourite"]["mean"],
                "fair_share": la["fair_share"],
                **ci_columns("seat0_vs_rest", "seat0", s["seat0_vs_rest"]),
                "kept_dealt": s["kept_dealt"],
                "blocks": s["blocks"],
                "comebacks": s["comebacks"],
                "swaps": s["swaps"],
                "windows": s["per_game"]["windows"]["mean"],
                "trims": s["per_game"]["trims"]["mean"],
            }
        )
    return rows


def order_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for n, s in report["sizes"].items():
        for kind in ("order", "seat"):
            for i, ci in enumerate(s[f"rank_by_{kind}"]):
                rows.append(
                    {
                        "players": int(n),
                        "by": kind,
                        "index": i,
                        "mean": ci["mean"],
                        "low": ci["low"],
                        "high": ci["high"],
                    }
                )
    return rows


def markdown(report: dict[str, Any], command: str) -> str:
    out = [
        "# Simulation results (generated)",
        "",
        f"Made by `{command}`: {report['games_per_size']:,} games per table size, policies "
        f"{', '.join(report['policies'])}, agreement {report['agreement']:g}, vault {report['vault']}, seed {report['seed']}. "
        f"{report['timing']['wall_seconds']:.0f} s wall, {report['timing']['cpu_seconds']:.0f} s CPU on "
        f"{report['timing']['workers']} worker processes. Ranks are normalised: 0 = the player's least "
        "favourite gift at the table, 1 = its favourite, 0.5 = what a random deal gives.",
        "",
        "## Last actor in round 4 (paired within each game, 95% CI, rank points x 100)",
        "",
        "| players | last actor rank | others | advantage | 95% CI | real? | last ends with favourite | others | fair share | blocks/game | comebacks/game | swaps/game |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in fairness_rows(report):
        out.append(
            f"| {r['players']} | {r['last_rank']:.3f} | {r['others_rank']:.3f} | {_pct(r['advantage'])} | "
            f"[{_pct(r['advantage_low'])}, {_pct(r['advantage_high'])}] | {'yes' if r['real'] else 'no'} | "
            f"{100 * r['last_favourite']:.1f} % | {100 * r['others_favourite']:.1f} % | {100 * r['fair_share']:.1f} % | "
            f"{r['blocks']:.2f} | {r['comebacks']:.2f} | {r['swaps']:.2f} |"
        )
    out += [
        "",
        "## Rank by position in round 1's order (0 = the first starter), 95% CI",
        "",
        "| players | " + " | ".join(f"pos {i}" for i in range(10)) + " |",
        "| --- " * 11 + "|",
    ]
    for n, s in report["sizes"].items():
        cells = [f"{c['mean']:.3f} ±{(c['high'] - c['low']) / 2:.3f}" for c in s["rank_by_order"]]
        out.append(f"| {n} | " + " | ".join(cells + [""] * (10 - len(cells))) + " |")
    out += [
        "",
        "## Seat 0 against the other seats (a symmetric case: the CI should cover 0)",
        "",
        "| players | seat 0 minus the rest | 95% CI |",
        "| --- | --- | --- |",
    ]
    for r in fairness_rows(report):
        out.append(
            f"| {r['players']} | {_pct(r['seat0_vs_rest'])} | [{_pct(r['seat0_low'])}, {_pct(r['seat0_high'])}] |"
        )
    lo, hi = TARGET
    m = report["pacing"]["model"]
    out += [
        "",
        f"## Party length (minutes; target {lo:.0f}-{hi:.0f})",
        "",
        "Model: " + ", ".join(f"{k} {v:g}" for k, v in m.items()) + " (seconds; cv = spread of each step).",
        f" {report['pacing']['parties_per_scenario']:,} simulated parties per row.",
        "",
        "| guests | seating | tables | mean | sd | p10 | p50 | p90 | within target |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for p in report["pacing"]["scenarios"]:
        tables = "1 x " + str(p["tables"][0]) if len(p["tables"]) == 1 else "+".join(str(x) for x in p["tables"])
        out.append(
            f"| {p['guests']} | {p['seating']} | {tables} | {p['mean']:.1f} | {p['sd']:.1f} | {p['p10']:.1f} | "
            f"{p['p50']:.1f} | {p['p90']:.1f} | {100 * p['within_target']:.0f} % |"
        )
    return "\n".join(out) + "\n"


def write_report(report: dict[str, Any], folder: Path, command: str) -> list[Path]:
    """Write report.json, fairness.csv, order.csv, pacing.csv, RESULTS.md and the PNGs."""
    tables = (
        ("fairness.csv", fairness_rows(report)),
        ("order.csv", order_rows(report)),
        ("pacing.csv", report["pacing"]["scenarios"]),
    )
    return write_files(folder, report, command, tables, markdown(report, command)) + plots(report, folder)


def plots(report: dict[str, Any], folder: Path) -> list[Path]:
    figures = Figures(folder)
    save = figures.save
    import matplotlib.pyplot as plt

    rows = fairness_rows(report)
    if rows:
        ns = [r["players"] for r in rows]
        fig, ax = plt.subplots(figsize=(7, 4))
        mean = [100 * r["advantage"] for r in rows]
        err = [
            [100 * (r["advantage"] - r["advantage_low"]) for r in rows],
            [100 * (r["advantage_high"] - r["advantage"]) for r in rows],
        ]
        ax.errorbar(ns, mean, yerr=err, fmt="o", capsize=4, label="last actor minus the others")
        s0 = [100 * r["seat0_vs_rest"] for r in rows]
        s0err = [
            [100 * (r["seat0_vs_rest"] - r["seat0_low"]) for r in rows],
            [100 * (r["seat0_high"] - r["seat0_vs_rest"]) for r in rows],
        ]
        ax.errorbar(
            [n + 0.15 for n in ns],
            s0,
            yerr=s0err,
            fmt="s",
            capsize=4,
            color="grey",
            label="seat 0 minus the others (control)",
        )
        ax.axhline(0, color="black", lw=0.8)
        ax.set_xlabel("players at the table")
        ax.set_ylabel("final gift rank difference (points of 100)")
        ax.set_title("Round 4's last actor: advantage with 95% CI")
        ax.legend(fontsize=8)
        save(fig, "last_actor.png")

        fig, ax = plt.subplots(figsize=(7, 4))
        ax.plot(ns, [100 * r["last_favourite"] for r in rows], "o-", label="last actor ends with its favourite")
        ax.plot(ns, [100 * r["others_favourite"] for r in rows], "s-", label="other players")
        ax.plot(ns, [100 * r["fair_share"] for r in rows], "k--", label="fair share (1 / gifts)")
        ax.set_xlabel("players at the table")
        ax.set_ylabel("% of players")
        ax.set_title("Who ends with their favourite reachable gift")
        ax.legend(fontsize=8)
        save(fig, "favourite.png")

        fig, ax = plt.subplots(figsize=(7, 4))
        for n, s in report["sizes"].items():
            order = s["rank_by_order"]
            ax.errorbar(
                range(len(order)),
                [c["mean"] for c in order],
                yerr=[(c["high"] - c["low"]) / 2 for c in order],
                capsize=2,
                label=f"{n} players",
            )
        ax.set_xlabel("position in round 1's order (0 = first starter)")
        ax.set_ylabel("mean final gift rank (0..1)")
        ax.set_title("Final gift rank by starting order, 95% CI")
        ax.legend(fontsize=7, ncol=3)
        save(fig, "rank_by_order.png")

        fig, ax = plt.subplots(figsize=(7, 4))
        for key, label in (("blocks", "blocks"), ("comebacks", "comeback draws"), ("swaps", "gift moves")):
            ax.plot(ns, [r[key] for r in rows], "o-", label=label)
        ax.set_xlabel("players at the table")
        ax.set_ylabel("per game")
        ax.set_title("Blocks, comebacks and gift moves per game")
        ax.legend(fontsize=8)
        save(fig, "per_game.png")

    scen = report["pacing"]["scenarios"]
    if scen:
        fig, ax = plt.subplots(figsize=(8, 4.5))
        labels = [f"{p['guests']}: {p['seating']}" for p in scen]
        ys = range(len(scen))
        ax.barh(ys, [p["p90"] - p["p10"] for p in scen], left=[p["p10"] for p in scen], color="#8ab", label="p10-p90")
        ax.plot([p["p50"] for p in scen], ys, "k|", markersize=12, label="median")
        lo, hi = TARGET
        ax.axvspan(lo, hi, color="green", alpha=0.12, label=f"{lo:.0f}-{hi:.0f} min target")
        ax.set_yticks(list(ys), labels, fontsize=7)
        ax.invert_yaxis()
        ax.set_xscale("log")
        ax.set_xlabel("party length, minutes (log scale)")
        ax.set_title("Expected party length")
        ax.legend(fontsize=7, loc="lower right")
        save(fig, "pacing.png")
    return figures.written
