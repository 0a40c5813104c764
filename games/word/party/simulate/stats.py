"""The simulated tables' figures by table size: pure arithmetic on `TableGame`s."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from tables.simulate.common.pacing import quantiles

from .pacing import WordPacing, table_rounds
from .play import TableGame


def mean_ci(xs: Sequence[float]) -> dict[str, float]:
    """The mean and its 95% interval (normal approximation)."""
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return {"mean": m, "low": m - half, "high": m + half}


def size_figures(
    games: Sequence[TableGame], model: WordPacing, clocks: Mapping[str, float], r: random.Random
) -> dict[str, Any]:
    """One table size: scores, "Halt!" moments, matching words, word length, stand-ins,
    the share of wins by seat, and a table's minutes by the pacing model."""
    players = games[0].players
    rounds = len(games[0].answers["word"])
    seat_rounds = len(games) * players * rounds
    wins = [0.0] * players
    for g in games:
        for s in g.winners:
            wins[s] += 1 / len(g.winners)
    minutes = [sum(table_rounds(g, model, clocks, r)) / 60 for g in games]
    p10, p50, p90 = quantiles(minutes)
    letters = [n for g in games for n in g.word_letters]
    return {
        "players": players,
        "games": len(games),
        "score": mean_ci([float(s) for g in games for s in g.scores]),
        "winning_score": mean_ci([float(max(g.scores)) for g in games]),
        "halts_made_per_seat_round": sum(g.halts_made for g in games) / seat_rounds,
        "halt_moments_per_seat_round": sum(g.halts_caught for g in games) / seat_rounds,
        "halt_moments_per_round": sum(g.halts_caught for g in games) / (len(games) * rounds),
        "matched_per_seat_round": sum(g.matched for g in games) / seat_rounds,
        "word_letters": sum(letters) / len(letters) if letters else 0.0,
        "stand_ins_per_game": sum(g.stand_ins for g in games) / len(games),
        "win_share_by_seat": [w / len(games) for w in wins],
        "shared_wins": sum(1 for g in games if len(g.winners) > 1) / len(games),
        "minutes": {"mean": sum(minutes) / len(minutes), "p10": p10, "p50": p50, "p90": p90},
    }
