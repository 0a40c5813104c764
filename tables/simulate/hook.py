"""What the simulator asks of a game: its simulator hook.

A game that can be simulated exports `SIMULATOR` from `<package>.party.simulate`
(docs/SIMULATION.md), found by name through the registry (`simulator_of`). The host's
parts (`manage.py simulate`, the lobby's estimate, `manage.py fit_pacing`) speak to a
game only through this protocol: its bots, policies, statistics, pacing model and the
lobby's precomputed table are the game's own.

The hook is pure as the rest of the simulator (the `pure-simulator` contract): no
Django, no database, no network. Its runner may use processes and its report files.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast, runtime_checkable

from games.registry import GAMES, part_of

from .played import PlayedTable

# The simulator's progress: (done, total) work units, at most every few seconds.
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Run:
    """What the host's command line says about any game's run: the master seed, the
    processes, games per table size, the table sizes (e.g. "2-10"), parties per row,
    the party sizes ("" for none), the work unit; None: the game's default."""

    seed: int | str
    workers: int | None
    games: int | None
    players: str | None
    parties: int | None
    guests: str | None
    chunk: int | None
    progress: Progress | None


class Options(Protocol):
    """Where a game adds its command-line options: argparse's `add_argument`."""

    def add_argument(self, *flags: str, **settings: Any) -> object: ...


class GameSimulator(Protocol):
    """A game's simulator hook. `options` are the parsed values of the options the game
    added in `add_arguments` (by their `dest`), a value left unset None."""

    def add_arguments(self, group: Options) -> None:
        """The game's own options (its policies, its pacing model's parameters), each
        with default None. An option another game added already is shared."""
        ...

    def simulate(self, run: Run, options: Mapping[str, Any]) -> dict[str, Any]:
        """The whole report as plain data (JSON-ready); ValueError for bad options."""
        ...

    def summary(self, report: dict[str, Any]) -> str:
        """The report in a few lines for the terminal."""
        ...

    def write_report(self, report: dict[str, Any], folder: Path, command: str) -> list[Path]:
        """report.json, its CSVs, RESULTS.md and plots in `folder`: the paths written."""
        ...

    def estimates(self, run: Run, options: Mapping[str, Any], *, parties: int, command: str) -> str:
        """The source of the lobby's precomputed table (a Python module), `parties`
        simulated parties per guest count, `command` the line that made it."""
        ...

    def lobby_estimate(self, *, guests: int, games: int) -> dict[str, Any] | None:
        """{"guests", "tables", "low", "high"} (minutes) for the host's lobby, read from
        the precomputed table, never simulated per request; None where not tabulated."""
        ...


@runtime_checkable
class EstimatesWithOptions(Protocol):
    """A simulator whose lobby estimate depends on the host's choices of the game's rules
    (games.definition.TakesHostOptions: a vault's size): the lobby asks this instead
    of `lobby_estimate`, with the party's options (their defaults where unset)."""

    def lobby_estimate_with(self, *, guests: int, games: int, options: Mapping[str, Any]) -> dict[str, Any] | None: ...


@runtime_checkable
class FitsPacing(Protocol):
    """A simulator whose pacing model can be fitted to finished parties (fit_pacing)."""

    def fit_pacing(self, parties: Sequence[Sequence[PlayedTable]]) -> dict[str, Any]:
        """{"model": {...}, "observed": {...}, "defaulted": [...]}: the pacing model's
        parameters from the parties' tables (a party with no table is left out)."""
        ...


def simulator_of(game: str) -> GameSimulator | None:
    """The simulator hook of the game named `game`, or None when it has none (LookupError
    for a game nobody registered)."""
    module = part_of(game, "simulate")
    if module is None:
        return None
    return cast(GameSimulator, module.SIMULATOR)


def simulated_games() -> list[str]:
    """Every registered game that has a simulator hook, in the registry's order."""
    return [name for name in GAMES if simulator_of(name) is not None]
