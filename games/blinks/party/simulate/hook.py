"""Blinks Heist's simulator hook (tables/simulate/hook.py `GameSimulator`): its options on
`manage.py simulate --game blinks` (the throw success rates, the touch rate, the pace,
the vault sizes and the rules to try), its report, and the lobby's estimate (a table's
length is its vault's, chosen by the host: the lobby reads the host's options)."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from games.blinks import MAX_PLAYERS, MAX_VAULT, MIN_PLAYERS, MIN_VAULT
from tables.simulate.common.options import int_list
from tables.simulate.hook import Options, Run

from .lobby import blinks_party_length_estimate
from .play import WINDOW, Pace, measure, minutes_by_size


def _rates(text: str) -> list[float]:
    try:
        rates = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"--rates lists success rates, e.g. 0.3,0.5: not {text!r}") from None
    if not rates or any(not 0 < r <= 1 for r in rates):
        raise ValueError(f"a throw's success rate is above 0 and at most 1: not {text!r}")
    return rates


class BlinksSimulator:
    def add_arguments(self, group: Options) -> None:
        group.add_argument("--rates", help="throw success rates to try (default 0.3,0.4,0.5,0.6,0.7)")
        group.add_argument("--touch", type=float, help="chance a retrieval touches the vault (default 0.05)")
        group.add_argument("--vaults", help=f"vault sizes to try (default {MIN_VAULT}-{MAX_VAULT})")
        group.add_argument("--rules", help="printed, alternate or both (default both)")
        group.add_argument("--throw-seconds", type=float, help="pace: one throw and its two taps (default 20)")
        group.add_argument("--turn-seconds", type=float, help="pace: a turn's hand-over (default 5)")

    def simulate(self, run: Run, options: Mapping[str, Any]) -> dict[str, Any]:
        started, cpu = time.monotonic(), time.process_time()
        players = int_list(run.players or "6")
        if any(not MIN_PLAYERS <= n <= MAX_PLAYERS for n in players):
            raise ValueError(f"a Blinks Heist table seats {MIN_PLAYERS} to {MAX_PLAYERS}")
        vaults = int_list(options.get("vaults") or f"{MIN_VAULT}-{MAX_VAULT}")
        if any(not MIN_VAULT <= v <= MAX_VAULT for v in vaults):
            raise ValueError(f"a vault holds {MIN_VAULT} to {MAX_VAULT} Blinks")
        rules = options.get("rules") or "both"
        if rules not in ("printed", "alternate", "both"):
            raise ValueError("--rules is printed, alternate or both")
        alternate = {"printed": [False], "alternate": [True], "both": [False, True]}[rules]
        touch = 0.05 if options.get("touch") is None else float(options["touch"])
        if not 0 <= touch <= 1:
            raise ValueError("--touch is a probability")
        pace = Pace(throw_seconds=options.get("throw_seconds") or 20.0, turn_seconds=options.get("turn_seconds") or 5.0)
        games = 100 if run.games is None else run.games
        rates = _rates(options.get("rates") or "0.3,0.4,0.5,0.6,0.7")
        total = len(alternate) * len(rates)
        rows = []
        for done, (alt, rate) in enumerate(((a, r) for a in alternate for r in rates), 1):
            rows += measure(
                seed=run.seed,
                rates=[rate],
                players=players,
                vaults=vaults,
                games=games,
                touch=touch,
                alternate=[alt],
                pace=pace,
            )
            if run.progress:
                run.progress(done, total)
        return {
            "game": "blinks",
            "seed": run.seed,
            "players": players,
            "games_per_size": games,
            "touch": touch,
            "pace": {"throw_seconds": pace.throw_seconds, "turn_seconds": pace.turn_seconds},
            "window": list(WINDOW),
            "rows": rows,
            "timing": {
                "wall_seconds": time.monotonic() - started,
                "cpu_seconds": time.process_time() - cpu,
                "workers": 1,
            },
        }

    def summary(self, r: dict[str, Any]) -> str:
        out = [
            f"Blinks Heist: {r['games_per_size']} games per rule, rate, table and vault; touch {r['touch']}; "
            f"a throw {r['pace']['throw_seconds']:g} s, a hand-over {r['pace']['turn_seconds']:g} s; seed {r['seed']}",
            f"rule       rate  players  throws/Blink  p90   vault for {r['window'][0]:g}-{r['window'][1]:g} min",
        ]
        for row in r["rows"]:
            fits = row["fits"]
            span = f"{min(fits)}-{max(fits)}" if fits else "none tried"
            t = row["throws_per_blink"]
            out.append(
                f"{row['rule']:<9}  {row['rate']:4.2f}  {row['players']:>7}  {t['mean']:12.2f}  {t['p90']:4.1f}  {span}"
            )
        return "\n".join(out)

    def write_report(self, report: dict[str, Any], folder: Path, command: str) -> list[Path]:
        folder.mkdir(parents=True, exist_ok=True)
        data, text = folder / "report.json", folder / "RESULTS.md"
        data.write_text(json.dumps(report, indent=1))
        text.write_text(f"# Blinks Heist: the vault's size\n\n    {command}\n\n```\n{self.summary(report)}\n```\n")
        return [data, text]

    def estimates(self, run: Run, options: Mapping[str, Any], *, parties: int, command: str) -> str:
        """The lobby's table (lobby_estimates.py): a table's minutes per rule, vault and
        table size at one success rate (--rates, its first: default 0.5). No party is
        simulated (`parties` unused): the lobby takes a party's length as its longest
        table's, from each table's mean and spread (lobby.py)."""
        rate = _rates(options.get("rates") or "0.5")[0]
        touch = 0.05 if options.get("touch") is None else float(options["touch"])
        pace = Pace(throw_seconds=options.get("throw_seconds") or 20.0, turn_seconds=options.get("turn_seconds") or 5.0)
        games = 100 if run.games is None else run.games
        table = minutes_by_size(
            seed=run.seed,
            rate=rate,
            touch=touch,
            pace=pace,
            games=games,
            vaults=range(MIN_VAULT, MAX_VAULT + 1),
            players=range(MIN_PLAYERS, MAX_PLAYERS + 1),
            progress=run.progress,
        )
        rows = "\n".join(f"    {key!r}: {value!r}," for key, value in table.items())
        return (
            '"""The minutes of a Blinks Heist table by (alternate rule, vault, players): (mean, standard\n'
            f"deviation) over {games} simulated games at success rate {rate:g}, touch {touch:g}, a throw\n"
            f"{pace.throw_seconds:g} s and a hand-over {pace.turn_seconds:g} s. Generated, do not edit:\n\n"
            f"    {command}\n"
            '"""\n\n'
            f"MINUTES: dict[tuple[bool, int, int], tuple[float, float]] = {{\n{rows}\n}}\n"
        )

    def lobby_estimate(self, *, guests: int, games: int) -> dict[str, Any] | None:
        return blinks_party_length_estimate(guests=guests, games=games, options={})

    def lobby_estimate_with(self, *, guests: int, games: int, options: Mapping[str, Any]) -> dict[str, Any] | None:
        """The party's length with the host's vault and rule (tables/simulate/hook.py
        EstimatesWithOptions)."""
        return blinks_party_length_estimate(guests=guests, games=games, options=options)


SIMULATOR = BlinksSimulator()
