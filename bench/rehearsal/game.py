"""What the rehearsal (bench/party.py) asks of a game: its bots at the party.

A game that can be rehearsed exports `REHEARSAL` from `<package>.party.rehearsal`
(found by the game's name through the registry, `rehearsal_of`): how the host creates
its party and a guest joins it, what its guests' phones and its host's dashboard do
with what they show, where a table is (for the log and a fault's moment), and the
figures only it has. The rest is the host's machinery, the same for every game: the
stack, the screens' sockets (`Screen`), the join burst, seating, the sleepers, the
faults, the watchdog and the oracles (lost, applied twice, stale, 5xx).

A game's bots decide only from what a screen holds (its seat view, the party copy),
never from the database, as the game's own screens do. What several games' bots do
alike (the host's watch and gate, a phone held for the fault) is in hosting.py.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from typing import Any, Protocol, cast

from games.patch import TableCopies, TableCopy, merge_plain_private, without_keys
from games.registry import GAMES, game_named, part_of
from tables.seating import table_count

from .pace import Pace

Json = dict[str, Any]


class Offline(Exception):
    """The socket dropped before a party command's reply (live.js does not resend those)."""


class Refused(Exception):
    """The server refused a screen's frame: its `code` and the whole error message."""

    def __init__(self, msg: Json):
        super().__init__(msg.get("code"))
        self.code: str = msg.get("code") or ""
        self.msg = msg


class Copies(Protocol):
    """What a screen keeps of each table stream to take patches (games/patch.py), as the
    game's screens merge a seat's private part with the public view."""

    def snapshot(self, snap: Json) -> None: ...
    def take(self, msg: Json) -> Json | None: ...


class Screen(Protocol):
    """One bot screen with a real socket (bench/rehearsal/phone.py `Phone`)."""

    name: str
    me: Json | None  # the guest (`captain`, ...), from the party's messages
    party: Json | None  # the party copy (its relay, gate...)
    quiet: bool  # --quiet: never answers once seated
    ready: bool
    changed: asyncio.Event
    views: dict[tuple[str, int], Json]  # ("seat"|"public", table id) -> table message

    def seat_view(self) -> Json | None: ...
    def my_table(self) -> int | None: ...
    async def act(self, action: Json, *, table: int | None = None, version: int | None = None) -> Json: ...
    async def command(self, command: str, **args: Any) -> Json: ...


class Room(Protocol):
    """One party being played (bench/rehearsal/party_run.py `PartyRun`): what a game's
    bots may use of it."""

    r: random.Random  # the party's own generator (seeded by --seed)
    pace: Pace
    quiet: int  # --quiet guests per party
    tables: list[int]  # its table ids, once seated
    host: Screen | None
    fault_struck: asyncio.Event  # set once the run's fault struck (or there is none)

    def mark(self, phase: str) -> None:
        """The party reached `phase` (its time, the first time: `phases_s`)."""
        ...

    def log(self, *parts: object) -> None: ...

    def spawn(self, p: Screen, key: tuple[Any, ...], coro: Coroutine[Any, Any, None]) -> None:
        """Run `coro` for screen `p` unless the same intent `key` is under way or done;
        a refusal lets the person look again (a few times, or at once when stale)."""
        ...

    async def host_command(self, command: str, **args: Any) -> Json | None:
        """The host taps until answered (None: refused, and logged)."""
        ...

    def holding_for_fault(self, view: Json) -> bool:
        """The table of `view` waits for the run's fault to strike first."""
        ...

    async def until(self, pred: Callable[[], bool], what: str, timeout: float) -> None: ...

    def over(self) -> None:
        """Every table of the party is over."""
        ...

    def harness_error(self, text: str) -> None:
        """Something the bots did that a person would not (reported, fails the run)."""
        ...


class PartyBots(Protocol):
    """A game's bots at one party (a fresh one per party: it may keep state)."""

    async def before_seating(self, tables: int) -> None:
        """What the host does once everybody joined, before seating `tables` tables."""
        ...

    def look(self, p: Screen) -> None:
        """Guest screen `p` changed: spawn (`Room.spawn`) what the person does now."""
        ...

    async def host(self) -> None:
        """The host's dashboard for the whole play; calls `Room.over` when done."""
        ...

    async def fault_moment(self) -> None:
        """Return when the run's fault (not drop-phones) should strike: every table
        mid-game, its guests held (`RehearsalGame.holds_for_fault`)."""
        ...

    def figures(self) -> Json:
        """This party's counts for the game's own report figures (`RehearsalGame.report`)."""
        ...


class RehearsalGame(Protocol):
    # The party's phases in order from the join burst's end ("joined") to the result
    # ("result"): the marks its bots set (`Room.mark`) and the host's "seated" where it
    # falls, each with the name of its span (from the mark before) in `phases_s`.
    phases: Mapping[str, str]

    def party_fields(self, index: int) -> Json:
        """The host's form for the party (POST /api/parties)."""
        ...

    def join_fields(self, party: int, guest: int) -> Json:
        """What a guest types beyond their name when joining."""
        ...

    def table_copies(self) -> Copies: ...

    def stage(self, view: Json) -> int:
        """How far a table is (a round, a heist...), from its view."""
        ...

    def where(self, view: Json) -> str:
        """A table's progress in a few characters, for the log."""
        ...

    def holds_for_fault(self, view: Json) -> bool:
        """A table that reached this view waits (its guests do not answer) until the run's
        fault struck: mid-game, so that the fault meets actions in flight."""
        ...

    def bots(self, room: Room) -> PartyBots: ...

    def report(self, tables: Sequence[int], parties: Sequence[Json]) -> Json:
        """The game's own figures for the run's JSON, from its tables and each party's
        `PartyBots.figures` (may read the database: the run's settings are set up)."""
        ...


def rehearsal_of(game: str) -> RehearsalGame | None:
    """The rehearsal bots of the game named `game`, or None when it has none."""
    module = part_of(game, "rehearsal")
    return None if module is None else cast(RehearsalGame, module.REHEARSAL)


def rehearsed_games() -> list[str]:
    """Every registered game with rehearsal bots, in the registry's order."""
    return [name for name in GAMES if rehearsal_of(name) is not None]


def tables_for(game: str, guests: int) -> int:
    """How many tables the host's seating makes of `guests`: as many as the game's
    largest table needs (tables/seating.py, the game's definition)."""
    return max(1, table_count(guests, game_named(game).table_max))


def plain_private_copies(private_keys: Iterable[str]) -> Copies:
    """A screen's copies of its table streams for a game whose private part is plain keys
    on top of the public view, as its phone merges them (games/patch.py
    merge_plain_private); `private_keys`: its definition's."""
    unmerge = without_keys(frozenset(private_keys))
    return TableCopies(lambda: TableCopy(unmerge=unmerge, merge=merge_plain_private))
