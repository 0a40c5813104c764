"""Blinks Heist: how long a table takes to empty its vault, to size the vault for a party.

Plays whole games with the engine (games/blinks) and its thrower bot: each throw is
recorded and confirmed as at a table, hits land on a Blink still in the vault with the
success rate given, and the thief touches the vault on the way back now and then. It
prints, per success rate and rule, the throws each Blink took (4 hits, and the misses
between), the table's minutes at an assumed pace, and the vault sizes whose game fits a
party's 30-45 minutes. Pure simulation: no server, no database; the figures in
docs/RULES.md ("Blinks Heist", "The vault's size") are its output.

    .venv/bin/python bench/blinks_vault.py                      # the reference run
    .venv/bin/python bench/blinks_vault.py --rates 0.4 --players 8 --games 400

The pace: a throw (walk round to an angle, slide, retrieve the thief, the thrower's tap
and the captain's) takes --throw-seconds; handing the turn to the next thrower
--turn-seconds more; a skipped turn costs nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.blinks import Thrower
from games.blinks.party.simulate.play import WINDOW, p90, play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rates", type=float, nargs="+", default=[0.3, 0.4, 0.5, 0.6, 0.7])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--vaults", type=int, nargs="+", default=list(range(3, 31)))
    parser.add_argument("--games", type=int, default=100, help="games per rate, rule and vault size")
    parser.add_argument("--touch", type=float, default=0.05, help="chance a retrieval touches the vault")
    parser.add_argument("--throw-seconds", type=float, default=20.0)
    parser.add_argument("--turn-seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    print(
        f"{args.players} players, {args.games} games each, touch {args.touch}, "
        f"a throw {args.throw_seconds:g} s, a turn's hand-over {args.turn_seconds:g} s"
    )
    print(
        f"{'rule':<9} {'rate':>4} {'throws/Blink':>12} {'p90':>5} {'min/Blink':>9}  vault for {WINDOW[0]:g}-{WINDOW[1]:g} min"
    )
    for alternate in (False, True):
        for rate in args.rates:
            thrower = Thrower(rate=rate, touch=args.touch)
            per_blink: list[float] = []
            fits: list[int] = []
            minutes_per_blink: list[float] = []
            for vault in args.vaults:
                minutes = []
                for i in range(args.games):
                    seed = hash((args.seed, alternate, rate, vault, i)) & 0xFFFFFFFF
                    game = play(seed, args.players, vault, alternate, thrower, random.Random(seed))
                    per_blink.append(game.throws / vault)
                    seconds = game.throws * args.throw_seconds + (game.turns - 1) * args.turn_seconds
                    minutes.append(seconds / 60)
                minutes_per_blink.append(statistics.mean(minutes) / vault)
                # fits: on average long enough, and nine tables in ten done in time
                if statistics.mean(minutes) >= WINDOW[0] and p90(minutes) <= WINDOW[1]:
                    fits.append(vault)
            rule = "alternate" if alternate else "printed"
            span = f"{min(fits)}-{max(fits)}" if fits else "none of those tried"
            print(
                f"{rule:<9} {rate:>4.2f} {statistics.mean(per_blink):>12.2f} {p90(per_blink):>5.1f} "
                f"{statistics.mean(minutes_per_blink):>9.2f}  {span}"
            )


if __name__ == "__main__":
    main()
