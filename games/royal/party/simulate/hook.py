"""Royal Heist's simulator hook (tables/simulate/hook.py `GameSimulator`): its options
on `manage.py simulate --game royal`, its report and the lobby's estimate.

The runner (processes, the clock) and the report (files, plots) are imported when a
run asks for them, so the lobby's lookup reads only the precomputed tables."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tables.simulate.common.options import int_list
from tables.simulate.hook import Options, Run

from .lobby import royal_party_length_estimate
from .pacing import RoyalPacing
from .strategies import DEFAULT_FIELD

# The pacing model's parameters, each an option of its own (seconds; cv: spread).
MODEL_OPTIONS = ("think", "reveal", "heist_end", "game_start", "gate", "setup", "cv")


class RoyalSimulator:
    def add_arguments(self, group: Options) -> None:
        group.add_argument("--field", help=f"strategies each seat draws from (default {','.join(DEFAULT_FIELD)})")
        group.add_argument(
            "--party-games", help="games per party to measure (default 1-8; --estimates: the recommended)"
        )
        for name in MODEL_OPTIONS:
            flag = name.replace("_", "-")
            group.add_argument(f"--{flag}", type=float, help=f"pacing model: {flag} (seconds; cv: spread)")

    @staticmethod
    def model(options: Mapping[str, Any]) -> RoyalPacing:
        return RoyalPacing.from_dict({k: options[k] for k in MODEL_OPTIONS if options.get(k) is not None})

    @staticmethod
    def _field(options: Mapping[str, Any]) -> tuple[str, ...]:
        return tuple(f.strip() for f in (options.get("field") or ",".join(DEFAULT_FIELD)).split(",") if f.strip())

    def simulate(self, run: Run, options: Mapping[str, Any]) -> dict[str, Any]:
        from .runner import simulate_royal

        return simulate_royal(
            seed=run.seed,
            games=2000 if run.games is None else run.games,
            players=int_list("3-8" if run.players is None else run.players),
            field=self._field(options),
            party_count=200 if run.parties is None else run.parties,
            party_guests=int_list("8,20,50,100" if run.guests is None else run.guests),
            party_games=int_list(options.get("party_games") or "1-8"),
            model=self.model(options),
            workers=run.workers,
            chunk=run.chunk or 250,
            progress=run.progress,
        )

    def estimates(self, run: Run, options: Mapping[str, Any], *, parties: int, command: str) -> str:
        from .runner import estimate_table, estimates_module, play_sizes

        model = self.model(options)
        games = int_list(options.get("party_games") or "1-8")
        if len(games) != 1:
            raise ValueError("--estimates needs one --party-games number (the recommended games a party)")
        per_size = play_sizes(
            seed=run.seed,
            games=2000 if run.games is None else run.games,
            players=range(3, 9),
            field=self._field(options),
            workers=run.workers,
            chunk=run.chunk or 250,
            progress=run.progress,
        )
        table = estimate_table(per_size, seed=run.seed, games=games[0], count=parties, model=model)
        return estimates_module(table, games[0], command, model)

    def write_report(self, report: dict[str, Any], folder: Path, command: str) -> list[Path]:
        from .report import write_report

        return write_report(report, folder, command)

    def lobby_estimate(self, *, guests: int, games: int) -> dict[str, Any] | None:
        return royal_party_length_estimate(guests=guests, games=games)

    def summary(self, r: dict[str, Any]) -> str:
        out = [f"Royal Heist: {r['games_per_size']:,} games per size, field {','.join(r['field'])}, seed {r['seed']}"]
        out.append("players  strategy  win share % [95% CI]   fair   mean bank")
        for n, s in r["sizes"].items():
            for name in r["field"]:
                x = s["strategies"].get(name)
                if x is None:
                    continue
                w = x["win_share"]
                out.append(
                    f"{n:>7}  {name:<8}  {100 * w['mean']:5.1f} [{100 * w['low']:5.1f}, {100 * w['high']:5.1f}]"
                    f"  {100 * s['fair_share']:5.1f}  {x['bank']['mean']:6.1f}"
                )
        out.append("players  decisions/heist mean p50 p90  decisions/game mean p50 p90  minutes/game mean p90")
        for n, s in r["sizes"].items():
            h, g, m = s["heist_decisions"], s["game_decisions"], r["game_minutes"][n]
            out.append(
                f"{n:>7}  {h['mean']:20.1f} {h['p50']:3} {h['p90']:3}  {g['mean']:19.1f} {g['p50']:3} {g['p90']:3}"
                f"  {m['mean']:17.1f} {m['p90']:4.1f}"
            )
        if r["pacing"]["parties"]:
            out.append("guests  games  minutes: mean  p10  p90  within 30-45")
            for p in r["pacing"]["parties"]:
                out.append(
                    f"{p['guests']:>6}  {p['games']:>5}  {p['mean']:13.1f} {p['p10']:4.1f} {p['p90']:4.1f}"
                    f"  {100 * p['within_target']:5.0f} %"
                )
            out.append(f"recommended games per party: {r['pacing']['recommended_games']}")
        return "\n".join(out)
