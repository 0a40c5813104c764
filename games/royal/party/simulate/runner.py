"""`simulate_royal()`: Royal Heist's whole report as one function, on every core.

As Yankee Heist's runner: fixed chunks, each seeded from the master seed and the
chunk's identity (never the worker), merged in chunk order as exact integer sums, so a
seed gives the same report with any number of processes. The parties are sampled in
this process from the merged games, with their own seeded generator.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from tables.simulate.common.output import estimates_source
from tables.simulate.common.runs import Clock, chunk_seed, run_in_order

from .pacing import MAX_GUESTS, RoyalPacing, describe_minutes, game_seconds, party_seconds, recommend_games, table_sizes
from .play import game_seeds, play_game
from .stats import SizeStats
from .strategies import DEFAULT_FIELD, check, describe

PARTY_GUESTS = (8, 20, 50, 100)
PARTY_GAMES = (1, 2, 3, 4, 5, 6, 7, 8)
GAME_SAMPLES = 2000  # sampled one-table games per size for the minutes per game

Task = tuple[int, tuple[str, ...], int, int]  # players, field, chunk seed, games


def _play_chunk(task: Task) -> SizeStats:
    players, field, cseed, count = task
    stats = SizeStats(players)
    for s in game_seeds(cseed, count):
        stats.add(play_game(seed=s, players=players, field=field))
    return stats


def _run(tasks: list[Task], workers: int, progress: Callable[[int, int], None] | None) -> Iterator[SizeStats]:
    return run_in_order(_play_chunk, tasks, workers, sum(t[-1] for t in tasks), lambda res: res.games, progress)


def play_sizes(
    *,
    seed: int | str,
    games: int,
    players: Iterable[int],
    field: Sequence[str],
    workers: int | None,
    chunk: int,
    progress: Callable[[int, int], None] | None,
) -> dict[int, SizeStats]:
    field = tuple(check(f) for f in field)
    tasks: list[Task] = []
    for n in players:
        for i, start in enumerate(range(0, games, chunk)):
            tasks.append((n, field, chunk_seed(seed, "royal", n, ",".join(field), i), min(chunk, games - start)))
    out: dict[int, SizeStats] = {}
    for res in _run(tasks, workers or os.cpu_count() or 1, progress):
        if res.players in out:
            out[res.players].merge(res)
        else:
            out[res.players] = res
    return out


def _samples(per_size: dict[int, SizeStats]) -> dict[int, list[tuple[int, int]]]:
    """Every simulated game's (decisions before the gate, after), in a fixed order."""
    return {n: [h for h, c in sorted(s.halves.items()) for _ in range(c)] for n, s in per_size.items()}


def parties(
    per_size: dict[int, SizeStats],
    *,
    seed: int | str,
    guests: Iterable[int],
    games: Iterable[int],
    count: int,
    model: RoyalPacing,
) -> list[dict[str, Any]]:
    """`count` sampled parties per (guests, games per party)."""
    samples = _samples(per_size)
    rows = []
    for n in guests:
        sizes = table_sizes(n)
        missing = sorted(set(sizes) - set(samples))
        if missing:
            raise ValueError(f"{n} guests sit at tables of {missing}: simulate those sizes too")
        for g in games:
            r = random.Random(chunk_seed(seed, "royal-party", n, g))
            lengths = [party_seconds(sizes, g, samples, model, r) for _ in range(count)]
            rows.append({"guests": n, "tables": sizes, "games": g, **describe_minutes(lengths)})
    return rows


def simulate_royal(
    *,
    seed: int | str = 1,
    games: int = 2000,
    players: Iterable[int] = range(3, 9),
    field: Sequence[str] = DEFAULT_FIELD,
    party_count: int = 200,
    party_guests: Iterable[int] = PARTY_GUESTS,
    party_games: Iterable[int] = PARTY_GAMES,
    model: RoyalPacing | None = None,
    workers: int | None = None,
    chunk: int = 250,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play `games` games per table size with seats drawn from `field`, then sample
    `party_count` parties per guest count and games per party. JSON-ready."""
    model = model or RoyalPacing()
    players = sorted(set(players))
    for n in players:
        if not 3 <= n <= 8:
            raise ValueError(f"a Royal Heist table seats 3 to 8 players, not {n}")
    if games < 1 or chunk < 1 or party_count < 0:
        raise ValueError("games and chunk must be >= 1, parties >= 0")
    if not field:
        raise ValueError("the field needs at least one strategy")
    party_guests, party_games = list(party_guests), list(party_games)
    for n in party_guests:
        if not 3 <= n <= MAX_GUESTS:
            raise ValueError(f"a Royal Heist party seats 3 to {MAX_GUESTS} guests, not {n}")
    clock = Clock.start()
    per_size = play_sizes(
        seed=seed, games=games, players=players, field=field, workers=workers, chunk=chunk, progress=progress
    )
    minutes = {}
    for n, s in per_size.items():
        r = random.Random(chunk_seed(seed, "royal-game-minutes", n))
        sample = _samples({n: s})[n]
        draws = [game_seconds(sample[int(r.random() * len(sample))], model, r) for _ in range(GAME_SAMPLES)]
        minutes[str(n)] = describe_minutes(draws)
    rows = (
        parties(per_size, seed=seed, guests=party_guests, games=party_games, count=party_count, model=model)
        if party_count and party_guests
        else []
    )
    cpu = clock.cpu_seconds()
    return {
        "game": "royal",
        "seed": seed,
        "games_per_size": games,
        "players": players,
        "field": list(field),
        "strategies": {name: describe(name) for name in field},
        "sizes": {str(n): per_size[n].summary() for n in sorted(per_size)},
        "game_minutes": minutes,
        "pacing": {
            "model": model.to_dict(),
            "parties_per_row": party_count,
            "parties": rows,
            "recommended_games": recommend_games(rows) if rows else None,
        },
        "raw": {str(n): per_size[n].to_raw() for n in sorted(per_size)},
        "timing": {
            "wall_seconds": clock.wall_seconds(),
            "cpu_seconds": cpu,
            "workers": workers or os.cpu_count(),
        },
    }


def estimate_table(
    per_size: dict[int, SizeStats],
    *,
    seed: int | str,
    games: int,
    count: int,
    model: RoyalPacing,
    guests: Iterable[int] = range(3, MAX_GUESTS + 1),
) -> dict[int, dict[str, Any]]:
    """The lobby's table: party minutes for every guest count at `games` games a party."""
    rows = parties(per_size, seed=seed, guests=guests, games=[games], count=count, model=model)
    return {int(r["guests"]): r for r in rows}


def estimates_module(table: dict[int, dict[str, Any]], games: int, command: str, model: RoyalPacing) -> str:
    """The source of lobby_estimates*.py for `table` (one module per
    number of games a party's tables play in a row)."""
    about = (
        f'"""Estimated Royal Heist party length in minutes by guest count, {games} game{"s" if games > 1 else ""} a party, at',
        "ceil(n / 8) balanced tables: (low, high) = the 10th and 90th percentiles of simulated",
        "parties. Generated, do not edit:",
    )
    return estimates_source(about, command, model.to_dict(), table, f"GAMES = {games}")
