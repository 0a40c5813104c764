"""The game state: plain data, copied (never shared) by every action.

A game is a value. `rules.apply` clones it, changes the clone, and returns it with the
events the change produced; the input is never touched, so an illegal action that is
detected half way through leaves no trace.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, MethodType
from typing import TYPE_CHECKING, Any

from games.event import Event as Event  # one event shape for every game; re-exported for the engine


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


# A gift move, seat based: ((from_seat, to_seat), ...). Gifts are looked up when the move
# resolves, so YANKEE HEIST's second step swaps the gift the active player holds then.
Move = tuple[tuple[int, int], ...]


def swap(a: int, b: int) -> Move:
    return ((a, b), (b, a))


# --- how each field is copied and stored ---------------------------------------------------
#
# Window, Pending and Game declare every field once, with its codec in the field's
# metadata. Their copy (`clone` / `copy`), `to_dict` and `from_dict` are generated from
# these declarations when this module is imported (`_compile` below), so a new field
# cannot be forgotten by one of the three: a field without a codec fails the import.


@dataclass(frozen=True, slots=True)
class Codec:
    """How one field is copied and stored: three Python expressions over `{v}`, the value.

    - `copy`: the value in a clone. "{v}" shares it, which is only right for an immutable
      value or one the rules replace instead of changing (copy-on-write).
    - `dump`: the value in the stored JSON (`to_dict`).
    - `load`: the value back from the stored JSON (`from_dict`).
    """

    copy: str
    dump: str
    load: str


PLAIN = Codec("{v}", "{v}", "{v}")  # int, bool, str or None: JSON as it is
INT64 = Codec("{v}", "str({v})", "int({v})")  # a 64-bit int: a string keeps it exact through JSON
PHASE = Codec("{v}", "{v}.value", "Phase({v})")
INTS = Codec("{v}[:]", "list({v})", "list({v})")  # list[int]
INT_TUPLE = Codec("{v}", "list({v})", "tuple({v})")  # tuple[int, ...]
INT_SET = Codec("{v}", "sorted({v})", "frozenset({v})")  # frozenset[int]
INT_KEYED = Codec(  # dict[int, ...] of JSON values: JSON keys are strings
    "{v}.copy() if {v} else {}",
    "{str(k): x for k, x in {v}.items()}",
    "{int(k): x for k, x in {v}.items()}",
)
DESCRIPTIONS = Codec(  # gift id -> description, copy-on-write; stored in id order
    "{v}",
    "{str(k): x for k, x in sorted({v}.items())}",
    "{int(k): x for k, x in {v}.items()}",
)
PEEKS = Codec("{v}", "[sorted(p) for p in {v}]", "tuple(frozenset(p) for p in {v})")
HANDS = Codec("{v}[:]", "[list(h) for h in {v}]", "[tuple(h) for h in {v}]")  # hand tuples are shared
MOVE = Codec("{v}", "[list(pair) for pair in {v}]", "tuple((int(a), int(b)) for a, b in {v})")
MOVES = Codec(
    "{v}[:]",
    "[[list(pair) for pair in m] for m in {v}]",
    "[tuple((int(a), int(b)) for a, b in m) for m in {v}]",
)


def nested(cls_name: str, copy: str) -> Codec:
    """A field holding another declared dataclass (or None): its generated functions."""
    return Codec(
        f"None if {{v}} is None else {{v}}.{copy}()",
        "None if {v} is None else {v}.to_dict()",
        f"None if {{v}} is None else _load_{cls_name}({{v}})",
    )


def stored(codec: Codec, *, optional: bool = False, omit_default: bool = False) -> Mapping[str, Any]:
    """A field's metadata. `optional`: rows stored before the field existed lack its key,
    `from_dict` then gives the default. `omit_default`: `to_dict` leaves the key out while
    the value is the default, so games that do not use it store as before (implies
    `optional`)."""
    return MappingProxyType({"codec": codec, "optional": optional or omit_default, "omit_default": omit_default})


@dataclass(slots=True)
class Window:
    """An open reaction window for one move (one step of a YANKEE HEIST)."""

    move: Move = field(metadata=stored(MOVE))
    affected: tuple[int, ...] = field(metadata=stored(INT_TUPLE))  # clockwise from the active player
    # seat -> card id, None = pass
    answers: dict[int, int | None] = field(default_factory=dict, metadata=stored(INT_KEYED))
    # seats whose pass was given by the host after 60 s
    forced: tuple[int, ...] = field(default=(), metadata=stored(INT_TUPLE))
    # The game version that opened the window: an answer naming an older window (a
    # phone's late tap arriving after its window closed) must not count for this one.
    version: int = field(default=0, metadata=stored(PLAIN, optional=True))

    if TYPE_CHECKING:  # generated below, from the fields

        def copy(self) -> Window: ...
        def to_dict(self) -> dict[str, Any]: ...
        @classmethod
        def from_dict(cls, d: Mapping[str, Any]) -> Window: ...

    def waiting(self) -> tuple[int, ...]:
        return tuple(s for s in self.affected if s not in self.answers)


@dataclass(slots=True)
class Pending:
    """The action being resolved: what is left to do and who has moved so far."""

    active: int = field(metadata=stored(PLAIN))
    label: str = field(metadata=stored(PLAIN))  # the card title, or "SWIPE"
    card: int | None = field(metadata=stored(PLAIN))  # the played card id (None for a SWIPE)
    steps: list[Move] = field(metadata=stored(MOVES))  # moves still to attempt, in order
    moved: list[int] = field(metadata=stored(INTS))  # seats whose gift moved during this action, in order
    window: Window | None = field(default=None, metadata=stored(nested("Window", "copy")))
    blocked: int = field(default=0, metadata=stored(PLAIN))  # how many moves of this action were blocked

    if TYPE_CHECKING:  # generated below, from the fields

        def copy(self) -> Pending: ...
        def to_dict(self) -> dict[str, Any]: ...
        @classmethod
        def from_dict(cls, d: Mapping[str, Any]) -> Pending: ...


@dataclass(slots=True)
class Game:
    """The whole state of one table. Each field declares how it is copied and stored."""

    players: int = field(metadata=stored(PLAIN))
    seed: int | str = field(metadata=stored(PLAIN))  # the seed new_game was given, kept for audit and replay
    rng: int = field(metadata=stored(INT64))  # current generator state
    version: int = field(metadata=stored(PLAIN))
    phase: Phase = field(metadata=stored(PHASE))
    round: int = field(metadata=stored(PLAIN))  # 1..4
    starter: int = field(metadata=stored(PLAIN))
    turn: int = field(metadata=stored(PLAIN))  # turns taken this round, 0..players-1
    gifts: list[int] = field(metadata=stored(INTS))  # gift id held by each seat
    vault: list[int] = field(metadata=stored(INTS))  # gift ids in the table's vault
    open: frozenset[int] = field(metadata=stored(INT_SET))  # ids of unwrapped gifts (copy-on-write)
    descriptions: dict[int, str] = field(metadata=stored(DESCRIPTIONS))  # gift id -> secret description
    peeks: tuple[frozenset[int], ...] = field(metadata=stored(PEEKS))  # per seat: gift ids it has seen
    hands: list[tuple[int, ...]] = field(metadata=stored(HANDS))  # each hand a tuple, replaced when it changes
    draw_pile: list[int] = field(metadata=stored(INTS))  # top of the pile is the END of the list
    discards: list[int] = field(metadata=stored(INTS))
    aside: list[int] = field(metadata=stored(INTS))  # the card being resolved and reactions, until the action ends
    pending: Pending | None = field(default=None, metadata=stored(nested("Pending", "copy")))
    trims: dict[int, int] = field(default_factory=dict, metadata=stored(INT_KEYED))  # seat -> cards to discard
    # The version that asked for the trims (0 when none are asked for): every seat over
    # the limit trims at once, one clock for all (games/definition.py Clock.since). A
    # row stored mid-trim by earlier code lacks it: its clock keeps its deadline.
    trims_since: int = field(default=0, metadata=stored(PLAIN, omit_default=True))
    gate: bool = field(default=False, metadata=stored(PLAIN))  # party mode: stop after round 2 for the relay
    relay_seat: int | None = field(default=None, metadata=stored(PLAIN))
    relayed: bool = field(default=False, metadata=stored(PLAIN))
    # House rule "LAST CALL refill" (off by default, see docs/SIMULATION.md): at the
    # start of round 4 every player holding fewer than 5 cards draws up to this many.
    last_call_draw: int = field(default=0, metadata=stored(PLAIN, omit_default=True))

    if TYPE_CHECKING:  # generated below, from the fields

        def clone(self) -> Game: ...
        def to_dict(self) -> dict[str, Any]: ...
        @classmethod
        def from_dict(cls, d: Mapping[str, Any]) -> Game: ...

    @property
    def active(self) -> int:
        """The seat whose turn it is (meaningful in ACTION, REACTION and TRIM)."""
        return (self.starter + self.turn) % self.players


# --- the generated functions ---------------------------------------------------------------
#
# Why generated source and not a loop over the fields: clone, to_dict and from_dict run
# for every action (the server loads the stored game, the engine clones it, the server
# stores the result). A generic loop (getattr, a codec call and setattr per field)
# measured three times slower for clone (4.3 µs against 1.4 µs for a 10-player game, CPU
# time, bench/game_state.py's fixture). The source generated here is what one would
# write by hand, built from the one declaration above; `_source(cls, ...)` shows it.


def _source(cls: type, copy: str) -> str:
    """The Python source of `cls`'s copy, to_dict and from_dict, from its fields."""
    name = cls.__name__
    fields = dataclasses.fields(cls)
    for f in fields:
        if not isinstance(f.metadata.get("codec"), Codec):
            raise TypeError(
                f"{name}.{f.name} declares no codec: give it metadata=stored(...) so that "
                "copy, to_dict and from_dict know how to copy and store it"
            )
        if f.metadata["optional"] and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise TypeError(f"{name}.{f.name} is optional in the stored JSON but has no default")
        if f.metadata["omit_default"] and f.default is dataclasses.MISSING:
            raise TypeError(f"{name}.{f.name} is left out of the stored JSON at its default but has none")

    def expr(template: str, value: str) -> str:
        return "(" + template.replace("{v}", value) + ")"

    def default(f: dataclasses.Field[Any]) -> str:
        if f.default is not dataclasses.MISSING:
            if f.default is None or type(f.default) in (bool, int, str):
                return repr(f.default)  # a literal: a constant in the generated code
            return f"_default_{name}_{f.name}"
        return f"_factory_{name}_{f.name}()"

    copy_lines = [f"def {copy}(self):", f"    new = _new({name})"]
    copy_lines += [f"    new.{f.name} = {expr(f.metadata['codec'].copy, f'self.{f.name}')}" for f in fields]
    copy_lines.append("    return new")

    always = [f for f in fields if not f.metadata["omit_default"]]
    dump_lines = ["def to_dict(self):", "    out = {"]
    dump_lines += [f"        {f.name!r}: {expr(f.metadata['codec'].dump, f'self.{f.name}')}," for f in always]
    dump_lines.append("    }")
    for f in fields:
        if f.metadata["omit_default"]:
            dump_lines.append(f"    if self.{f.name} != {default(f)}:")
            dump_lines.append(f"        out[{f.name!r}] = {expr(f.metadata['codec'].dump, f'self.{f.name}')}")
    dump_lines.append("    return out")

    load_lines = ["def from_dict(cls, d):", "    new = _new(cls)"]
    for f in fields:
        load = f.metadata["codec"].load
        if f.metadata["optional"]:
            load_lines.append(f"    v = d.get({f.name!r}, _MISSING)")
            load_lines.append(f"    new.{f.name} = {default(f)} if v is _MISSING else {expr(load, 'v')}")
        elif load.count("{v}") > 1:
            load_lines.append(f"    v = d[{f.name!r}]")
            load_lines.append(f"    new.{f.name} = {expr(load, 'v')}")
        else:
            load_lines.append(f"    new.{f.name} = {expr(load, f'd[{f.name!r}]')}")
    load_lines.append("    return new")
    return "\n".join([*copy_lines, "", *dump_lines, "", *load_lines, ""])


def _compile(cls: type, copy: str, namespace: dict[str, Any]) -> None:
    """Generate `cls`'s copy, to_dict and from_dict and attach them to the class."""
    name = cls.__name__
    namespace[name] = cls
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            namespace[f"_default_{name}_{f.name}"] = f.default
        if f.default_factory is not dataclasses.MISSING:
            namespace[f"_factory_{name}_{f.name}"] = f.default_factory
    code = compile(_source(cls, copy), f"<generated {name} functions>", "exec")
    exec(code, namespace)  # trusted: the source is built above from this module's declarations
    for attr in (copy, "to_dict", "from_dict"):
        fn = namespace.pop(attr)
        fn.__qualname__ = f"{name}.{attr}"
        setattr(cls, attr, classmethod(fn) if attr == "from_dict" else fn)
    namespace[f"_load_{name}"] = MethodType(fn, cls)  # from_dict, for the classes that hold this one


# One namespace: Pending's functions call Window's, Game's call Pending's.
_NAMESPACE: dict[str, Any] = {"_new": object.__new__, "_MISSING": object(), "Phase": Phase}
_compile(Window, "copy", _NAMESPACE)
_compile(Pending, "copy", _NAMESPACE)
_compile(Game, "clone", _NAMESPACE)


def open_window(g: Game) -> Window:
    """The open reaction window: in the REACTION phase there always is one."""
    p = g.pending
    if p is None or p.window is None:
        raise AssertionError(f"no reaction window is open (phase {g.phase.value})")
    return p.window
