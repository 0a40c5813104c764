"""Yankee Heist's simulator hook (tables/simulate/hook.py `GameSimulator`): its options
on `manage.py simulate --game yankee`, its report, the lobby's estimate and the pacing
fit of `manage.py fit_pacing`.

The runner (processes, the clock) and the report (files, plots) are imported when a
run asks for them, so the lobby's lookup reads only the precomputed table."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tables.simulate.common.options import int_list
from tables.simulate.hook import Options, Run
from tables.simulate.played import PlayedTable

from .fit import fit_pacing
from .lobby import party_length_estimate
from .pacing import PacingModel
from .play import AGREEMENT, POLICIES

# The pacing model's parameters, each an option of its own (seconds; cv: spread).
MODEL_OPTIONS = ("setup", "turn", "window", "trim", "reveal", "relay", "cv")


class YankeeSimulator:
    def add_arguments(self, group: Options) -> None:
        group.add_argument("--vault", type=int, help="vault gifts per table, 0-3 (default 0)")
        group.add_argument(
            "--policy", help=f"seat policies, comma-separated, seat s plays the s-th modulo: {', '.join(POLICIES)}"
        )
        group.add_argument(
            "--agreement",
            type=float,
            help="how much players agree on a gift's worth, 0 (pure taste) to 1 (same values); default 0.5",
        )
        group.add_argument(
            "--last-call-draw",
            type=int,
            help="house rule LAST CALL refill: at round 4's start players under 5 cards draw up to N (default 0: off)",
        )
        group.add_argument("--model", type=Path, help="pacing parameters as JSON (e.g. from fit_pacing --output)")
        for name in MODEL_OPTIONS:
            group.add_argument(f"--{name}", type=float, help=f"pacing model: {name} (seconds; cv: spread)")

    def model(self, options: Mapping[str, Any]) -> PacingModel:
        """The pacing model: the defaults, then --model's file, then each parameter given."""
        params: dict[str, Any] = {}
        if options.get("model"):
            try:
                params = json.loads(Path(options["model"]).read_text())
            except (OSError, ValueError) as e:
                raise ValueError(f"cannot read pacing parameters from {options['model']}: {e}") from None
            params = params.get("model", params)
        for name in MODEL_OPTIONS:
            if options.get(name) is not None:
                params[name] = options[name]
        try:
            return PacingModel.from_dict(params)
        except TypeError as e:
            raise ValueError(str(e)) from None

    @staticmethod
    def _policies(options: Mapping[str, Any]) -> tuple[str, ...]:
        return tuple(p.strip() for p in (options.get("policy") or "greedy").split(",") if p.strip())

    @staticmethod
    def _agreement(options: Mapping[str, Any]) -> float:
        value = options.get("agreement")
        return AGREEMENT if value is None else float(value)

    def simulate(self, run: Run, options: Mapping[str, Any]) -> dict[str, Any]:
        from .runner import simulate

        return simulate(
            seed=run.seed,
            games=2000 if run.games is None else run.games,
            players=int_list("2-10" if run.players is None else run.players),
            vault=options.get("vault") or 0,
            policies=self._policies(options),
            agreement=self._agreement(options),
            last_call_draw=options.get("last_call_draw") or 0,
            parties=200 if run.parties is None else run.parties,
            pacing_guests=int_list("10,20,50,100" if run.guests is None else run.guests),
            model=self.model(options),
            workers=run.workers,
            chunk=500 if run.chunk is None else run.chunk,
            progress=run.progress,
        )

    def estimates(self, run: Run, options: Mapping[str, Any], *, parties: int, command: str) -> str:
        from .runner import estimate_table, estimates_module

        model = self.model(options)
        table = estimate_table(
            seed=run.seed,
            parties=parties,
            policies=self._policies(options),
            model=model,
            agreement=self._agreement(options),
            workers=run.workers,
            progress=run.progress,
        )
        return estimates_module(table, command, model)

    def write_report(self, report: dict[str, Any], folder: Path, command: str) -> list[Path]:
        from .report import write_report

        return write_report(report, folder, command)

    def lobby_estimate(self, *, guests: int, games: int) -> dict[str, Any] | None:
        # Yankee Heist's tables play one game (its Features.max_games).
        return party_length_estimate(guests=guests) if games == 1 else None

    def fit_pacing(self, parties: Sequence[Sequence[PlayedTable]]) -> dict[str, Any]:
        return fit_pacing(parties)

    def summary(self, r: dict[str, Any]) -> str:
        out = [
            f"{r['games']:,} games ({r['games_per_size']:,} per size), policies {','.join(r['policies'])}, "
            f"agreement {r['agreement']:g}, vault {r['vault']}, last call draw {r['last_call_draw']}, seed {r['seed']}"
        ]
        out.append("players  last-actor advantage [95% CI]  real  fav last/others/fair   blocks comebacks swaps")
        for n, s in r["sizes"].items():
            la, a = s["last_actor"], s["last_actor"]["advantage"]
            out.append(
                f"{n:>7}  {100 * a['mean']:+6.2f} [{100 * a['low']:+6.2f}, {100 * a['high']:+6.2f}]"
                f"        {'yes' if la['real'] else 'no ':>3}   {100 * la['favourite']['mean']:4.1f}/"
                f"{100 * la['others_favourite']['mean']:4.1f}/{100 * la['fair_share']:4.1f} %"
                f"   {s['blocks']:6.2f} {s['comebacks']:9.2f} {s['swaps']:5.2f}"
            )
        if r["pacing"]["scenarios"]:
            out.append("guests  seating                      minutes: mean  p10  p90  within 30-45")
            for p in r["pacing"]["scenarios"]:
                out.append(
                    f"{p['guests']:>6}  {p['seating']:<28} {p['mean']:6.1f} {p['p10']:5.1f} {p['p90']:5.1f}  {100 * p['within_target']:5.0f} %"
                )
        return "\n".join(out)
