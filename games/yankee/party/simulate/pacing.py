"""The party clock: a duration model fed with simulated action counts.

A table's time is the sum of what happens at it, each priced by the model: every turn
(the rulebook: "aim for about 30 seconds to choose an action"), every reaction window
(announce the move, ask each affected player), every trim, and the round-1 reveal
("allow a brief reveal for each person"). A party adds setup ("set up in three
minutes"), then rounds 1-2 at every table at once (the slowest table sets the pace:
everyone waits at the gate), the relay, then rounds 3-4 (again the slowest table).
Each priced step also varies (`cv`: its standard deviation over its mean), drawn per
table from the party's own generator, so the spread covers both the game's randomness
(how many windows and trims) and people's.

All parameters are adjustable; `fit_pacing` fits them to finished parties.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from tables.simulate.common.pacing import draw, model_from_dict, quantiles

from .play import TRIMS, TURNS, WINDOWS, K, PartyResult

TARGET = (30.0, 45.0)  # minutes: the rulebook's event target for a big party


@dataclass(frozen=True, slots=True)
class PacingModel:
    setup: float = 180.0  # seconds, once per party ("set up in three minutes")
    turn: float = 30.0  # seconds per turn ("about 30 seconds to choose an action")
    window: float = 10.0  # seconds per reaction window (announce, ask, answer)
    trim: float = 5.0  # seconds per player trimming to 5
    reveal: float = 10.0  # seconds per guest at the round-1 reveal
    relay: float = 120.0  # seconds for the party relay (announce, draw seats, exchange)
    cv: float = 0.5  # spread of each step: standard deviation / mean

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PacingModel:
        return model_from_dict(cls, d)


def half_seconds(counts: Sequence[float], half: int, players: int, m: PacingModel) -> tuple[float, float]:
    """Mean and variance of one table's time for rounds 1-2 (half 0, with the reveal)
    or rounds 3-4 (half 1), given its action counts."""
    base = half * K
    parts = [
        (counts[base + TURNS], m.turn),
        (counts[base + WINDOWS], m.window),
        (counts[base + TRIMS], m.trim),
    ]
    if half == 0:
        parts.append((players, m.reveal))
    mean = sum(c * s for c, s in parts)
    var = sum(c * (s * m.cv) ** 2 for c, s in parts)
    return mean, var


def party_seconds(p: PartyResult, m: PacingModel, r: random.Random) -> float:
    """One sampled length of this simulated party, in seconds."""
    total = m.setup
    for half in (0, 1):
        total += max(draw(r, *half_seconds(t.counts, half, t.players, m)) for t in p.tables)
    if p.relayed:
        total += m.relay
    return total


def one_table_seconds(counts: list[int], players: int, guests: int, m: PacingModel, r: random.Random) -> float:
    """One table of `guests` (more than the engine's 10 seats: the rulebook's "50-person
    single table"), extrapolated from a simulated table of `players`: every count scales
    with the number of turns, 4 per guest."""
    scale = guests / players
    scaled = [c * scale for c in counts]
    total = m.setup
    for half in (0, 1):
        mean, var = half_seconds(scaled, half, players, m)
        if half == 0:  # the reveal is per guest, not per simulated player
            mean += (guests - players) * m.reveal
            var += (guests - players) * (m.reveal * m.cv) ** 2
        total += draw(r, mean, var)
    return total


def describe_minutes(seconds: list[float]) -> dict[str, Any]:
    """Mean, sd, 10th/50th/90th percentiles in minutes, and the share within the target."""
    mins = [x / 60 for x in seconds]
    n = len(mins)
    mean = sum(mins) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in mins) / (n - 1)) if n > 1 else 0.0
    p10, p50, p90 = quantiles(mins)
    lo, hi = TARGET
    return {
        "parties": n,
        "mean": mean,
        "sd": sd,
        "p10": p10,
        "p50": p50,
        "p90": p90,
        "within_target": sum(lo <= x <= hi for x in mins) / n,
    }
