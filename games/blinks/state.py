"""The game state: plain data, copied (never shared) by every action.

A game is a value. `rules.apply` clones it, changes the clone and returns it with the
events the change produced; the input is never touched, so an illegal action detected
half way leaves no trace. The vault is a list of Blinks numbered from 1: `health[i]` is
Blink i + 1's health (4 to 0) and `owner[i]` the seat that claimed it (None: still in
the vault).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.event import Event as Event  # one event shape for every game; re-exported

from .teams import TEAMS


class Phase(enum.Enum):
    THROW = "throw"  # the thrower's turn: the game waits for their record of a throw
    CONFIRM = "confirm"  # a recorded throw waits for the captain's tap (or call)
    OVER = "over"  # the last vault Blink is claimed


@dataclass(frozen=True, slots=True)
class Record:
    """One throw as recorded: its number, the thrower, the Blink hit (None: a miss) and
    whether the thief touched the vault on the way back."""

    throw: int
    seat: int
    hit: int | None
    touched: bool

    def to_dict(self) -> dict[str, Any]:
        return {"throw": self.throw, "seat": self.seat, "hit": self.hit, "touched": self.touched}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Record:
        hit = d["hit"]
        return cls(
            throw=int(d["throw"]),
            seat=int(d["seat"]),
            hit=None if hit is None else int(hit),
            touched=bool(d["touched"]),
        )


# What a settled throw changes, kept so the captain can take it back (`Game.before`).
_UNDONE = ("health", "owner", "turn", "thrown", "skips", "turns")


@dataclass(slots=True)
class Game:
    """The whole state of one table."""

    players: int
    seed: int | str  # as new_game was given it, for audit and replay
    version: int
    phase: Phase
    alternate: bool  # the alternate rule: throw on until a miss (or stop); a miss skips a turn
    teams: tuple[int, ...]  # per seat: its team (0 to 3, the colour; teams span tables)
    health: list[int]  # per vault Blink
    owner: list[int | None]  # per vault Blink: the seat that claimed it
    first: int  # the seat that threw first (drawn from the seed)
    turn: int  # the seat whose turn it is (the thrower)
    turns: int  # turns begun, the current one included
    thrown: int  # throws settled in the current turn (the alternate rule's run)
    skips: list[bool]  # per seat: skips its next turn
    throws: int  # the last throw number used: records are numbered from 1, never reused
    pending: Record | None  # the recorded throw waiting for the captain (CONFIRM)
    last: Record | None  # the last settled throw, while it may be taken back
    before: dict[str, Any] | None  # the table as it was before `last` settled

    def clone(self) -> Game:
        return Game(
            players=self.players,
            seed=self.seed,
            version=self.version,
            phase=self.phase,
            alternate=self.alternate,
            teams=self.teams,
            health=self.health[:],
            owner=self.owner[:],
            first=self.first,
            turn=self.turn,
            turns=self.turns,
            thrown=self.thrown,
            skips=self.skips[:],
            throws=self.throws,
            pending=self.pending,
            last=self.last,
            before=self.before,  # replaced, never changed in place
        )

    @property
    def vault(self) -> int:
        """The vault's size at the start: every Blink, claimed or not."""
        return len(self.health)

    def in_vault(self) -> list[int]:
        """The numbers of the Blinks still in the vault, ascending."""
        return [i + 1 for i, seat in enumerate(self.owner) if seat is None]

    def claims(self) -> list[int]:
        """Per seat: the vault Blinks it claimed (the gold Blinks it holds)."""
        out = [0] * self.players
        for seat in self.owner:
            if seat is not None:
                out[seat] += 1
        return out

    def team_claims(self) -> list[int]:
        """Per team (0 to 3): the Blinks its seats at this table claimed."""
        out = [0] * TEAMS
        for seat in self.owner:
            if seat is not None:
                out[self.teams[seat]] += 1
        return out

    def undo_point(self) -> dict[str, Any]:
        """What settling a throw may change, as JSON (restored by `restore`)."""
        return {
            "health": list(self.health),
            "owner": list(self.owner),
            "turn": self.turn,
            "thrown": self.thrown,
            "skips": list(self.skips),
            "turns": self.turns,
        }

    def restore(self, point: Mapping[str, Any]) -> None:
        assert set(point) == set(_UNDONE)
        self.health = [int(h) for h in point["health"]]
        self.owner = [None if s is None else int(s) for s in point["owner"]]
        self.turn = int(point["turn"])
        self.thrown = int(point["thrown"])
        self.skips = [bool(s) for s in point["skips"]]
        self.turns = int(point["turns"])

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "seed": self.seed,
            "version": self.version,
            "phase": self.phase.value,
            "alternate": self.alternate,
            "teams": list(self.teams),
            "health": list(self.health),
            "owner": list(self.owner),
            "first": self.first,
            "turn": self.turn,
            "turns": self.turns,
            "thrown": self.thrown,
            "skips": list(self.skips),
            "throws": self.throws,
            "pending": self.pending.to_dict() if self.pending else None,
            "last": self.last.to_dict() if self.last else None,
            "before": self.before,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Game:
        g = cls(
            players=int(d["players"]),
            seed=d["seed"],
            version=int(d["version"]),
            phase=Phase(d["phase"]),
            alternate=bool(d["alternate"]),
            teams=tuple(int(t) for t in d["teams"]),
            health=[],
            owner=[],
            first=int(d["first"]),
            turn=0,
            turns=0,
            thrown=0,
            skips=[],
            throws=int(d["throws"]),
            pending=Record.from_dict(d["pending"]) if d["pending"] else None,
            last=Record.from_dict(d["last"]) if d["last"] else None,
            before=d["before"],
        )
        g.restore({key: d[key] for key in _UNDONE})
        return g

    def waiting(self) -> tuple[int, ...]:
        """The seat the game waits for: the thrower, while their throw is not recorded."""
        return (self.turn,) if self.phase is Phase.THROW else ()


__all__ = ["Event", "Game", "Phase", "Record"]
