"""A table's play told round by round, from the events its replay emitted: who wrote
which Heist word and what it scored, the "Halt!" moments (a guess that named another
seat's valid word, and what it collected), matching words, and the winners. The
party's story (party/story.py, with the host's story/told.py) names the seats.

Only what the table saw: the words and guesses from the reveal on (`revealed`,
`round_scored`), never a seat's own events (`word_kept`, `halt_kept`...: to that seat
alone). Each entry names the version of the action it happened in, so the host can
name whoever played the seat then.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .state import Event


def table_story(events: Sequence[Event]) -> dict[str, Any]:
    """{"rounds": [...], "seats": [...], "winners": [...]}: per round its Tableau, its
    Bonus Vault cards, whether it was the final (doubled) one, `words` [{seat, word,
    valid, matched, halted_by [{seat}], points (for the word), value}] and `halts`
    [{seat, word, caught [{seat}], points}] (the "Halt!" moments); at the end each
    seat's score and the winners."""
    rounds: list[dict[str, Any]] = []
    seats: list[dict[str, Any]] = []
    winners: list[dict[str, Any]] = []
    for e in events:
        if e.to is not None:
            continue  # a seat's own secret: nobody else's story
        d = e.data
        if e.type == "round_scored":
            version = e.version
            words = [
                {
                    "seat": s["seat"],
                    "version": version,
                    "word": s["word"],
                    "valid": s["valid"],
                    "matched": s["matched"],
                    "halted_by": [{"seat": h, "version": version} for h in s["halted_by"]],
                    "points": s["heist"],
                    "value": None if s["value"] is None else s["value"]["total"],
                }
                for s in d["seats"]
            ]
            halts = [
                {
                    "seat": s["seat"],
                    "version": version,
                    "word": s["halt"],
                    "caught": [{"seat": c, "version": version} for c in s["caught"]],
                    "points": s["halt_points"],
                }
                for s in d["seats"]
                if s["halt"] is not None
            ]
            rounds.append(
                {
                    "round": d["round"],
                    "final": d["final"],
                    "tableau": list(d["tableau"]),
                    "vault": list(d["vault"]),
                    "words": words,
                    "halts": halts,
                    "halt_moments": sum(1 for h in halts if h["caught"]),
                    "scores": list(d["scores"]),
                }
            )
        elif e.type == "game_over":
            top = set(d["winners"])
            seats = [
                {"seat": s, "version": e.version, "score": score, "winner": s in top}
                for s, score in enumerate(d["scores"])
            ]
            winners = [{"seat": s, "version": e.version} for s in d["winners"]]
    return {"rounds": rounds, "seats": seats, "winners": winners}


__all__ = ["table_story"]
