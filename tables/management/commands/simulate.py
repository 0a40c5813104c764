"""manage.py simulate: a game's simulator report (a thin layer over the game's simulator
hook, tables/simulate/hook.py; see docs/SIMULATION.md)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from argparse import ArgumentParser
from dataclasses import replace
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, OutputWrapper

from games.registry import DEFAULT_GAME, GAMES
from tables.simulate.hook import GameSimulator, Run, simulator_of

# The host's own options, the same for every game; each game adds its own.
HOST_OPTIONS = frozenset(
    {"game", "games", "players", "parties", "guests", "seed", "workers", "chunk", "json", "report", "estimates"}
    | {"estimate_parties"}
)


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


class GameOptions:
    """One game's options group: an option another game declared already is shared (the
    same flag, the same meaning: e.g. --setup, seconds to set a party up). Records the
    options each game declared, by their dest."""

    def __init__(self, parser: ArgumentParser, game: str, owners: dict[str, set[str]]) -> None:
        self.parser = parser
        self.group = parser.add_argument_group(f"{GAMES[game].title} (--game {game})")
        self.game = game
        self.owners = owners

    def add_argument(self, *flags: str, **settings: Any) -> object:
        try:
            action = self.group.add_argument(*flags, **settings)
        except argparse.ArgumentError:  # declared by another game already: shared
            dest = flags[0].lstrip("-").replace("-", "_")
        else:
            dest = action.dest
        self.owners.setdefault(dest, set()).add(self.game)
        return dest


class Command(BaseCommand):
    help = "Simulate complete games with bot players: the game's fairness and pacing report."

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.owners: dict[str, set[str]] = {}  # option dest -> the games that declared it

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--game",
            default=DEFAULT_GAME,
            help=f"which game to simulate (default {DEFAULT_GAME}): any registered game with a simulator",
        )
        parser.add_argument("--games", type=int, help="games per table size (default 2000)")
        parser.add_argument("--players", help="table sizes, e.g. 2-10 or 4,6 (default: every size the game seats)")
        parser.add_argument("--parties", type=int, help="parties per pacing row (default 200)")
        parser.add_argument("--guests", help="party sizes for the pacing report ('' for none; default: the game's)")
        parser.add_argument("--seed", default="1", help="master seed: the same seed gives the same report")
        parser.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
        parser.add_argument("--chunk", type=int, help="games per work unit (part of what a seed fixes)")
        parser.add_argument("--json", action="store_true", help="print the report as one JSON object on the last line")
        parser.add_argument("--report", type=Path, help="write JSON, CSV, PNG plots and RESULTS.md to this folder")
        parser.add_argument(
            "--estimates", type=Path, help="write the lobby's estimate table (a Python module) to this path, then stop"
        )
        parser.add_argument("--estimate-parties", type=int, default=60, help="parties per guest count for --estimates")
        for name in GAMES:
            simulator = simulator_of(name)
            if simulator is not None:
                simulator.add_arguments(GameOptions(parser, name, self.owners))

    def simulator(self, game: str) -> GameSimulator:
        if game not in GAMES:
            raise CommandError(f"no game named {game!r}: choose from {', '.join(GAMES)}")
        simulator = simulator_of(game)
        if simulator is None:
            have = [name for name in GAMES if simulator_of(name) is not None]
            raise CommandError(
                f"the game {game!r} has no simulator (games/<name>/party/simulate/, docs/SIMULATION.md): "
                f"games with one: {', '.join(have) or 'none'}"
            )
        return simulator

    def handle(self, *args: Any, **opts: Any) -> None:
        game = opts["game"]
        simulator = self.simulator(game)
        # An option of another game's simulator, given here, would be silently ignored.
        for dest, owners in sorted(self.owners.items()):
            if game not in owners and opts.get(dest) is not None:
                flag = "--" + dest.replace("_", "-")
                raise CommandError(f"{flag} is an option of {', '.join(sorted(owners))}'s simulator, not {game}'s")
        options = {dest: opts.get(dest) for dest, owners in self.owners.items() if game in owners}
        seed = opts["seed"]
        seed = int(seed) if seed.lstrip("-").isdigit() else seed
        run = Run(
            seed=seed,
            workers=opts["workers"],
            games=opts["games"],
            players=opts["players"],
            parties=opts["parties"],
            guests=opts["guests"],
            chunk=opts["chunk"],
            progress=None,
        )
        command = self.command_line(seed)
        try:
            if opts["estimates"]:
                run = replace(run, progress=Progress(self.stderr, f"estimates {game}"))
                source = simulator.estimates(run, options, parties=opts["estimate_parties"], command=command)
                opts["estimates"].write_text(source)
                self.stderr.write(f"wrote {opts['estimates']}")
                return
            run = replace(run, progress=Progress(self.stderr, f"simulate {game}"))
            report = simulator.simulate(run, options)
        except ValueError as e:
            raise CommandError(str(e)) from None
        report["command"] = command
        if opts["report"]:
            for path in simulator.write_report(report, opts["report"], command):
                self.stderr.write(f"wrote {path}")
        if opts["json"]:
            self.stdout.write(json.dumps(report, sort_keys=True))
            return
        self.stdout.write(simulator.summary(report) + "\n" + timing_line(report["timing"]))

    def command_line(self, seed: int | str) -> str:
        if sys.argv[1:2] == ["simulate"]:
            return "python manage.py simulate " + " ".join(shlex.quote(a) for a in sys.argv[2:])
        # called from code (call_command): sys.argv is not this command's
        return "python manage.py simulate (called from code, seed " + str(seed) + ")"
