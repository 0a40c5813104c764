"""Royal Heist's statistics as exact integer sums: chunks merge exactly in any order, so
a seed gives the same report with any number of worker processes.

Kept apart from Yankee Heist's statistics (games/yankee/party/simulate/stats.py) so that neither
game's simulator imports the other's.

- A **win share** is fractional: the k players tied for the biggest bank share the
  win, 1/k each, so the shares of a game add up to 1 and a seat's fair share is 1/n.
  It is kept in units of 1/840 (840 = lcm(1..8)) so it stays an integer.
- Means come with a 95% interval from the normal approximation (mean ± 1.96 sd/√n),
  proportions of yes/no outcomes with Wilson's interval (right even near 0 or 1).
- Lengths (decisions per heist and per game) are kept as histograms of integers, so
  their percentiles are exact.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

from .play import GameResult

Z95 = 1.959963984540054
WIN_UNIT = 840  # lcm(1, ..., 8): a win shared by k <= 8 players is 840 / k units each


def mean_ci(n: int, s: float, ss: float, scale: float = 1.0) -> dict[str, float]:
    """Mean of samples with count n, sum s and sum of squares ss, divided by `scale`,
    and its 95% interval (normal approximation; no interval below 2 samples)."""
    if n == 0:
        nan = float("nan")
        return {"mean": nan, "low": nan, "high": nan, "n": 0}
    m = s / n
    if n < 2:
        return {"mean": m / scale, "low": float("nan"), "high": float("nan"), "n": n}
    var = max((ss - s * s / n) / (n - 1), 0.0)
    half = Z95 * math.sqrt(var / n)
    return {"mean": m / scale, "low": (m - half) / scale, "high": (m + half) / scale, "n": n}


def wilson(k: int, n: int) -> dict[str, float]:
    """k successes in n trials: the proportion and Wilson's 95% score interval."""
    if n == 0:
        nan = float("nan")
        return {"mean": nan, "low": nan, "high": nan, "n": 0}
    p = k / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return {"mean": p, "low": max(0.0, centre - half), "high": min(1.0, centre + half), "n": n}


def percentile(hist: Counter[int], q: float) -> int:
    """The smallest value with at least a share q of the samples at or below it."""
    total = sum(hist.values())
    if not total:
        raise ValueError("no samples")
    need = q * total
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= need:
            return value
    return max(hist)


def describe_lengths(hist: Counter[int]) -> dict[str, float]:
    n = sum(hist.values())
    return {
        "n": n,
        "mean": sum(v * c for v, c in hist.items()) / n,
        "p50": percentile(hist, 0.5),
        "p90": percentile(hist, 0.9),
        "max": max(hist),
    }


class Tally:
    """count, sum, sum of squares of integer samples, and how many were 'yes'."""

    __slots__ = ("n", "s", "ss", "yes")

    def __init__(self) -> None:
        self.n = self.s = self.ss = self.yes = 0

    def add(self, x: int, yes: bool = False) -> None:
        self.n += 1
        self.s += x
        self.ss += x * x
        self.yes += yes

    def merge(self, o: Tally) -> None:
        self.n += o.n
        self.s += o.s
        self.ss += o.ss
        self.yes += o.yes

    def ci(self, scale: float = 1.0) -> dict[str, float]:
        return mean_ci(self.n, self.s, self.ss, scale)

    def to_list(self) -> list[int]:
        return [self.n, self.s, self.ss, self.yes]


class SizeStats:
    """Everything the report needs about the games at one table size."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.games = 0
        self.win: dict[str, Tally] = {}  # strategy -> win units per appearance (yes: won or shared)
        self.bank: dict[str, Tally] = {}  # strategy -> final bank per appearance
        self.seat_win = [Tally() for _ in range(players)]
        self.seat_bank = [Tally() for _ in range(players)]
        self.heist_len: Counter[int] = Counter()  # decisions per heist
        self.game_len: Counter[int] = Counter()  # decisions per game
        self.halves: Counter[tuple[int, int]] = Counter()  # (before the gate, after)
        self.heists = 0
        self.caught = 0  # heists that ended on a repeated danger

    def add(self, g: GameResult) -> None:
        self.games += 1
        units = WIN_UNIT // len(g.winners)
        for s, name in enumerate(g.strategies):
            won = s in g.winners
            self.win.setdefault(name, Tally()).add(units if won else 0, won)
            self.bank.setdefault(name, Tally()).add(g.banks[s])
            self.seat_win[s].add(units if won else 0, won)
            self.seat_bank[s].add(g.banks[s])
        self.heist_len.update(g.decisions)
        self.game_len[sum(g.decisions)] += 1
        self.halves[g.halves()] += 1
        self.heists += len(g.caught)
        self.caught += sum(g.caught)

    def add_all(self, games: Iterable[GameResult]) -> SizeStats:
        for g in games:
            self.add(g)
        return self

    def merge(self, o: SizeStats) -> None:
        self.games += o.games
        for mine, theirs in ((self.win, o.win), (self.bank, o.bank)):
            for name, t in theirs.items():
                mine.setdefault(name, Tally()).merge(t)
        for a, b in zip(self.seat_win + self.seat_bank, o.seat_win + o.seat_bank, strict=True):
            a.merge(b)
        self.heist_len.update(o.heist_len)
        self.game_len.update(o.game_len)
        self.halves.update(o.halves)
        self.heists += o.heists
        self.caught += o.caught

    def summary(self) -> dict[str, Any]:
        """Means and 95% intervals. Per strategy and per seat: the win share (fair: 1/n),
        the share of games won or shared (Wilson), the mean final bank."""
        n = self.players

        def row(win: Tally, bank: Tally) -> dict[str, Any]:
            share = win.ci(WIN_UNIT)
            return {
                "appearances": win.n,
                "win_share": share,
                "won_or_shared": wilson(win.yes, win.n),
                "bank": bank.ci(),
                "vs_fair": "above" if share["low"] > 1 / n else "below" if share["high"] < 1 / n else "even",
            }

        return {
            "players": n,
            "games": self.games,
            "fair_share": 1 / n,
            "strategies": {name: row(self.win[name], self.bank[name]) for name in sorted(self.win)},
            "seats": [row(w, b) for w, b in zip(self.seat_win, self.seat_bank, strict=True)],
            "heist_decisions": describe_lengths(self.heist_len),
            "game_decisions": describe_lengths(self.game_len),
            "caught_share": wilson(self.caught, self.heists),
        }

    def to_raw(self) -> dict[str, Any]:
        """The exact sums, JSON-ready (the report keeps them)."""
        return {
            "players": self.players,
            "games": self.games,
            "win": {k: t.to_list() for k, t in sorted(self.win.items())},
            "bank": {k: t.to_list() for k, t in sorted(self.bank.items())},
            "seat_win": [t.to_list() for t in self.seat_win],
            "seat_bank": [t.to_list() for t in self.seat_bank],
            "heist_len": sorted(self.heist_len.items()),
            "game_len": sorted(self.game_len.items()),
            "halves": sorted([a, b, c] for (a, b), c in self.halves.items()),
            "heists": self.heists,
            "caught": self.caught,
        }
