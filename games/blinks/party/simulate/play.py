"""Whole Blinks Heist games played by the engine and its thrower bot, and what a game's
length is at a pace: pure (no clock, no file, no process), every draw from the seed.

Each throw is recorded and confirmed as at a table; a hit lands on a Blink still in the
vault with the success rate, the thief touches the vault on the way back now and then.
A game's minutes: its throws at `throw_seconds` each (walk round, slide, retrieve, the
two taps), and each turn's hand-over `turn_seconds` more."""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.blinks import Phase, Thrower, apply, bot_action, new_game

WINDOW = (30.0, 45.0)  # a party's game, minutes (docs/RULES.md)


@dataclass(frozen=True, slots=True)
class Pace:
    throw_seconds: float = 20.0
    turn_seconds: float = 5.0


@dataclass(frozen=True, slots=True)
class Played:
    throws: int
    turns: int
    skipped: int


def play(
    seed: int | str, players: int, vault: int, alternate: bool, thrower: Thrower, r: random.Random | None = None
) -> Played:
    """One whole game dealt from `seed`, its throws drawn from `r` (default: a generator
    of its own, seeded from `seed`)."""
    g, _ = new_game(seed, players, vault=vault, alternate=alternate)
    r = random.Random(f"throws:{seed}") if r is None else r
    skipped = 0
    while g.phase is not Phase.OVER:
        action = bot_action(g, r, thrower=thrower)
        assert action is not None
        g, events = apply(g, action)
        skipped += sum(e.type == "skipped" for e in events)
    return Played(throws=g.throws, turns=g.turns, skipped=skipped)


def minutes(game: Played, pace: Pace) -> float:
    return (game.throws * pace.throw_seconds + (game.turns - 1) * pace.turn_seconds) / 60


def p90(values: Sequence[float]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


def measure(
    *,
    seed: int | str,
    rates: Sequence[float],
    players: Sequence[int],
    vaults: Sequence[int],
    games: int,
    touch: float,
    alternate: Sequence[bool],
    pace: Pace,
) -> list[dict[str, Any]]:
    """Per rule, rate and table size: the throws a Blink took, the minutes per vault
    Blink, and the vault sizes whose games fit the window (on average long enough, nine
    in ten done in time)."""
    rows = []
    for alt in alternate:
        for rate in rates:
            thrower = Thrower(rate=rate, touch=touch)
            for n in players:
                per_blink: list[float] = []
                per_vault: dict[int, dict[str, float]] = {}
                for vault in vaults:
                    lengths = []
                    for i in range(games):
                        game = play(f"{seed}:{alt}:{rate}:{n}:{vault}:{i}", n, vault, alt, thrower)
                        per_blink.append(game.throws / vault)
                        lengths.append(minutes(game, pace))
                    per_vault[vault] = {"mean": statistics.mean(lengths), "p90": p90(lengths)}
                fits = [v for v, m in per_vault.items() if m["mean"] >= WINDOW[0] and m["p90"] <= WINDOW[1]]
                rows.append(
                    {
                        "rule": "alternate" if alt else "printed",
                        "rate": rate,
                        "players": n,
                        "throws_per_blink": {"mean": statistics.mean(per_blink), "p90": p90(per_blink)},
                        "minutes": {str(v): m for v, m in per_vault.items()},
                        "fits": fits,
                    }
                )
    return rows


def minutes_by_size(
    *,
    seed: int | str,
    rate: float,
    touch: float,
    pace: Pace,
    games: int,
    vaults: Sequence[int],
    players: Sequence[int],
    progress: Callable[[int, int], None] | None = None,
) -> dict[tuple[bool, int, int], tuple[float, float]]:
    """The lobby's table: per (alternate rule, vault, table size), the mean and standard
    deviation of a game's minutes over `games` games at success rate `rate`."""
    thrower = Thrower(rate=rate, touch=touch)
    out: dict[tuple[bool, int, int], tuple[float, float]] = {}
    cells = [(alt, vault, n) for alt in (False, True) for vault in vaults for n in players]
    for done, (alt, vault, n) in enumerate(cells, 1):
        lengths = [minutes(play(f"{seed}:{alt}:{vault}:{n}:{i}", n, vault, alt, thrower), pace) for i in range(games)]
        out[alt, vault, n] = (round(statistics.mean(lengths), 1), round(statistics.pstdev(lengths), 1))
        if progress and done % 20 == 0:
            progress(done, len(cells))
    return out
