"""What finished parties' action logs say about the party clock: fit the simulator's
pacing model (tables.simulate.pacing.PacingModel) to real play.

Every accepted action is logged with its time (TableAction.created_at). The gap before
an action is the time the table spent getting to it, so each gap is charged to what
the action was:

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
from collections.abc import Iterable
from typing import Any

from events.models import Party
from games.registry import DEFAULT_GAME
from tables.models import Table
from tables.replay import table_setup
from tables.simulate.pacing import PacingModel

# The model's parameters are Yankee Heist's (tables/simulate/pacing.py), and so are these
# action and event names; the log is replayed through the table's definition.
TURN = frozenset({"play", "swipe", "regroup", "vault"})
ANSWER = frozenset({"react", "timeout_pass"})


def party_clock_fit(*, party_ids: Iterable[int] | None = None) -> dict[str, Any]:
    """Fit the pacing model to every finished party (or those in `party_ids`).
    Returns {"model": {...}, "observed": {...}}; parameters with no observation keep
    the model's default and are listed in "defaulted"."""
    # The pacing model is Yankee Heist's (turns, windows, trims, the reveal, the relay);
    # another game's parties would only swell the counts (Royal Heist's clock is
    # tables/simulate/royal/pacing.py's).
    parties = Party.objects.filter(status=Party.Status.OVER, game=DEFAULT_GAME)
    if party_ids is not None:
        parties = parties.filter(pk__in=list(party_ids))
    sums = {k: 0.0 for k in ("turn", "window", "trim", "reveal", "relay", "setup")}
    counts = {k: 0 for k in sums}
    turn_gaps: list[float] = []
    n_parties = n_tables = n_actions = 0
    for party in parties.order_by("pk"):
        tables = list(Table.objects.filter(party=party).order_by("letter"))
        if not tables:
            continue
        n_parties += 1
        gate_reached, relayed_at = [], []
        for table in tables:
            n_tables += 1
            definition = table.definition
            setup = table_setup(table)
            game, _ = definition.setup(setup)  # the table's game as dealt
            previous = table.created_at
            first = True
            for row in table.actions.order_by("version"):
                n_actions += 1
                kind = row.action["type"]
                gap = (row.created_at - previous).total_seconds()
                previous = row.created_at
                was_at_gate = definition.at_gate(game)
                game, events = definition.apply(game, definition.parse_action(row.action))
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
                    counts["reveal"] += setup.players
                elif kind == "relay_exchange":
                    relayed_at.append(row.created_at)
                counts["window"] += sum(1 for e in events if e.type == "window_opened")
                if not was_at_gate and definition.at_gate(game):  # reached the gate (after round 2)
                    gate_reached.append(row.created_at)
        if gate_reached and relayed_at:
            sums["relay"] += (max(relayed_at) - max(gate_reached)).total_seconds()
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
