"""What finished parties' action logs say about Yankee Heist's party clock: the pacing
model (pacing.py `PacingModel`) fitted to real play (`manage.py fit_pacing`; the host
reads the logs, tables/simulate/hook.py `PlayedTable`).

The gap before an action is the time the table spent getting to it, so each gap is
charged to what the action was:

- a turn (play, swipe, regroup, vault): the turn's thinking time;
- an answer in a reaction window (react, or the host's pass after 60 s): the window's
  time (a window's answers add up to the window);
- a trim: trimming time;
- the round-1 reveal (confirm_reveal): the reveal, per guest at that table;
- the relay: from the last table reaching the gate to the relay's exchange;
- setup: from dealing (the table's creation) to its first action, less one turn.

Each parameter is the total time charged to it over the number of times it happened,
the least-squares fit of the additive model. Windows are counted by replaying each
table's log through the engine (the log holds actions, the engine says which opened a
window).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from games.yankee.definition import DEFINITION
from tables.simulate.played import PlayedTable

from .pacing import PacingModel

TURN = frozenset({"play", "swipe", "regroup", "vault"})
ANSWER = frozenset({"react", "timeout_pass"})


def fit_pacing(parties: Sequence[Sequence[PlayedTable]]) -> dict[str, Any]:
    """Fit the pacing model to `parties` (each its tables). Returns {"model": {...},
    "observed": {...}, "defaulted": [...]}: parameters with no observation keep the
    model's default and are listed in "defaulted". LookupError for no party."""
    sums = {k: 0.0 for k in ("turn", "window", "trim", "reveal", "relay", "setup")}
    counts = {k: 0 for k in sums}
    turn_gaps: list[float] = []
    n_parties = n_tables = n_actions = 0
    for tables in parties:
        if not tables:
            continue
        n_parties += 1
        gate_reached: list[float] = []
        relayed_at: list[float] = []
        for table in tables:
            n_tables += 1
            game, _ = DEFINITION.setup(table.setup)  # the table's game as dealt
            previous = table.dealt
            first = True
            for at, action in table.actions:
                n_actions += 1
                kind = action["type"]
                gap = at - previous
                previous = at
                was_at_gate = DEFINITION.at_gate(game)
                game, events = DEFINITION.apply(game, DEFINITION.parse_action(dict(action)))
                if kind in TURN:
                    if first:
                        sums["setup"] += gap
                        counts["setup"] += 1
                    else:
                        sums["turn"] += gap
                        counts["turn"] += 1
                        turn_gaps.append(gap)
                    first = False
                elif kind in ANSWER:
                    sums["window"] += gap
                elif kind == "trim":
                    sums["trim"] += gap
                    counts["trim"] += 1
                elif kind == "confirm_reveal":
                    sums["reveal"] += gap
                    counts["reveal"] += table.setup.players
                elif kind == "relay_exchange":
                    relayed_at.append(at)
                counts["window"] += sum(1 for e in events if e.type == "window_opened")
                if not was_at_gate and DEFINITION.at_gate(game):  # reached the gate (after round 2)
                    gate_reached.append(at)
        if gate_reached and relayed_at:
            sums["relay"] += max(relayed_at) - max(gate_reached)
            counts["relay"] += 1
    if not n_parties:
        raise LookupError("no finished party to learn from")
    model = PacingModel().to_dict()
    defaulted = []
    for k in ("turn", "window", "trim", "reveal", "relay"):
        if counts[k]:
            model[k] = sums[k] / counts[k]
        else:
            defaulted.append(k)
    if counts["setup"]:
        # The first gap is dealing and setting up, then the first turn.
        model["setup"] = max(0.0, sums["setup"] / counts["setup"] - model["turn"])
    else:
        defaulted.append("setup")
    if len(turn_gaps) >= 2 and model["turn"] > 0:
        mean = sum(turn_gaps) / len(turn_gaps)
        sd = math.sqrt(sum((x - mean) ** 2 for x in turn_gaps) / (len(turn_gaps) - 1))
        model["cv"] = sd / mean if mean else model["cv"]
    else:
        defaulted.append("cv")
    return {
        "model": model,
        "observed": {
            "parties": n_parties,
            "tables": n_tables,
            "actions": n_actions,
            **{f"{k}s": v for k, v in counts.items()},
        },
        "defaulted": defaulted,
    }
