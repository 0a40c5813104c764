"""`simulate()`: the whole report as one plain function, on every core.

The work is cut into fixed chunks, each with its own seed derived from the master seed
and the chunk's identity (never from the worker that runs it), and chunk results are
merged in chunk order with exact integer statistics: the same seed gives the same
report with 1 worker or 16, whatever the scheduling.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from tables.seating import table_sizes
from tables.simulate.common.output import estimates_source
from tables.simulate.common.runs import Clock, chunk_seed, run_in_order

from .pacing import PacingModel, describe_minutes, one_table_seconds, party_seconds
from .play import AGREEMENT, COUNTS, POLICIES, game_seeds, play_party, play_table
from .stats import SizeStats

PACING_GUESTS = (10, 20, 50, 100)

# A work unit and its result: plain tuples, pickled to and from the worker processes
# (their first item names the kind; see _tables_chunk and _parties_chunk).
Task = tuple[Any, ...]
Result = tuple[Any, ...]


def balanced(guests: int, tables: int) -> list[int]:
    base, extra = divmod(guests, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def scenarios(guests: int) -> list[tuple[str, list[int] | None]]:
    """Ways to seat `guests`: one table (extrapolated past 10), the scaling rule's tables,
    and tables of about 5."""
    out: list[tuple[str, list[int] | None]] = [("one table", None)]
    rule = table_sizes(guests)
    if len(rule) > 1:
        out.append((f"scaling rule: {len(rule)} tables", rule))
    fives = balanced(guests, -(-guests // 5))
    if fives != rule and len(fives) > 1:
        out.append((f"{len(fives)} tables of about 5", fives))
    return out


# --- work units (run in worker processes; plain picklable tuples in, plain data out) ---


def _tables_chunk(task: Task) -> Result:
    _, players, vault, policies, agreement, lcd, cseed, count, in_place = task
    stats: SizeStats | None = None
    for s in game_seeds(cseed, count):
        t = play_table(
            seed=s,
            players=players,
            policies=policies,
            vault=vault,
            agreement=agreement,
            last_call_draw=lcd,
            in_place=in_place,
        )
        if stats is None:
            stats = SizeStats(players, t.gifts)
        stats.add(t)
    if stats is None:
        raise ValueError("a chunk plays at least one game")
    return ("tables", players, stats.to_raw(), count)


def _parties_chunk(task: Task) -> Result:
    _, label, guests, sizes, policies, vault, agreement, lcd, cseed, count, model_d = task
    model = PacingModel.from_dict(model_d)
    out: list[float] = []
    for s in game_seeds(cseed, count):
        r = random.Random(s)
        if sizes is None:  # one table: simulate min(guests, 10) players, extrapolate
            players = min(guests, 10)
            t = play_table(
                seed=s, players=players, policies=policies, vault=vault, agreement=agreement, last_call_draw=lcd
            )
            out.append(one_table_seconds(t.counts, players, guests, model, r))
        else:
            p = play_party(seed=s, sizes=sizes, policies=policies, vault=vault, agreement=agreement, last_call_draw=lcd)
            out.append(party_seconds(p, model, r))
    return ("parties", label, guests, out, count)


def _work(task: Task) -> Result:
    return _tables_chunk(task) if task[0] == "tables" else _parties_chunk(task)


def run_tasks(tasks: list[Task], workers: int | None, progress: Callable[[int, int], None] | None) -> Iterator[Result]:
    """Run tasks on `workers` processes (None: every core; 1: in this process), yielding
    results in task order."""
    total = sum(t[-2] for t in tasks)  # games and parties: both tuples end with (count, option)
    workers = workers or os.cpu_count() or 1
    return run_in_order(_work, tasks, workers, total, lambda res: res[-1], progress)  # results end with their count


def simulate(
    *,
    seed: int | str = 1,
    games: int = 1000,
    players: Iterable[int] = range(2, 11),
    vault: int = 0,
    policies: Iterable[str] = ("greedy",),
    agreement: float = AGREEMENT,
    last_call_draw: int = 0,
    parties: int = 200,
    pacing_guests: Iterable[int] = PACING_GUESTS,
    model: PacingModel | None = None,
    workers: int | None = None,
    chunk: int = 500,
    in_place: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play `games` complete games per table size in `players` and `parties` whole
    parties per pacing scenario; return the report as plain data (JSON-ready).

    `policies`: policy names, seat s plays policies[s % len]; `vault`: extra gifts per
    table; `model`: the pacing model; `workers`: processes (None: every core)."""
    model = model or PacingModel()
    policies = tuple(policies)
    for p in policies:
        if p not in POLICIES:
            raise ValueError(f"unknown policy {p!r}: choose from {', '.join(POLICIES)}")
    players = sorted(set(players))
    # No parties: no pacing rows (rather than rows of nothing).
    pacing_guests = list(pacing_guests) if parties else []
    if not players and not pacing_guests:
        raise ValueError("nothing to simulate")
    for n in players:
        if not 2 <= n <= 10:
            raise ValueError(f"a table seats 2 to 10 players, not {n}")
    if not 0 <= vault <= 3:
        raise ValueError(f"a vault holds 0 to 3 gifts, not {vault}")
    if not 0 <= agreement <= 1:
        raise ValueError(f"agreement is between 0 and 1, not {agreement}")
    if not 0 <= last_call_draw <= 5:
        raise ValueError(f"last_call_draw is 0 to 5, not {last_call_draw}")
    if games < 0 or parties < 0 or chunk < 1:
        raise ValueError("games and parties must be >= 0 and chunk >= 1")
    tasks: list[Task] = []
    pol_key = ",".join(policies) + f"/{agreement!r}" + (f"/lcd{last_call_draw}" if last_call_draw else "")
    for n in players:
        for i, start in enumerate(range(0, games, chunk)):
            count = min(chunk, games - start)
            cseed = chunk_seed(seed, "tables", n, vault, pol_key, i)
            tasks.append(("tables", n, vault, policies, agreement, last_call_draw, cseed, count, in_place))
    pchunk = max(1, chunk // 10)
    for guests in pacing_guests:
        for label, sizes in scenarios(guests):
            for i, start in enumerate(range(0, parties, pchunk)):
                count = min(pchunk, parties - start)
                cseed = chunk_seed(seed, "party", guests, label, vault, pol_key, i)
                tasks.append(
                    (
                        "parties",
                        label,
                        guests,
                        sizes,
                        policies,
                        vault,
                        agreement,
                        last_call_draw,
                        cseed,
                        count,
                        model.to_dict(),
                    )
                )

    clock = Clock.start()
    per_size: dict[int, SizeStats] = {}
    lengths: dict[tuple[int, str], list[float]] = {}
    for res in run_tasks(tasks, workers, progress):
        if res[0] == "tables":
            s = SizeStats.from_raw(res[2])
            if res[1] in per_size:
                per_size[res[1]].merge(s)
            else:
                per_size[res[1]] = s
        else:
            lengths.setdefault((res[2], res[1]), []).extend(res[3])
    wall, cpu = clock.wall_seconds(), clock.cpu_seconds()

    sizes_out = {str(n): per_size[n].summary() for n in sorted(per_size)}
    pacing_out = []
    for guests in pacing_guests:
        for label, sizes in scenarios(guests):
            pacing_out.append(
                {
                    "guests": guests,
                    "seating": label,
                    "tables": sizes or [guests],
                    **describe_minutes(lengths[(guests, label)]),
                }
            )
    return {
        "seed": seed,
        "games": games * len(players),
        "games_per_size": games,
        "players": players,
        "vault": vault,
        "policies": list(policies),
        "agreement": agreement,
        "last_call_draw": last_call_draw,
        "counts": list(COUNTS),
        "last_actor": {n: s["last_actor"] for n, s in sizes_out.items()},
        "sizes": sizes_out,
        "raw": {str(n): per_size[n].to_raw() for n in sorted(per_size)},
        "pacing": {"model": model.to_dict(), "parties_per_scenario": parties, "scenarios": pacing_out},
        "timing": {"wall_seconds": wall, "cpu_seconds": cpu, "workers": workers or os.cpu_count()},
    }


def estimate_table(
    *,
    seed: int | str = 1,
    guests: Iterable[int] = range(2, 101),
    parties: int = 60,
    policies: Iterable[str] = ("greedy",),
    agreement: float = AGREEMENT,
    model: PacingModel | None = None,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[int, dict[str, Any]]:
    """Party length for every guest count, seated by the scaling rule: the precomputed
    table the host's lobby reads (lobby_estimates.py)."""
    model = model or PacingModel()
    policies = tuple(policies)
    tasks: list[Task] = []
    step = 20
    for n in guests:
        for i, start in enumerate(range(0, parties, step)):
            count = min(step, parties - start)
            cseed = chunk_seed(seed, "estimate", n, ",".join(policies), agreement, i)
            tasks.append(
                ("parties", "rule", n, table_sizes(n), policies, 0, agreement, 0, cseed, count, model.to_dict())
            )
    lengths: dict[int, list[float]] = {}
    for res in run_tasks(tasks, workers, progress):
        lengths.setdefault(res[2], []).extend(res[3])
    return {n: describe_minutes(xs) for n, xs in sorted(lengths.items())}


def estimates_module(table: dict[int, dict[str, Any]], command: str, model: PacingModel) -> str:
    """The source of lobby_estimates.py for `table`."""
    about = (
        '"""Estimated party length in minutes by guest count (seated by the scaling rule):',
        "(low, high) = the 10th and 90th percentiles of simulated parties. Generated, do not edit:",
    )
    return estimates_source(about, command, model.to_dict(), table)
