#!/usr/bin/env python3
"""Benchmark the rules engine: complete random games, single process, one core.

    python3 bench/engine.py --games 2000 --players 10 [--vault 2] [--gate] [--profile]

Every game is set up with `new_game`, then played to the end by the random bots of
`games/yankee/bots.py` (a `random.Random(seed)` per game, so a run is reproducible);
at the party gate a fresh gift is relayed in. Reported:

- games/s      complete games per second, end to end: setup + bots + engine (also
               per CPU second of this process, which a busy machine distorts less);
- applies/s    accepted actions per second, end to end;
- µs/apply     mean time inside `apply` alone (the engine's share, bots excluded);
- engine share of the wall time spent in `apply` + `new_game`.

--profile runs the same games under cProfile and prints the top functions by
internal time (tottime) and by cumulative time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.yankee import Gift, Phase, RelayExchange, apply, new_game  # noqa: E402
from games.yankee.bots import bot_action  # noqa: E402


def setup(players: int, vault: int) -> tuple[list[Gift], list[Gift]]:
    gifts = [Gift(id=s + 1, description=f"gift {s + 1}", brought_by=s) for s in range(players)]
    vault_gifts = [Gift(id=100 + i, description=f"vault gift {i}") for i in range(vault)]
    return gifts, vault_gifts


def play(seed: int, gifts, vault_gifts, gate: bool, clock=time.perf_counter) -> tuple[int, float]:
    """Play one complete game; returns (applies, seconds spent in new_game + apply)."""
    r = random.Random(seed)
    t0 = clock()
    g, _ = new_game(seed=seed, gifts=gifts, vault=vault_gifts, gate=gate)
    engine = clock() - t0
    applies = 0
    relay_id = 10_000
    while g.phase is not Phase.OVER:
        a = bot_action(g, r)
        if a is None:  # at the gate, once the seat is drawn: a gift from the next table
            a = RelayExchange(Gift(id=relay_id, description="relayed gift"))
            relay_id += 1
        t0 = clock()
        g, _ = apply(g, a)
        engine += clock() - t0
        applies += 1
    return applies, engine


def run(games: int, players: int, vault: int, gate: bool, seed: int) -> dict:
    gifts, vault_gifts = setup(players, vault)
    applies = 0
    engine = 0.0
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(games):
        n, e = play(seed + i, gifts, vault_gifts, gate)
        applies += n
        engine += e
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    return {
        "games": games,
        "players": players,
        "vault": vault,
        "gate": gate,
        "seconds": wall,
        "cpu_seconds": cpu,
        "games_per_s": games / wall,
        "games_per_cpu_s": games / cpu,
        "applies": applies,
        "applies_per_game": applies / games,
        "applies_per_s": applies / wall,
        "us_per_apply_engine": 1e6 * engine / applies,
        "us_per_apply_wall": 1e6 * wall / applies,
        "engine_share": engine / wall,
    }


def profile(games: int, players: int, vault: int, gate: bool, seed: int, top: int) -> str:
    """Profile the plain loop (no per-apply timers, which would skew the profile)."""
    gifts, vault_gifts = setup(players, vault)

    def loop():
        for i in range(games):
            r = random.Random(seed + i)
            g, _ = new_game(seed=seed + i, gifts=gifts, vault=vault_gifts, gate=gate)
            relay_id = 10_000
            while g.phase is not Phase.OVER:
                a = bot_action(g, r)
                if a is None:
                    a = RelayExchange(Gift(id=relay_id, description="relayed gift"))
                    relay_id += 1
                g, _ = apply(g, a)

    prof = cProfile.Profile()
    prof.runcall(loop)
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.strip_dirs()
    out.write(f"--- top {top} by internal time (tottime) ---\n")
    stats.sort_stats("tottime").print_stats(top)
    out.write(f"--- top {top} by cumulative time ---\n")
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--players", type=int, default=10, choices=range(2, 11), metavar="2..10")
    p.add_argument("--vault", type=int, default=0, choices=range(0, 4), metavar="0..3")
    p.add_argument("--gate", action="store_true", help="stop after round 2 for the party relay")
    p.add_argument("--seed", type=int, default=1, help="game i uses seed + i")
    p.add_argument("--repeat", type=int, default=1, help="run the benchmark this many times")
    p.add_argument("--profile", action="store_true", help="also run the games under cProfile")
    p.add_argument("--top", type=int, default=25, help="functions to list with --profile")
    p.add_argument("--json", action="store_true", help="print one JSON object per run")
    args = p.parse_args(argv)

    if not args.json:
        load = os.getloadavg() if hasattr(os, "getloadavg") else ("?",) * 3
        print(
            f"python {platform.python_version()} ({platform.python_implementation()}), "
            f"{os.cpu_count()} cpus, load average {' '.join(f'{x:.2f}' for x in load)}"
        )
    for _ in range(args.repeat):
        res = run(args.games, args.players, args.vault, args.gate, args.seed)
        if args.json:
            print(json.dumps(res))
            continue
        print(
            f"{res['games']} games, {res['players']} players, vault {res['vault']}, gate {res['gate']}: "
            f"{res['seconds']:.2f} s\n"
            f"  {res['games_per_s']:8.1f} games/s   ({res['games_per_cpu_s']:.1f} per CPU second: "
            f"{res['cpu_seconds']:.2f} s of CPU)\n"
            f"  {res['applies_per_s']:8.0f} applies/s   ({res['applies_per_game']:.1f} applies per game)\n"
            f"  {res['us_per_apply_engine']:8.1f} µs per apply inside the engine "
            f"({res['us_per_apply_wall']:.1f} µs per apply end to end, engine {100 * res['engine_share']:.0f}% "
            f"of the wall time)"
        )
    if args.profile:
        print(profile(args.games, args.players, args.vault, args.gate, args.seed, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
