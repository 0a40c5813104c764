"""The game state: plain data, copied (never shared) by every action.

A game is a value. `rules.apply` clones it, changes the clone and returns it with the
events the change produced; the input is never touched, so an illegal action detected
half way leaves no trace. Rooms are frozen and tuples are immutable, so a clone copies
only the lists and the dict the rules change in place.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.event import Event as Event  # one event shape for every game; re-exported

from .cards import is_danger, spot_value


class Phase(enum.Enum):
    DECIDE = "decide"  # everybody inside chooses, at once and in secret
    GATE = "gate"  # a party's half-way stop: waits for the host to open the gate
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Room:
    """A turned-up run card: `bonus` is the side-stack card a diamond drew, `jewels`
    what is still lying on it (what did not divide, until somebody gets out)."""

    card: str
    bonus: str | None
    jewels: int

    @property
    def value(self) -> int:
        """The loot the room was worth when turned up (0 for a danger)."""
        if is_danger(self.card):
            return 0
        return spot_value(self.card) + (spot_value(self.bonus) if self.bonus else 0)

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "bonus": self.bonus, "jewels": self.jewels}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Room:
        return cls(card=str(d["card"]), bonus=d["bonus"], jewels=int(d["jewels"]))


@dataclass(slots=True)
class Game:
    """The whole state of one table."""

    players: int
    seed: int | str  # as new_game was given it, for audit and replay
    rng: int  # the SplitMix64 state (games/rng.py)
    version: int
    phase: Phase
    heists: int  # how many heists the game has (5 as printed)
    heist: int  # the heist being played (or just played, at the gate and the end), 1-based
    games: int  # how many games a party's table plays in a row, banks adding up (1 as printed)
    game: int  # the game being played (or just played), 1-based
    totals: list[int]  # per seat: the banks of the games already finished, added up
    gate: bool  # party mode: stop half-way (rules.gate_after) until OpenGate
    gate_opened: bool
    deck: list[str]  # this heist's run deck; the top is the END of the list
    side: list[str]  # this heist's side stack; the top is the END of the list
    rooms: list[Room]  # turned up this heist, in order
    inside: tuple[int, ...]  # seats still inside this heist, ascending
    satchels: list[int]  # per seat
    banks: list[int]  # per seat: the banked stash, the only jewels that count
    dangers: tuple[str, ...]  # danger ranks turned up this heist, in order
    retired: tuple[str, ...]  # run cards removed from the game for good, in order
    decisions: dict[int, bool]  # seat -> press on?, hidden until everybody inside decided
    timed_out: tuple[int, ...]  # seats whose decision this step was the clock's stand-in
    revealed: dict[int, bool]  # the last revealed choices (public), seat -> press on?
    turned_up: int  # every jewel any room was worth, over the whole game
    lost: int  # jewels lost: rooms at a heist's end, caught satchels, the Joker's half-banks
    last_heist: dict[str, Any] | None  # how the last finished heist ended (JSON)

    def clone(self) -> Game:
        return Game(
            players=self.players,
            seed=self.seed,
            rng=self.rng,
            version=self.version,
            phase=self.phase,
            heists=self.heists,
            heist=self.heist,
            games=self.games,
            game=self.game,
            totals=self.totals[:],
            gate=self.gate,
            gate_opened=self.gate_opened,
            deck=self.deck[:],
            side=self.side[:],
            rooms=self.rooms[:],
            inside=self.inside,
            satchels=self.satchels[:],
            banks=self.banks[:],
            dangers=self.dangers,
            retired=self.retired,
            decisions=dict(self.decisions),
            timed_out=self.timed_out,
            revealed=dict(self.revealed),
            turned_up=self.turned_up,
            lost=self.lost,
            last_heist=self.last_heist,  # replaced, never changed in place
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON. The generator state is a string: a 64-bit int loses digits as a
        JSON number in some readers."""
        return {
            "players": self.players,
            "seed": self.seed,
            "rng": str(self.rng),
            "version": self.version,
            "phase": self.phase.value,
            "heists": self.heists,
            "heist": self.heist,
            "games": self.games,
            "game": self.game,
            "totals": list(self.totals),
            "gate": self.gate,
            "gate_opened": self.gate_opened,
            "deck": list(self.deck),
            "side": list(self.side),
            "rooms": [r.to_dict() for r in self.rooms],
            "inside": list(self.inside),
            "satchels": list(self.satchels),
            "banks": list(self.banks),
            "dangers": list(self.dangers),
            "retired": list(self.retired),
            "decisions": {str(s): d for s, d in sorted(self.decisions.items())},
            "timed_out": list(self.timed_out),
            "revealed": {str(s): d for s, d in sorted(self.revealed.items())},
            "turned_up": self.turned_up,
            "lost": self.lost,
            "last_heist": self.last_heist,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Game:
        return cls(
            players=int(d["players"]),
            seed=d["seed"],
            rng=int(d["rng"]),
            version=int(d["version"]),
            phase=Phase(d["phase"]),
            heists=int(d["heists"]),
            heist=int(d["heist"]),
            # a table stored before a party played several games played one
            games=int(d.get("games", 1)),
            game=int(d.get("game", 1)),
            totals=[int(x) for x in d.get("totals", [0] * int(d["players"]))],
            gate=bool(d["gate"]),
            gate_opened=bool(d["gate_opened"]),
            deck=[str(c) for c in d["deck"]],
            side=[str(c) for c in d["side"]],
            rooms=[Room.from_dict(r) for r in d["rooms"]],
            inside=tuple(int(s) for s in d["inside"]),
            satchels=[int(x) for x in d["satchels"]],
            banks=[int(x) for x in d["banks"]],
            dangers=tuple(str(r) for r in d["dangers"]),
            retired=tuple(str(c) for c in d["retired"]),
            decisions={int(s): bool(x) for s, x in d["decisions"].items()},
            timed_out=tuple(int(s) for s in d["timed_out"]),
            revealed={int(s): bool(x) for s, x in d["revealed"].items()},
            turned_up=int(d["turned_up"]),
            lost=int(d["lost"]),
            last_heist=d["last_heist"],
        )

    def running_totals(self) -> list[int]:
        """Per seat: every jewel banked in this table's games so far, the one being
        played included. What ranks a party's guests."""
        return [t + b for t, b in zip(self.totals, self.banks, strict=True)]

    def waiting(self) -> tuple[int, ...]:
        """The seats inside that have not decided yet (in DECIDE), ascending."""
        if self.phase is not Phase.DECIDE:
            return ()
        return tuple(s for s in self.inside if s not in self.decisions)


__all__ = ["Event", "Game", "Phase", "Room"]
