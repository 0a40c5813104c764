"""Running Word Heist's simulator: games per table size on every core, then the
figures, the party clock by table size and the lobby's table. I/O here only (processes,
the clock, the dictionary's files through the registered definition)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, cast

from games.registry import game_named
from games.word.definition import STEP_SECONDS, WordDefinition
from games.word.rules import ROUNDS, gate_after
from tables.seating import table_sizes
from tables.simulate.common.output import estimates_source
from tables.simulate.common.runs import Clock, chunk_seed, run_in_order

from .pacing import MAX_GUESTS, WordPacing, party_table
from .play import Policy, TableGame, play_table
from .stats import size_figures

NAME = "word"
CAPS = (4, 5, 6)  # the table sizes a party could be cut into, compared
PARTY_GUESTS = (11, 20, 50, 100)


def _definition() -> WordDefinition:
    return cast(WordDefinition, game_named(NAME))


def _play_chunk(task: tuple[int | str, int, int, int, Policy, str]) -> list[TableGame]:
    seed, players, index, count, policy, language = task
    definition = _definition()
    r = random.Random(chunk_seed(seed, "bots", players, index))
    out = []
    for i in range(count):
        game = play_table(definition, players, chunk_seed(seed, "deal", players, index, i), policy, r, language)
        game.actions = []  # not kept across processes: the report counts, a test replays
        out.append(game)
    return out


def play_sizes(
    *,
    seed: int | str,
    games: int,
    players: Sequence[int],
    policy: Policy,
    language: str,
    workers: int | None,
    chunk: int,
    progress: Any,
) -> dict[int, list[TableGame]]:
    """`games` games per table size, in chunks of `chunk`, the same for any workers."""
    _definition().lexicon(language)  # read once, before the workers fork
    tasks = [
        (seed, n, i, min(chunk, games - i * chunk), policy, language)
        for n in players
        for i in range(-(-games // chunk))
    ]
    by_size: dict[int, list[TableGame]] = {n: [] for n in players}
    total = games * len(players)
    for task, result in zip(
        tasks,
        run_in_order(_play_chunk, tasks, workers or 1, total, len, progress),
        strict=True,
    ):
        by_size[task[1]].extend(result)
    return by_size


def simulate_word(
    *,
    seed: int | str,
    games: int,
    players: Sequence[int],
    policy: Policy,
    language: str,
    parties: int,
    party_guests: Sequence[int],
    model: WordPacing,
    workers: int | None,
    chunk: int,
    progress: Any,
) -> dict[str, Any]:
    clock = Clock.start()
    by_size = play_sizes(
        seed=seed,
        games=games,
        players=players,
        policy=policy,
        language=language,
        workers=workers,
        chunk=chunk,
        progress=progress,
    )
    r = random.Random(chunk_seed(seed, "pacing"))
    clocks = dict(STEP_SECONDS)
    sizes = {n: size_figures(by_size[n], model, clocks, r) for n in players}
    caps = {}
    for cap in (c for c in CAPS if c <= max(players)):
        # only the parties whose every table size was played
        seated = [
            n for n in party_guests if set(table_sizes(n, table_max=cap, min_players=min(players))) <= set(players)
        ]
        caps[cap] = list(
            party_table(
                seated, by_size, model, clocks, r, parties=parties, table_max=cap, gate_after=gate_after(ROUNDS)
            ).values()
        )
    return {
        "game": NAME,
        "seed": seed,
        "games_per_size": games,
        "players": list(players),
        "language": language,
        "policy": {
            "think_of": policy.think_of,
            "max_tokens": policy.max_tokens,
            "halt_rate": policy.halt_rate,
            "quiet": policy.quiet,
        },
        "model": model.to_dict(),
        "clocks": clocks,
        "table_max": _definition().table_max,
        "sizes": {str(n): s for n, s in sizes.items()},
        "parties_by_cap": {str(c): rows for c, rows in caps.items()},
        "timing": {"wall_seconds": clock.wall_seconds(), "cpu_seconds": clock.cpu_seconds(), "workers": workers or 1},
    }


def estimates(
    *, seed: int | str, games: int, policy: Policy, model: WordPacing, parties: int, workers: int | None, command: str
) -> str:
    """The lobby's table (lobby_estimates.py) at the definition's table size."""
    definition = _definition()
    players = list(range(definition.min_players, definition.table_max + 1))
    by_size = play_sizes(
        seed=seed, games=games, players=players, policy=policy, language="en", workers=workers, chunk=100, progress=None
    )
    r = random.Random(chunk_seed(seed, "lobby"))
    table = party_table(
        range(definition.min_players, MAX_GUESTS + 1),
        by_size,
        model,
        dict(STEP_SECONDS),
        r,
        parties=parties,
        table_max=definition.table_max,
        gate_after=gate_after(ROUNDS),
    )
    about = [
        '"""Estimated Word Heist party length in minutes by guest count, one game of three',
        f"rounds at balanced tables of at most {definition.table_max}: (low, high) = the 10th and 90th percentiles",
        "of simulated parties. Generated, do not edit:",
    ]
    return estimates_source(about, command, model.to_dict(), table, f"TABLE_MAX = {definition.table_max}")
