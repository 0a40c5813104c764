"""Royal Heist's clock: minutes per game and per party from simulated decision counts.

A game is a run of decision rounds: everybody inside chooses at once, then the reveal.
A round costs the table the slowest decider's think time plus the reveal animation;
each heist's end adds a summary (who got out with what, who was caught). A party seats
its guests at ceil(n / 8) balanced tables and plays a number of games in a row, the
banks adding up to a running total. With several tables every game stops at its gate
(before heist 3, docs/RULES.md) until the slowest table is there, and the next game
starts when every table has finished, so the slowest table sets each half's pace.

The seconds below are assumptions, not measurements, until live parties are fitted.
Each step also varies (`cv`: standard deviation over mean, as Yankee Heist's model),
drawn per table and half from the party's own generator.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from games.royal import HEISTS, MAX_PLAYERS, MIN_PLAYERS, gate_after
from tables.simulate.common.pacing import draw, model_from_dict, quantiles

# The decide clock is 20 s (games/royal/definition.py); people at a party rarely use it
# all: a glance at the rooms, a tap. The round waits for the slowest phone inside.
THINK_SECONDS = 8.0
# The reveal animation: every choice shown at once, leavers bank, the next room turns up.
REVEAL_SECONDS = 4.0
# A heist's end: who was caught or who got out last, the banks; the next heist's first
# room comes up in the same step (no pause between heists).
HEIST_END_SECONDS = 8.0
# Between games: the winner's screen, the running total, the next game dealt.
GAME_START_SECONDS = 45.0
# A party's gate: the host opens it once the slowest table has arrived.
GATE_SECONDS = 30.0
# Seating the guests and explaining the game: as Yankee Heist's "set up in three minutes".
SETUP_SECONDS = 180.0
STEP_CV = 0.5  # each step's spread, standard deviation / mean (as Yankee Heist's model)

TARGET = (30.0, 45.0)  # minutes: a Yankee Heist party's length (docs/SIMULATION.md)
MAX_GUESTS = 100


@dataclass(frozen=True, slots=True)
class RoyalPacing:
    think: float = THINK_SECONDS
    reveal: float = REVEAL_SECONDS
    heist_end: float = HEIST_END_SECONDS
    game_start: float = GAME_START_SECONDS
    gate: float = GATE_SECONDS
    setup: float = SETUP_SECONDS
    cv: float = STEP_CV

    def to_dict(self) -> dict[str, float]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RoyalPacing:
        return model_from_dict(cls, d)


def table_sizes(guests: int) -> list[int]:
    """ceil(n / 8) tables whose sizes differ by at most one, larger first: 20 -> [7, 7, 6].
    From 17 guests every table seats 5 to 8; 9 guests make 5 + 4."""
    if not MIN_PLAYERS <= guests <= MAX_GUESTS:
        raise ValueError(f"a Royal Heist party seats {MIN_PLAYERS} to {MAX_GUESTS} guests, not {guests}")
    t = -(-guests // MAX_PLAYERS)
    base, extra = divmod(guests, t)
    return [base + 1] * extra + [base] * (t - extra)


def half_seconds(decisions: int, heists: int, m: RoyalPacing) -> tuple[float, float]:
    """Mean and variance of a table's time for `decisions` rounds over `heists` heists."""
    per_round = m.think + m.reveal
    mean = decisions * per_round + heists * m.heist_end
    var = decisions * (per_round * m.cv) ** 2 + heists * (m.heist_end * m.cv) ** 2
    return mean, var


HALF_HEISTS = (gate_after(HEISTS), HEISTS - gate_after(HEISTS))  # 2 before the gate, 3 after


def game_seconds(halves: tuple[int, int], m: RoyalPacing, r: random.Random) -> float:
    """One sampled length of one table's game (no gate, no setup), in seconds."""
    return m.game_start + sum(draw(r, *half_seconds(d, h, m)) for d, h in zip(halves, HALF_HEISTS, strict=True))


def party_seconds(
    sizes: Sequence[int],
    games: int,
    samples: Mapping[int, Sequence[tuple[int, int]]],
    m: RoyalPacing,
    r: random.Random,
) -> float:
    """One sampled party: setup, then `games` games at every table at once. Each table's
    game is a simulated game of its size drawn from `samples` (its decisions before and
    after the gate); with several tables the slowest sets the pace of each half."""
    total = m.setup
    for _ in range(games):
        total += m.game_start
        played = [samples[n][int(r.random() * len(samples[n]))] for n in sizes]
        for half, heists in enumerate(HALF_HEISTS):
            total += max(draw(r, *half_seconds(h[half], heists, m)) for h in played)
        if len(sizes) > 1:
            total += m.gate
    return total


def describe_minutes(seconds: Sequence[float]) -> dict[str, float]:
    """Mean, 10th/50th/90th percentiles in minutes, and the share within the target."""
    mins = [x / 60 for x in seconds]
    p10, p50, p90 = quantiles(mins)
    lo, hi = TARGET
    return {
        "n": len(mins),
        "mean": sum(mins) / len(mins),
        "p10": p10,
        "p50": p50,
        "p90": p90,
        "within_target": sum(lo <= x <= hi for x in mins) / len(mins),
    }


def recommend_games(rows: Sequence[dict[str, Any]]) -> int:
    """The most games a party can play with its 90th percentile inside the target's top
    at every guest count measured (rows: {"games", "p90", ...}); at least 1."""
    best = 1
    for g in sorted({int(r["games"]) for r in rows}):
        if all(r["p90"] <= TARGET[1] for r in rows if r["games"] == g):
            best = g
    return best
