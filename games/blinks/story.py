"""A table's play told Blink by Blink, from the events its replay emitted: who broke
each vault Blink (the last hit, which claimed it for their team) and who chipped at it
before, the skips the table earned, the captain's calls, and each seat's gold Blinks
at the end. The party's story (party/story.py, with the host's story/told.py) names the
seats.

A throw taken back (`undone`) is not part of the story: its damage and claim are
dropped with it. Each entry names the version of the action it happened in, so the
host can name whoever played the seat then.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .state import Event


def table_story(events: Sequence[Event]) -> dict[str, Any]:
    """{"blinks": [{blink, seat, team, version, hits: [{seat, version}], chipped: the
    seats that hit it before the breaking hit, once each}] in the order they were claimed, "skips": [{seat, reason, version}], "calls": [{seat, throw, hit,
    touched, version}] (the captain's calls that settled a throw otherwise), "throws"
    (settled, not taken back), "seats": [{seat, team, claimed, winner}] once over}."""
    hits: dict[int, list[dict[str, Any]]] = {}
    claimed: list[dict[str, Any]] = []
    skips: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []
    throws = 0
    teams: list[int] = []
    seats: list[dict[str, Any]] = []
    throw = 0  # the throw whose settling the events now tell
    for e in events:
        if e.to is not None:
            continue
        d = e.data
        if e.type == "game_started":
            teams = list(d["teams"])
        elif e.type == "settled":
            throw, throws = d["throw"], throws + 1
            if d["by"] == "captain":
                calls.append(
                    {
                        "seat": d["seat"],
                        "throw": throw,
                        "hit": d["hit"],
                        "touched": d["touched"],
                        "version": e.version,
                        "_throw": throw,
                    }
                )
        elif e.type == "damaged":
            hits.setdefault(d["blink"], []).append({"seat": d["seat"], "version": e.version, "_throw": throw})
        elif e.type == "claimed":
            claimed.append(
                {"blink": d["blink"], "seat": d["seat"], "team": d["team"], "version": e.version, "_throw": throw}
            )
        elif e.type == "skip_earned":
            skips.append({"seat": d["seat"], "reason": d["reason"], "version": e.version, "_throw": throw})
        elif e.type == "undone":
            gone = d["throw"]
            throws -= 1
            for entries in (claimed, skips, calls, *hits.values()):
                entries[:] = [x for x in entries if x["_throw"] != gone]
        elif e.type == "game_over":
            winners = set(_winners(d["claims"]))
            seats = [
                {"seat": s, "team": teams[s] if s < len(teams) else 0, "claimed": n, "winner": s in winners}
                for s, n in enumerate(d["claims"])
            ]

    def clean(x: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in x.items() if k != "_throw"}

    def chipped(blink: int) -> list[dict[str, Any]]:
        """The seats that hit `blink` before the hit that broke it, each once, in order."""
        out: list[dict[str, Any]] = []
        for h in hits.get(blink, [])[:-1]:
            if all(x["seat"] != h["seat"] for x in out):
                out.append(clean(h))
        return out

    return {
        "blinks": [
            {**clean(c), "hits": [clean(h) for h in hits.get(c["blink"], [])], "chipped": chipped(c["blink"])}
            for c in claimed
        ],
        "skips": [clean(s) for s in skips],
        "calls": [clean(c) for c in calls],
        "throws": throws,
        "seats": seats,
    }


def _winners(claims: Sequence[int]) -> list[int]:
    best = max(claims, default=0)
    return [s for s, n in enumerate(claims) if n == best]


__all__ = ["table_story"]
