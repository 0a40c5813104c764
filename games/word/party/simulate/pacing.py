"""Word Heist's party clock: how long a table's rounds and a party take.

Every step is answered by every seat at once, so a step lasts until its slowest seat
answers, and never past the step's clock (games/word/definition.py STEP_SECONDS: about a
minute for the word and for the halt, the rulebook's): a seat the played game shows
quiet (the clock's stand-in) costs the whole clock. A seat's time is log-normal around
the model's median for the step. The reveal is read before the vote; a party waits for
its slowest table at the gate (after round 1, when it has several tables) and at the
end. Pure: the caller's generator.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from tables.seating import table_sizes
from tables.simulate.common.pacing import model_from_dict, quantiles

from .play import STEPS, TableGame

MAX_GUESTS = 100


@dataclass(frozen=True, slots=True)
class WordPacing:
    """Seconds (medians of a seat's time per step; cv: their spread)."""

    word: float = 30.0  # think of a word the Tableau makes, type it
    clues: float = 10.0  # a few taps
    halt: float = 25.0  # read the clues, think, type
    vote: float = 6.0  # usually nothing to overrule
    reveal: float = 15.0  # the table reads the words and the "Halt!"s
    round_end: float = 10.0  # the scores, the next Tableau
    gate: float = 30.0  # the host opens the gate
    setup: float = 180.0  # joining and seating
    cv: float = 0.5

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> WordPacing:
        return model_from_dict(cls, dict(d))

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


def _seat_seconds(r: random.Random, median: float, cv: float) -> float:
    sigma = math.sqrt(math.log(1 + cv * cv))
    return r.lognormvariate(math.log(median), sigma) if median > 0 else 0.0


def round_seconds(
    game: TableGame, round_index: int, model: WordPacing, clocks: Mapping[str, float], r: random.Random
) -> float:
    """One round of `game` at the table: its four steps, each its slowest seat's time
    (the whole clock when a seat stayed quiet), and the reveal and the round's end."""
    total = model.reveal + model.round_end
    for step in STEPS:
        answered = game.answers[step][round_index]
        median: float = getattr(model, step)
        slowest = max((_seat_seconds(r, median, model.cv) for _ in range(answered)), default=0.0)
        total += clocks[step] if answered < game.players else min(clocks[step], slowest)
    return total


def table_rounds(game: TableGame, model: WordPacing, clocks: Mapping[str, float], r: random.Random) -> list[float]:
    return [round_seconds(game, i, model, clocks, r) for i in range(len(game.answers["word"]))]


def party_minutes(
    guests: int,
    by_size: Mapping[int, Sequence[TableGame]],
    model: WordPacing,
    clocks: Mapping[str, float],
    r: random.Random,
    *,
    table_max: int,
    gate_after: int,
) -> float:
    """One simulated party of `guests` at balanced tables of at most `table_max`: setup,
    the rounds to the gate (the slowest table's), the gate, the rest (the slowest's)."""
    sizes = table_sizes(guests, table_max=table_max, min_players=min(by_size))
    rounds = [table_rounds(r.choice(by_size[n]), model, clocks, r) for n in sizes]
    if len(sizes) == 1:
        return (model.setup + sum(rounds[0])) / 60
    first = max(sum(t[:gate_after]) for t in rounds)
    rest = max(sum(t[gate_after:]) for t in rounds)
    return (model.setup + first + model.gate + rest) / 60


def party_table(
    guest_counts: Sequence[int],
    by_size: Mapping[int, Sequence[TableGame]],
    model: WordPacing,
    clocks: Mapping[str, float],
    r: random.Random,
    *,
    parties: int,
    table_max: int,
    gate_after: int,
) -> dict[int, dict[str, Any]]:
    """Per guest count: its tables, and the mean, p10, p50, p90 minutes of `parties` parties."""
    out: dict[int, dict[str, Any]] = {}
    for n in guest_counts:
        xs = [
            party_minutes(n, by_size, model, clocks, r, table_max=table_max, gate_after=gate_after)
            for _ in range(parties)
        ]
        p10, p50, p90 = quantiles(xs)
        sizes = table_sizes(n, table_max=table_max, min_players=min(by_size))
        out[n] = {
            "guests": n,
            "tables": len(sizes),
            "sizes": sizes,
            "mean": sum(xs) / len(xs),
            "p10": p10,
            "p50": p50,
            "p90": p90,
        }
    return out
