"""Yankee Heist's games, as the simulator plays them.

The games are the game's own code: `selfplay.py` plays tables and parties with the
bots' policies of `policies.py`, where every name of Yankee Heist's state lives. This
module is the runner's and the statistics' one door to them and adds the party's side:
a party of `guests` sits at the scaling rule's tables (tables/seating.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from tables.seating import table_sizes

from .selfplay import (
    AGREEMENT,
    BLOCKS,
    COMEBACKS,
    COUNTS,
    POLICIES,
    SWAPS,
    TRIMS,
    TURNS,
    WINDOWS,
    K,
    PartyResult,
    Policy,
    Seat,
    TableResult,
    game_seeds,
    play_table,
)
from .selfplay import play_party as _play_party


def play_party(
    *,
    seed: int,
    guests: int | None = None,
    sizes: Sequence[int] | None = None,
    policies: Sequence[str | Policy] = ("greedy",),
    vault: int = 0,
    agreement: float = AGREEMENT,
    last_call_draw: int = 0,
    in_place: bool = True,
    record: bool = False,
) -> PartyResult:
    """A whole party (selfplay.py `play_party`) at the scaling rule's tables
    for `guests`, or at tables of the given `sizes`."""
    if sizes is None:
        if guests is None:
            raise ValueError("play_party needs `guests` or `sizes`")
        sizes = table_sizes(guests)
    return _play_party(
        seed=seed,
        sizes=sizes,
        policies=policies,
        vault=vault,
        agreement=agreement,
        last_call_draw=last_call_draw,
        in_place=in_place,
        record=record,
    )


__all__ = [
    "AGREEMENT",
    "BLOCKS",
    "COMEBACKS",
    "COUNTS",
    "POLICIES",
    "SWAPS",
    "TRIMS",
    "TURNS",
    "WINDOWS",
    "K",
    "PartyResult",
    "Policy",
    "Seat",
    "TableResult",
    "game_seeds",
    "play_party",
    "play_table",
]
