"""Fairness statistics over simulated tables, as exact sufficient statistics.

Every figure is kept as integer counts, sums and sums of squares (ranks are integers),
so chunks merge exactly in any order and a seed reproduces a report to the last digit
whatever the number of worker processes. `summary` turns them into means with 95%
confidence intervals.

Per game and seat, `rank` is how many of the table's gifts (held and vault) the player
values below the gift it ends with: 0 (it got its least favourite) to m - 1 (its
favourite). Reported normalised, rank / (m - 1): 0.5 is what a random deal gives.
The last-actor effect is paired within each game, last actor against the mean of the
other seats at the same table, so the seats' ranks within a game (which are not
independent: they share the gifts) never inflate the confidence.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .play import BLOCKS, COMEBACKS, COUNTS, SWAPS, K, TableResult

Z95 = 1.959963984540054


class Moments:
    """count, sum and sum of squares of integer samples: exact and mergeable."""

    __slots__ = ("n", "s", "ss")

    def __init__(self, n: int = 0, s: int = 0, ss: int = 0) -> None:
        self.n, self.s, self.ss = n, s, ss

    def add(self, x: int) -> None:
        self.n += 1
        self.s += x
        self.ss += x * x

    def merge(self, o: Moments) -> None:
        self.n += o.n
        self.s += o.s
        self.ss += o.ss

    def mean(self, scale: float = 1.0) -> float:
        return self.s / self.n / scale if self.n else float("nan")

    def sd(self, scale: float = 1.0) -> float:
        if self.n < 2:
            return float("nan")
        var = (self.ss - self.s * self.s / self.n) / (self.n - 1)
        return math.sqrt(max(var, 0.0)) / scale

    def ci(self, scale: float = 1.0) -> dict[str, Any]:
        """Mean and its 95% confidence interval (normal approximation), in units / scale."""
        m = self.mean(scale)
        half = Z95 * self.sd(scale) / math.sqrt(self.n) if self.n >= 2 else float("nan")
        return {"mean": m, "low": m - half, "high": m + half, "n": self.n}

    def to_list(self) -> list[int]:
        return [self.n, self.s, self.ss]

    @classmethod
    def from_list(cls, x: Sequence[int]) -> Moments:
        return cls(*x)


class SizeStats:
    """Everything the report needs about tables of one size (players, gifts)."""

    def __init__(self, players: int, gifts: int) -> None:
        n = players
        self.players, self.gifts = n, gifts
        self.games = 0
        self.by_seat = [Moments() for _ in range(n)]
        self.by_order = [Moments() for _ in range(n)]  # position in round 1's order
        self.last = Moments()  # last actor's rank
        self.others = Moments()  # every other seat's rank
        # Paired per game: (n - 1) * rank(x) - sum of the other seats' ranks.
        self.last_vs_rest = Moments()
        self.seat0_vs_rest = Moments()
        self.last_favourite = 0  # last actor ends with its favourite gift at the table
        self.others_favourite = 0
        self.kept_dealt = 0  # players ending with the gift dealt to them
        self.per_game = [Moments() for _ in range(2 * K)]  # COUNTS per half, per game

    def add(self, t: TableResult) -> None:
        n, ranks = t.players, t.ranks
        self.games += 1
        total = sum(ranks)
        top = t.gifts - 1
        for s in range(n):
            self.by_seat[s].add(ranks[s])
            self.by_order[(s - t.starter) % n].add(ranks[s])
            if s == t.last:
                self.last.add(ranks[s])
                self.last_favourite += ranks[s] == top
            else:
                self.others.add(ranks[s])
                self.others_favourite += ranks[s] == top
            self.kept_dealt += t.final[s] == t.dealt[s]
        self.last_vs_rest.add(n * ranks[t.last] - total)
        self.seat0_vs_rest.add(n * ranks[0] - total)
        for k in range(2 * K):
            self.per_game[k].add(t.counts[k])

    def merge(self, o: SizeStats) -> None:
        self.games += o.games
        for a, b in zip(self.by_seat, o.by_seat, strict=False):
            a.merge(b)
        for a, b in zip(self.by_order, o.by_order, strict=False):
            a.merge(b)
        for name in ("last", "others", "last_vs_rest", "seat0_vs_rest"):
            getattr(self, name).merge(getattr(o, name))
        self.last_favourite += o.last_favourite
        self.others_favourite += o.others_favourite
        self.kept_dealt += o.kept_dealt
        for a, b in zip(self.per_game, o.per_game, strict=False):
            a.merge(b)

    def to_raw(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "gifts": self.gifts,
            "games": self.games,
            "by_seat": [m.to_list() for m in self.by_seat],
            "by_order": [m.to_list() for m in self.by_order],
            "last": self.last.to_list(),
            "others": self.others.to_list(),
            "last_vs_rest": self.last_vs_rest.to_list(),
            "seat0_vs_rest": self.seat0_vs_rest.to_list(),
            "last_favourite": self.last_favourite,
            "others_favourite": self.others_favourite,
            "kept_dealt": self.kept_dealt,
            "per_game": [m.to_list() for m in self.per_game],
        }

    @classmethod
    def from_raw(cls, d: dict[str, Any]) -> SizeStats:
        s = cls(d["players"], d["gifts"])
        s.games = d["games"]
        s.by_seat = [Moments.from_list(x) for x in d["by_seat"]]
        s.by_order = [Moments.from_list(x) for x in d["by_order"]]
        for name in ("last", "others", "last_vs_rest", "seat0_vs_rest"):
            setattr(s, name, Moments.from_list(d[name]))
        s.last_favourite = d["last_favourite"]
        s.others_favourite = d["others_favourite"]
        s.kept_dealt = d["kept_dealt"]
        s.per_game = [Moments.from_list(x) for x in d["per_game"]]
        return s

    def summary(self) -> dict[str, Any]:
        """Means and 95% CIs, ranks normalised to 0..1 (0.5: a random deal)."""
        n, top = self.players, max(self.gifts - 1, 1)
        pair = (n - 1) * top  # (n-1) * rank_last - sum(others) over (n-1): normalised
        last = self.last_vs_rest.ci(pair)
        fav_last = self.last_favourite / self.games if self.games else float("nan")
        fav_others = self.others_favourite / max(self.others.n, 1)

        def prop_ci(k: int, m: int) -> dict[str, Any]:
            p = k / m if m else float("nan")
            half = Z95 * math.sqrt(p * (1 - p) / m) if m else float("nan")
            return {"mean": p, "low": p - half, "high": p + half, "n": m}

        def per_game(k: int) -> dict[str, Any]:
            both = Moments()
            # per-game totals are sums of the two halves: sum the halves' means exactly
            both.n = self.per_game[k].n
            both.s = self.per_game[k].s + self.per_game[K + k].s
            return {
                "mean": both.mean(),
                "first_half": self.per_game[k].mean(),
                "second_half": self.per_game[K + k].mean(),
            }

        return {
            "players": n,
            "gifts": self.gifts,
            "games": self.games,
            "rank_by_seat": [m.ci(top) for m in self.by_seat],
            "rank_by_order": [m.ci(top) for m in self.by_order],
            "last_actor": {
                "rank": self.last.ci(top),
                "others_rank": self.others.ci(top),
                "advantage": last,  # last actor minus the mean of the others, paired per game
                "real": bool(last["low"] > 0 or last["high"] < 0),
                "favourite": prop_ci(self.last_favourite, self.games),
                "others_favourite": prop_ci(self.others_favourite, self.others.n),
                "fair_share": 1 / self.gifts,
                "favourite_ratio": fav_last / fav_others if fav_others else float("nan"),
            },
            "seat0_vs_rest": self.seat0_vs_rest.ci(pair),
            "kept_dealt": self.kept_dealt / (self.games * n) if self.games else float("nan"),
            "per_game": {name: per_game(k) for k, name in enumerate(COUNTS)},
            "blocks": per_game(BLOCKS)["mean"],
            "comebacks": per_game(COMEBACKS)["mean"],
            "swaps": per_game(SWAPS)["mean"],
        }
