"""Royal Heist's simulator: complete games with strategy bots on the real engine
(games.royal), strategies head to head, seat advantage, game length and the party
clock. Pure Python, no Django; I/O only in runner.py (processes, clock) and report.py.
It imports nothing of another game (pyproject.toml's contracts):

    from games.royal.party.simulate.runner import simulate_royal
    report = simulate_royal(seed=1, games=2000)     # every core; JSON-ready dict

The host finds it by the game's name (tables/simulate/hook.py): `SIMULATOR`.
"""

from tables.simulate.hook import GameSimulator

from .hook import RoyalSimulator

SIMULATOR: GameSimulator = RoyalSimulator()
