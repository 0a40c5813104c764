"""A finished party's tables as their action logs tell them, for a game's simulator to
fit its pacing model to (tables/simulate/hook.py `FitsPacing`; the host reads the logs:
events/party/timing.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.definition import Setup


@dataclass(frozen=True, slots=True)
class PlayedTable:
    """A finished table: the setup it was dealt, when it was dealt and each accepted
    action with its time, in version order (seconds from one origin, the same for
    every table of every party fitted together)."""

    setup: Setup
    dealt: float
    actions: tuple[tuple[float, Mapping[str, Any]], ...]
