#!/usr/bin/env python3
"""Micro-benchmark of the per-action copies of a game: `Game.clone`, `Game.to_dict`,
`Game.from_dict` (and the three together, what one durable action pays).

    python3 bench/game_state.py [--number 20000] [--repeat 7]

The game is a mid-game 10-player table with an open reaction window (the stored
fixture tests/engine/fixtures/stored_games.json, case "reaction_window_10"). Timed in
this process's CPU time (time.process_time: a busy machine distorts it less than the
wall clock). Reported: the best of `--repeat` runs, in µs per call (timeit's convention:
the minimum is the figure least disturbed by other work on the machine), and the median.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.yankee import Game  # noqa: E402

FIXTURE = ROOT / "tests" / "engine" / "fixtures" / "stored_games.json"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--number", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--case", default="reaction_window_10")
    args = ap.parse_args()
    cases = {c["name"]: c for c in json.loads(FIXTURE.read_text())["cases"]}
    d = cases[args.case]["state"]
    g = Game.from_dict(d)
    stmts = {
        "clone": lambda: g.clone(),
        "to_dict": lambda: g.to_dict(),
        "from_dict": lambda: Game.from_dict(d),
        "all three": lambda: Game.from_dict(d).clone().to_dict(),
    }
    print(f"case {args.case}, {args.number} calls x {args.repeat}, load average {os.getloadavg()[0]:.2f}")
    for name, stmt in stmts.items():
        runs = [
            t / args.number * 1e6
            for t in timeit.repeat(stmt, number=args.number, repeat=args.repeat, timer=time.process_time)
        ]
        print(f"{name:>10}: best {min(runs):6.2f} µs, median {statistics.median(runs):6.2f} µs")


if __name__ == "__main__":
    main()
