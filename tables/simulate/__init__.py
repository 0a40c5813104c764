"""The heist simulator: complete games and whole parties with bot players on the real
rules engine, fairness statistics and the party clock. Pure Python, no Django:

    from tables.simulate import simulate, play_table, play_party
    report = simulate(seed=1, games=1000)          # every core; JSON-ready dict

`python manage.py simulate` is a thin command over `simulate`.
"""

from .pacing import PacingModel
from .play import POLICIES, PartyResult, Policy, Seat, TableResult, play_party, play_table
from .runner import simulate

__all__ = [
    "POLICIES",
    "PacingModel",
    "PartyResult",
    "Policy",
    "Seat",
    "TableResult",
    "play_party",
    "play_table",
    "simulate",
]
