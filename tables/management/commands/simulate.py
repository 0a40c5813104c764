"""manage.py simulate: the heist simulator's report (a thin layer over
tables.simulate.simulate, or with --game royal over tables.simulate.royal.runner;
see docs/SIMULATION.md)."""

from __future__ import annotations

import json
import shlex
import sys
import time
from argparse import ArgumentParser
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, OutputWrapper

from tables.simulate import POLICIES, PacingModel, simulate
from tables.simulate.royal.pacing import RoyalPacing
from tables.simulate.royal.strategies import DEFAULT_FIELD
from tables.simulate.runner import estimate_table, estimates_module


def int_list(text: str) -> list[int]:
    """'2-10' or '4,6,8' or '2-4,10'."""
    out: list[int] = []
    try:
        for part in text.split(","):
            if not part.strip():
                continue
            if "-" in part:
                a, b = part.split("-", 1)
                out.extend(range(int(a), int(b) + 1))
            else:
                out.append(int(part))
    except ValueError:
        raise CommandError(f"not a list of numbers: {text!r} (e.g. 2-10 or 4,6,8)") from None
    return out


def timing_line(t: dict[str, Any]) -> str:
    return f"{t['wall_seconds']:.1f} s wall, {t['cpu_seconds']:.1f} s CPU, {t['workers']} workers"


class Progress:
    """Progress on stderr, at most every two seconds (and at the end)."""

    def __init__(self, stream: OutputWrapper, label: str) -> None:
        self.stream, self.label = stream, label
        self.t0 = self.last = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self.last < 2:
            return
        self.last = now
        el = now - self.t0
        eta = el / done * (total - done) if done else 0
        self.stream.write(
            f"{self.label}: {done:,}/{total:,} ({100 * done / total:.0f} %), {el:.0f} s, about {eta:.0f} s left\n"
        )
        self.stream.flush()


class Command(BaseCommand):
    help = "Simulate complete heists with bot players: fairness and pacing report."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--game", choices=("yankee", "royal"), default="yankee", help="which game to simulate (default yankee)"
        )
        parser.add_argument("--games", type=int, default=2000, help="games per table size (default 2000)")
        parser.add_argument(
            "--players", default=None, help="table sizes, e.g. 2-10 or 4,6 (default 2-10; Royal Heist: 3-8)"
        )
        parser.add_argument("--vault", type=int, default=0, help="vault gifts per table, 0-3")
        parser.add_argument(
            "--policy",
            default="greedy",
            help=f"seat policies, comma-separated, seat s plays the s-th modulo: {', '.join(POLICIES)}",
        )
        parser.add_argument(
            "--agreement",
            type=float,
            default=0.5,
            help="how much players agree on a gift's worth, 0 (pure taste) to 1 (same values); default 0.5",
        )
        parser.add_argument(
            "--last-call-draw",
            type=int,
            default=0,
            help="house rule LAST CALL refill: at round 4's start players under 5 cards draw up to N (default 0: off)",
        )
        parser.add_argument("--parties", type=int, default=200, help="whole parties per pacing scenario")
        parser.add_argument(
            "--guests", default=None, help="party sizes for the pacing report ('' for none; default 10,20,50,100)"
        )
        parser.add_argument("--seed", default="1", help="master seed: the same seed gives the same report")
        parser.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
        parser.add_argument(
            "--chunk", type=int, default=None, help="games per work unit (part of what a seed fixes; default 500)"
        )
        parser.add_argument("--model", type=Path, help="pacing parameters as JSON (e.g. from fit_pacing --output)")
        for name in ("setup", "turn", "window", "trim", "reveal", "relay", "cv"):
            parser.add_argument(f"--{name}", type=float, help=f"pacing model: {name} (seconds; cv: spread)")
        parser.add_argument("--json", action="store_true", help="print the report as one JSON object on the last line")
        parser.add_argument("--report", type=Path, help="write JSON, CSV, PNG plots and RESULTS.md to this folder")
        parser.add_argument(
            "--estimates", type=Path, help="write the lobby's estimate table (a Python module) to this path, then stop"
        )
        parser.add_argument("--estimate-parties", type=int, default=60, help="parties per guest count for --estimates")
        royal = parser.add_argument_group("Royal Heist (--game royal)")
        royal.add_argument("--field", default=",".join(DEFAULT_FIELD), help="strategies each seat draws from")
        royal.add_argument(
            "--party-games",
            default="1-8",
            help="games per party to measure (default 1-8; --estimates: the recommended)",
        )
        for name in ("think", "heist-end", "game-start", "gate"):
            royal.add_argument(f"--{name}", type=float, help=f"Royal Heist pacing: {name} (seconds)")

    def model(self, opts: dict[str, Any]) -> PacingModel:
        params = {}
        if opts["model"]:
            try:
                params = json.loads(opts["model"].read_text())
            except (OSError, ValueError) as e:
                raise CommandError(f"cannot read pacing parameters from {opts['model']}: {e}") from None
            params = params.get("model", params)
        for name in ("setup", "turn", "window", "trim", "reveal", "relay", "cv"):
            if opts[name] is not None:
                params[name] = opts[name]
        try:
            return PacingModel.from_dict(params)
        except (ValueError, TypeError) as e:
            raise CommandError(str(e)) from None

    def handle(self, *args: Any, **opts: Any) -> None:
        seed = opts["seed"]
        seed = int(seed) if seed.lstrip("-").isdigit() else seed
        if opts["game"] == "royal":
            self.handle_royal(seed, opts)
            return
        for name in ("think", "heist_end", "game_start", "gate"):
            if opts[name] is not None:
                raise CommandError(f"--{name.replace('_', '-')} is a Royal Heist pacing parameter (--game royal)")
        opts["players"] = "2-10" if opts["players"] is None else opts["players"]
        opts["guests"] = "10,20,50,100" if opts["guests"] is None else opts["guests"]
        opts["chunk"] = 500 if opts["chunk"] is None else opts["chunk"]
        model = self.model(opts)
        policies = tuple(p.strip() for p in opts["policy"].split(",") if p.strip())
        command = self.command_line(seed)
        if opts["estimates"]:
            table = estimate_table(
                seed=seed,
                parties=opts["estimate_parties"],
                policies=policies,
                model=model,
                agreement=opts["agreement"],
                workers=opts["workers"],
                progress=Progress(self.stderr, "estimates"),
            )
            self.write_estimates(opts["estimates"], estimates_module(table, command, model))
            return
        try:
            report = simulate(
                seed=seed,
                games=opts["games"],
                players=int_list(opts["players"]),
                vault=opts["vault"],
                policies=policies,
                agreement=opts["agreement"],
                last_call_draw=opts["last_call_draw"],
                parties=opts["parties"],
                pacing_guests=int_list(opts["guests"]),
                model=model,
                workers=opts["workers"],
                chunk=opts["chunk"],
                progress=Progress(self.stderr, "simulate"),
            )
        except ValueError as e:
            raise CommandError(str(e)) from None
        self.put_out(report, command, opts, self.text)

    def put_out(
        self, report: dict[str, Any], command: str, opts: dict[str, Any], text: Callable[[dict[str, Any]], str]
    ) -> None:
        """Either game's report out: its folder (--report), then one JSON line (--json)
        or `text`'s summary."""
        report["command"] = command
        if opts["report"]:
            # imported here: only --report needs them (and matplotlib, when plotting)
            if opts["game"] == "royal":
                from tables.simulate.royal.report import write_report as write_royal

                written = write_royal(report, opts["report"], command)
            else:
                from tables.simulate.report import write_report

                written = write_report(report, opts["report"], command)
            for path in written:
                self.stderr.write(f"wrote {path}")
        if opts["json"]:
            self.stdout.write(json.dumps(report, sort_keys=True))
            return
        self.stdout.write(text(report))

    def write_estimates(self, path: Path, source: str) -> None:
        path.write_text(source)
        self.stderr.write(f"wrote {path}")

    def command_line(self, seed: int | str) -> str:
        if sys.argv[1:2] == ["simulate"]:
            return "python manage.py simulate " + " ".join(shlex.quote(a) for a in sys.argv[2:])
        # called from code (call_command): sys.argv is not this command's
        return "python manage.py simulate (called from code, seed " + str(seed) + ")"

    def handle_royal(self, seed: int | str, opts: dict[str, Any]) -> None:
        from tables.simulate.royal.runner import estimate_table as royal_estimate_table
        from tables.simulate.royal.runner import estimates_module as royal_estimates_module
        from tables.simulate.royal.runner import play_sizes, simulate_royal

        for name in ("turn", "window", "trim", "relay", "model", "vault", "last_call_draw"):
            if opts[name]:
                raise CommandError(f"--{name.replace('_', '-')} is Yankee Heist's; Royal Heist has no such setting")
        params = {k: opts[k] for k in ("think", "reveal", "heist_end", "game_start", "gate", "setup", "cv")}
        try:
            model = RoyalPacing.from_dict({k: v for k, v in params.items() if v is not None})
        except ValueError as e:
            raise CommandError(str(e)) from None
        field = tuple(f.strip() for f in opts["field"].split(",") if f.strip())
        players = int_list(opts["players"] if opts["players"] is not None else "3-8")
        guests = int_list(opts["guests"] if opts["guests"] is not None else "8,20,50,100")
        chunk = opts["chunk"] or 250
        command = self.command_line(seed)
        try:
            if opts["estimates"]:
                per_size = play_sizes(
                    seed=seed,
                    games=opts["games"],
                    players=range(3, 9),
                    field=field,
                    workers=opts["workers"],
                    chunk=chunk,
                    progress=Progress(self.stderr, "estimates"),
                )
                games = int_list(opts["party_games"])
                if len(games) != 1:
                    raise CommandError("--estimates needs one --party-games number (the recommended games a party)")
                table = royal_estimate_table(
                    per_size, seed=seed, games=games[0], count=opts["estimate_parties"], model=model
                )
                self.write_estimates(opts["estimates"], royal_estimates_module(table, games[0], command, model))
                return
            report = simulate_royal(
                seed=seed,
                games=opts["games"],
                players=players,
                field=field,
                party_count=opts["parties"],
                party_guests=guests,
                party_games=int_list(opts["party_games"]),
                model=model,
                workers=opts["workers"],
                chunk=chunk,
                progress=Progress(self.stderr, "simulate royal"),
            )
        except ValueError as e:
            raise CommandError(str(e)) from None
        self.put_out(report, command, opts, self.text_royal)

    def text_royal(self, r: dict[str, Any]) -> str:
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
        out.append(timing_line(r["timing"]))
        return "\n".join(out)

    def text(self, r: dict[str, Any]) -> str:
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
        out.append(timing_line(r["timing"]))
        return "\n".join(out)
