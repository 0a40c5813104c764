"""Yankee Heist's simulator: complete games and whole parties with bot players on the
real rules engine, fairness statistics and the party clock (docs/SIMULATION.md). Pure
Python, no Django; I/O only in runner.py (processes, the clock) and report.py (files):

    from games.yankee.party.simulate.runner import simulate
    report = simulate(seed=1, games=1000)          # every core; JSON-ready dict

The host finds it by the game's name (tables/simulate/hook.py): `SIMULATOR`.
"""

from tables.simulate.hook import FitsPacing, GameSimulator

from .hook import YankeeSimulator

_SIMULATOR = YankeeSimulator()
SIMULATOR: GameSimulator = _SIMULATOR
_FITS: FitsPacing = _SIMULATOR  # strict mypy checks that it fits both protocols
