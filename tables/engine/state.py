"""The game state: plain data, copied (never shared) by every action.

A game is a value. `rules.apply` clones it, changes the clone, and returns it with the
events the change produced; the input is never touched, so an illegal action that is
detected half way through leaves no trace.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, NamedTuple

_new_game = object.__new__


class Phase(enum.Enum):
    ACTION = "action"  # the active player has drawn and must choose one action
    REACTION = "reaction"  # a reaction window is open
    TRIM = "trim"  # after an action: players over 5 cards choose their discards
    REVEAL = "reveal"  # after round 1: unwrap everything, waiting for the host/captain
    GATE = "gate"  # after round 2 in a party: waiting for the relay
    OVER = "over"


class Direction(enum.Enum):
    """THREE-GIFT GRIFT's rotation, seen from the table: clockwise is seat 0 -> 1 -> 2."""

    CLOCKWISE = "clockwise"
    COUNTERCLOCKWISE = "counterclockwise"


# Gift ids: a guest's gift uses its label number (1, 2, ...), a vault gift VAULT_ID_BASE +
# its number, so one id space serves the whole party (the relay moves gifts between
# tables). The engine itself treats ids as opaque; the party, the screens and the
# printables agree on this base through this one constant.
VAULT_ID_BASE = 1000


def gift_label(gift_id: int) -> str:
    """What is written on the physical gift: the guest's number, or V1.. for the vault."""
    return f"V{gift_id - VAULT_ID_BASE}" if gift_id >= VAULT_ID_BASE else str(gift_id)


@dataclass(frozen=True, slots=True)
class Gift:
    """A gift as the engine knows it: an id (its label), a secret description, and the
    seat of the player who brought it (None for vault gifts and relayed gifts)."""

    id: int
    description: str
    brought_by: int | None = None


class Event(NamedTuple):
    """One thing that happened, with who may see what of it.

    `to` is None for everybody, else the only seats that may see the event at all.
    `secret` holds extra fields that only the seats in `owners` see (the cards a player
    drew: everybody sees that Bea drew 2, only Bea sees which). `view` applies both.

    A NamedTuple, not a frozen dataclass: a game emits hundreds of these and a frozen
    dataclass's __init__ costs several times more.
    """

    type: str
    data: dict[str, Any]
    to: tuple[int, ...] | None = None
    version: int = 0
    secret: dict[str, Any] | None = None
    owners: tuple[int, ...] = ()

    def visible_to(self, seat: int | None) -> bool:
        """Whether `seat` (None: a public screen) may see this event at all."""
        return self.to is None or (seat is not None and seat in self.to)

    def view(self, seat: int | None) -> dict[str, Any] | None:
        """The event as `seat` (None: a public screen) may see it, or None."""
        if not self.visible_to(seat):
            return None
        out = {"type": self.type, "version": self.version, **self.data}
        if self.secret is not None and seat is not None and seat in self.owners:
            out.update(self.secret)
        return out


# A gift move, seat based: ((from_seat, to_seat), ...). Gifts are looked up when the move
# resolves, so YANKEE HEIST's second step swaps the gift the active player holds then.
Move = tuple[tuple[int, int], ...]


def swap(a: int, b: int) -> Move:
    return ((a, b), (b, a))


@dataclass(slots=True)
class Window:
    """An open reaction window for one move (one step of a YANKEE HEIST)."""

    move: Move
    affected: tuple[int, ...]  # clockwise from the active player
    answers: dict[int, int | None] = field(default_factory=dict)  # seat -> card id, None = pass
    forced: tuple[int, ...] = ()  # seats whose pass was given by the host after 60 s
    # The game version that opened the window: an answer naming an older window (a
    # phone's late tap arriving after its window closed) must not count for this one.
    version: int = 0

    def copy(self) -> Window:
        return Window(self.move, self.affected, dict(self.answers), self.forced, self.version)

    def waiting(self) -> tuple[int, ...]:
        return tuple(s for s in self.affected if s not in self.answers)


@dataclass(slots=True)
class Pending:
    """The action being resolved: what is left to do and who has moved so far."""

    active: int
    label: str  # the card title, or "SWIPE"
    card: int | None  # the played card id (None for a SWIPE)
    steps: list[Move]  # moves still to attempt, in order
    moved: list[int]  # seats whose gift moved during this action, in order of moving
    window: Window | None = None
    blocked: int = 0  # how many moves of this action were blocked

    def copy(self) -> Pending:
        return Pending(
            self.active,
            self.label,
            self.card,
            list(self.steps),
            list(self.moved),
            self.window.copy() if self.window else None,
            self.blocked,
        )


@dataclass(slots=True)
class Game:
    players: int
    seed: int  # the original seed, kept for audit
    rng: int  # current generator state
    version: int
    phase: Phase
    round: int  # 1..4
    starter: int
    turn: int  # turns taken this round, 0..players-1
    gifts: list[int]  # gift id held by each seat
    vault: list[int]  # gift ids in the table's vault
    open: frozenset[int]  # ids of unwrapped gifts (copy-on-write)
    descriptions: dict[int, str]  # gift id -> secret description (copy-on-write)
    peeks: tuple[frozenset[int], ...]  # per seat: gift ids whose description it has seen
    hands: list[tuple[int, ...]]  # each hand a tuple, replaced when it changes (cheap clones)
    draw_pile: list[int]  # top of the pile is the END of the list
    discards: list[int]
    aside: list[int]  # the card being resolved and reactions, until the action ends
    pending: Pending | None = None
    trims: dict[int, int] = field(default_factory=dict)  # seat -> cards it must discard
    gate: bool = False  # party mode: stop after round 2 for the relay
    relay_seat: int | None = None
    relayed: bool = False
    # House rule "LAST CALL refill" (off by default, see docs/SIMULATION.md): at the
    # start of round 4 every player holding fewer than 5 cards draws up to this many.
    last_call_draw: int = 0

    @property
    def active(self) -> int:
        """The seat whose turn it is (meaningful in ACTION, REACTION and TRIM)."""
        return (self.starter + self.turn) % self.players

    def clone(self) -> Game:
        # Built field by field, bypassing the dataclass __init__: this runs once per
        # action, and immutable fields (open, descriptions, peeks, hand tuples) are shared.
        g = _new_game(Game)
        g.players = self.players
        g.seed = self.seed
        g.rng = self.rng
        g.version = self.version
        g.phase = self.phase
        g.round = self.round
        g.starter = self.starter
        g.turn = self.turn
        g.gifts = self.gifts[:]
        g.vault = self.vault[:]
        g.open = self.open
        g.descriptions = self.descriptions
        g.peeks = self.peeks
        g.hands = self.hands[:]
        g.draw_pile = self.draw_pile[:]
        g.discards = self.discards[:]
        g.aside = self.aside[:]
        g.pending = self.pending.copy() if self.pending is not None else None
        g.trims = self.trims.copy() if self.trims else {}
        g.gate = self.gate
        g.relay_seat = self.relay_seat
        g.relayed = self.relayed
        g.last_call_draw = self.last_call_draw
        return g

    # --- serialisation: what the database stores -------------------------------------

    def to_dict(self) -> dict[str, Any]:
        p = self.pending
        out = {
            "players": self.players,
            "seed": self.seed,
            "rng": str(self.rng),  # 64-bit: keep exact through JSON
            "version": self.version,
            "phase": self.phase.value,
            "round": self.round,
            "starter": self.starter,
            "turn": self.turn,
            "gifts": list(self.gifts),
            "vault": list(self.vault),
            "open": sorted(self.open),
            "descriptions": {str(k): v for k, v in sorted(self.descriptions.items())},
            "peeks": [sorted(p_) for p_ in self.peeks],
            "hands": [list(h) for h in self.hands],
            "draw_pile": list(self.draw_pile),
            "discards": list(self.discards),
            "aside": list(self.aside),
            "pending": None
            if p is None
            else {
                "active": p.active,
                "label": p.label,
                "card": p.card,
                "steps": [[list(pair) for pair in m] for m in p.steps],
                "moved": list(p.moved),
                "blocked": p.blocked,
                "window": None
                if p.window is None
                else {
                    "move": [list(pair) for pair in p.window.move],
                    "affected": list(p.window.affected),
                    "answers": {str(k): v for k, v in p.window.answers.items()},
                    "forced": list(p.window.forced),
                    "version": p.window.version,
                },
            },
            "trims": {str(k): v for k, v in self.trims.items()},
            "gate": self.gate,
            "relay_seat": self.relay_seat,
            "relayed": self.relayed,
        }
        if self.last_call_draw:  # only with the house rule: default games store as before
            out["last_call_draw"] = self.last_call_draw
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        def move(m: list) -> Move:
            return tuple((int(a), int(b)) for a, b in m)

        pd = d["pending"]
        pending = None
        if pd is not None:
            wd = pd["window"]
            window = None
            if wd is not None:
                window = Window(
                    move(wd["move"]),
                    tuple(wd["affected"]),
                    {int(k): v for k, v in wd["answers"].items()},
                    tuple(wd["forced"]),
                    wd.get("version", 0),
                )
            pending = Pending(
                pd["active"],
                pd["label"],
                pd["card"],
                [move(m) for m in pd["steps"]],
                list(pd["moved"]),
                window,
                pd["blocked"],
            )
        return cls(
            players=d["players"],
            seed=d["seed"],
            rng=int(d["rng"]),
            version=d["version"],
            phase=Phase(d["phase"]),
            round=d["round"],
            starter=d["starter"],
            turn=d["turn"],
            gifts=list(d["gifts"]),
            vault=list(d["vault"]),
            open=frozenset(d["open"]),
            descriptions={int(k): v for k, v in d["descriptions"].items()},
            peeks=tuple(frozenset(p) for p in d["peeks"]),
            hands=[tuple(h) for h in d["hands"]],
            draw_pile=list(d["draw_pile"]),
            discards=list(d["discards"]),
            aside=list(d["aside"]),
            pending=pending,
            trims={int(k): v for k, v in d["trims"].items()},
            gate=d["gate"],
            relay_seat=d["relay_seat"],
            relayed=d["relayed"],
            last_call_draw=d.get("last_call_draw", 0),
        )
