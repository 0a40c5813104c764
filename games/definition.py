"""What the party host needs of a game: the seam between the host and any game's rules.

The host (tables/, events/, relay/, the screens) speaks to a game only through a
`GameDefinition`, the way boardgame.io's server hosts any `Game` and lila runs any
variant: setup, parsing an action, `apply`, the views, who the game waits for, the
legal actions, a bot, which role may send which action, the step clocks, the party's
hooks (the gate, the end, the result) and the features the party shows for it.

Everything here is pure: no Django, no I/O, no clock, no global random. A definition
is the module-level constant `DEFINITION` of each game's package (docs/GAMES.md), and
`games.registry` installs them by package name. Some parts are optional, each a set of methods a game has or not
(below the seam): `reshuffle_hidden` (a game with secrets proves its views keep them,
tests/games/conformance), the gifts' ids, labels and places (`HoldsGifts`, a game with
the party's gifts), the relay's draw and arrival (`RelaysGifts`, a game with the
party's relay), which actions are checked against the screen's version (`ChecksSeen`:
without it, all of them) and who may send each wire type before it is parsed
(`NamesWireTypes`).

A step is what the game waits on now (`clock`). Its `Clock.since` says when it began:
the host starts the step's clock afresh then (`starts_step`) and refuses an action a
screen took on an earlier step (`is_stale`); tests/games/conformance/test_steps.py
holds both for every game.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from games.event import Event
from games.marks import gettext_noop

State = TypeVar("State")
Act = TypeVar("Act")


class Role(enum.StrEnum):
    """Who may send an action (docs/RULES.md, "Who does what").

    SEAT: the player in the action's seat, from their phone (or a captain standing in
    for a guest with no phone). DUTY: the table's captain, its tablet or the host (a
    reveal confirmed, a relay seat drawn, a quiet guest's step passed once its clock
    ran out: events/party/roles.py check_captains_duty; the server's clock plays that pass as
    a captain would). SERVER: only the host's own machinery, never a screen (a gift
    arriving from another table).
    """

    SEAT = "seat"
    DUTY = "duty"
    SERVER = "server"


@dataclass(frozen=True, slots=True)
class Features:
    """Which parts of the party a game uses; a screen shows none of the others."""

    gifts: bool  # each guest brings a gift and leaves with one
    vaults: bool  # tables keep extra wrapped gifts
    relay: bool  # gifts move between tables at the gate
    gate: bool = True  # every table stops half-way until the host opens the second half
    # How many games a party's table plays in a row, one state, a running total
    # (Setup.games): what the host's form offers by default and at most. A gift swap
    # plays one: its gifts go home.
    games: int = 1
    max_games: int = 1


@dataclass(frozen=True, slots=True)
class Setup:
    """A table's start: its size, its seed and the game's own options.

    `options` is game-specific and JSON-able (a gift swap's gifts and vault, a number
    of heists, a party's language...). `gate` stops the game half-way for the party.
    `games`: how many games the table plays in a row (1 to Features.max_games).
    """

    players: int
    seed: int | str
    gate: bool = False
    games: int = 1
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Clock:
    """A step that waits on people, how long it may wait, and what happens when it runs out.

    `stand_in` is the action the server applies for the first seat in `waiting` when the
    clock runs out: the rules' do-nothing choice (a turn passed, a reaction let happen,
    a decision defaulted). `step` names the step for the screens and the timing table.
    `since`: the version the step began at: the state its first action was taken on
    (a reaction window: the version that opened it; a room everybody inside decides
    on at once: the version it was turned up at). The step's clock runs from then, and
    a screen that saw an older version saw another step (`is_stale`). None: the step
    began at the state's own version, so every action starts a new step (a game where
    one seat moves at a time).
    """

    step: str
    waiting: tuple[int, ...]
    stand_in: Any
    seconds: float
    since: int | None = None
    # Seconds after which the rules themselves let the captain or the host pass the
    # step, whatever the party's clock (a rulebook's "the host can pass an unanswered
    # reaction after 60 seconds"); None: only the party's clock.
    rules_pass: float | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat's place in a finished (or running) game, for the party's result."""

    seat: int
    score: int  # what the game ranks by (banked jewels, a count of claims...; 0 for a game with no score)
    rank: int  # 1 = best; tied seats share a rank
    winner: bool


class GameDefinition(Protocol[State, Act]):
    """A game the party can host. `State` is the game's own state value; `Act` its actions."""

    name: str  # the registry key and the stored `game` column
    title: str  # as printed on every page, sheet and story
    min_players: int
    max_players: int
    table_max: int  # the most players a party puts at one table
    features: Features

    # --- setup, actions, rules -----------------------------------------------------------
    def setup(self, setup: Setup) -> tuple[State, list[Event]]: ...
    def parse_action(self, data: Any) -> Act: ...  # raises MalformedActionError
    def action_to_dict(self, action: Act) -> dict[str, Any]: ...
    def apply(self, state: State, action: Act) -> tuple[State, list[Event]]: ...  # raises IllegalActionError
    def replay(self, setup: Setup, actions: Sequence[Act]) -> State: ...

    # --- storage ---------------------------------------------------------------------------
    def to_dict(self, state: State) -> dict[str, Any]: ...
    def from_dict(self, data: Mapping[str, Any]) -> State: ...
    def version(self, state: State) -> int: ...

    # --- views ------------------------------------------------------------------------------
    def public_view(self, state: State) -> dict[str, Any]: ...
    def seat_view(self, state: State, seat: int) -> dict[str, Any]: ...
    def private_keys(self) -> tuple[str, ...]: ...  # the keys of a seat view no one else may see
    # What seat_view adds to public_view (a table's update carries the public part once
    # and this per seat, tables/broadcast.py): cheaper than a whole seat view per seat.
    def seat_private(self, state: State, seat: int) -> dict[str, Any]: ...

    # --- who acts ----------------------------------------------------------------------------
    def waiting_for(self, state: State) -> tuple[int, ...]: ...
    def legal_actions(self, state: State, seat: int | None) -> list[Act]: ...  # None: duty/server acts
    def role_of(self, action: Act) -> Role: ...
    def seat_of(self, action: Act) -> int | None: ...
    def bot_action(self, state: State, rng: random.Random, seat: int | None = None) -> Act | None: ...

    # --- clocks and the party ------------------------------------------------------------
    def clock(self, state: State, seconds: Mapping[str, float]) -> Clock | None: ...
    def clock_steps(self) -> Mapping[str, float]: ...  # each clocked step's default seconds
    def at_gate(self, state: State) -> bool: ...
    def gate_opened(self, state: State) -> Act | None: ...  # what the host's "open the gate" applies
    def is_over(self, state: State) -> bool: ...
    def standings(self, state: State) -> list[Standing]: ...

    # --- what the screens, printables and story need -----------------------------------
    def rules_for_screens(self, say: Callable[[str], str] = str) -> dict[str, Any]: ...


Definition = GameDefinition[Any, Any]


# --- optional parts: a game that has them says so by having the method -------------------


@runtime_checkable
class HidesInformation(Protocol[State]):
    """A game with secrets (hands, wrapped gifts, a shuffled pile) that can prove its views
    keep them: tests/games/conformance checks each viewer's view is the same for `state`
    and for `reshuffle_hidden(state, viewer, rng)`."""

    def reshuffle_hidden(self, state: State, viewer: int | None, rng: random.Random) -> State:
        """A state `viewer` (a seat, None: a public screen) cannot tell from `state`:
        everything it may not know (other hands, the pile's order, undisclosed
        descriptions, others' pending answers, the generator) chosen afresh with `rng`,
        everything it may know kept; a state the rules could have reached."""
        ...


@runtime_checkable
class HoldsGifts(Protocol):
    """A game with `Features(gifts=True)`: the guests' gifts (and, with `vaults`, the
    tables' vault gifts) are its pieces. The party names them by the game's ids: a
    guest's gift is its label number, a vault gift `vault_gift_id(number)`; the party
    reads back where each gift is, to say who leaves with what."""

    def vault_gift_id(self, number: int) -> int:
        """The id of the party's vault gift labelled `number` (one id space for the party)."""
        ...

    def gift_label(self, gift_id: int) -> str:
        """The label printed on the gift's tag and shown on every screen ("3", "V2")."""
        ...

    def seat_gifts(self, state: Any) -> Sequence[int]:
        """The gift in front of each seat, by seat."""
        ...

    def vault_gifts(self, state: Any) -> Sequence[int]:
        """The gifts left in this table's vault."""
        ...

    def gift_description(self, state: Any, gift_id: int) -> str:
        """What the guest wrote about the gift ("" for a gift this table never held)."""
        ...

    def told_to_the_room(self, state: Any, gift_id: int) -> bool:
        """Whether the gift was unwrapped in front of the room (its description is public)."""
        ...


@runtime_checkable
class RelaysGifts(Protocol):
    """A game with `Features(relay=True)`: at the gate, after `gate_opened`'s actions,
    it waits for a gift from another table, which the host's relay hands it."""

    def draws_relay_seat(self, action: Any) -> bool:
        """Whether `action` is the captain's draw of the seat that sends a gift on (the
        party accepts it only once the host has opened the relay)."""
        ...

    def relay_seat(self, state: Any) -> int | None:
        """The seat drawn to send its gift on (None: not drawn yet)."""
        ...

    def relay_arrival(self, state: Any, gift_id: int, description: str) -> Any:
        """The action (a SERVER one) that brings gift `gift_id` to this table now."""
        ...


@runtime_checkable
class ChecksSeen(Protocol):
    """A game that says which of its actions are checked against the version the
    sender's screen showed (a game without this part has all of them checked)."""

    def checks_seen(self, action: Any) -> bool:
        """Whether `action` is refused as stale when sent from a screen showing another
        step (False: the action names its own moment, as a reaction that names its
        window, or must count whatever the screen showed)."""
        ...


@runtime_checkable
class NamesWireTypes(Protocol):
    """A game that says, by an action's wire type alone, who may send it: the host then
    refuses a frame no such sender may send before parsing it, with the permission's
    code (`forbidden`) rather than the parser's. A game without it has every frame
    parsed first, and the parsed action's `role_of` and `seat_of` decide."""

    def wire_roles(self) -> Mapping[str, Role]:
        """Each action's wire type and the role that may send it (SERVER: no screen)."""
        ...


@runtime_checkable
class NamesSteps(Protocol):
    """A game that says, per step its clock names (`Clock.step`), the words the host's
    stand-in buttons and alerts use for it. A game without it gets the host's plain words
    ("Play for Ann")."""

    def step_texts(self) -> Mapping[str, Mapping[str, str]]:
        """Step name -> its texts, each marked with `gettext_noop` (games/marks.py; the
        pages translate them): `stand_in`, the button's sentence with `%(name)s` ("Pass
        the turn for %(name)s"); `before`, what a countdown to it starts with ("The turn
        may be played for them in "); `waited`, the host's alert with `%(letter)s`,
        `%(seconds)s` and `%(names)s`. Any may be left out."""
        ...


@runtime_checkable
class NamesDuties(Protocol):
    """A game that says in its own words what its quiet guests' stand-ins and its
    captain's duties are, for the host's dashboard and the form that creates a party:
    which steps the party's step clock times and what the captain or the host may then
    play for a quiet guest. A game without it (or without one of the texts) gets the
    host's plain words ("the rules' do-nothing choice")."""

    def duty_texts(self) -> Mapping[str, str]:
        """Whole sentences, each marked with `gettext_noop` (the pages translate them):
        `clock`, the step clock's menu: the steps it times and each one's stand-in
        ("How long a quiet guest's turn ... may wait. Then ...: pass the turn, ...");
        `clock_off`, what still waits or may be passed with the clock off (a rulebook's
        own pass); `tablet`, where a table has no tablet yet: the captain's duties a
        tablet at the table can do. The host's form, where the game is chosen, says the
        same in two short hints, lower case and without brackets (the form adds them):
        `clock_hint`, beside its step clock, what the clock times ("how long a turn ...
        may wait for one quiet guest"); `stand_in_hint`, beside "the server plays for
        the quiet guest", what the captain or host may play instead ("else the captain
        or you may: pass, ..."). Any may be left out."""
        ...


@runtime_checkable
class NamesRules(Protocol):
    """A game that says, per rule its refusals name (`IllegalActionError.rule`, its
    errors.py), the sentence a guest reads when the party speaks another language than
    English (the engine's own detail is English, composed with f-strings). A game without
    it, or a rule it leaves out, gets the host's sentence for the shared rules (`turn`,
    `phase`, `seat`, `malformed`: games/errors.py) or the host's plain "The rules do not
    allow that now." (tables/errors.py)."""

    def rule_texts(self) -> Mapping[str, str]:
        """Rule code -> one whole sentence, marked with `gettext_noop` (the host
        translates it where it refuses)."""
        ...


@runtime_checkable
class TakesPartyData(Protocol):
    """A game whose rules need data only the party can load (files read once per process,
    such as a dictionary): the registry imports the part `<package>.party.<data_part>`
    when it registers the game and hands its `DATA` in (`take_party_data`), so the rules
    never read a file nor import a party part."""

    data_part: str

    def take_party_data(self, data: Any) -> None:
        """Keep `data` (the part's `DATA`) for every later call of the rules."""
        ...


@runtime_checkable
class SpeaksLanguage(Protocol):
    """A game whose tables play in the party's language (a word game's dictionary): the
    party's seating puts these options in every table's setup."""

    def language_options(self, language: str) -> dict[str, Any]:
        """The setup options of a table at a party in `language` (a code of LANGUAGES)."""
        ...


def step_since(definition: Definition, state: Any, clock: Clock | None = None) -> int:
    """The version the step `state` waits on began at (its clock's `since`; the state's
    own version when the game says nothing, or waits on nobody). `clock`: the
    definition's clock of `state`, when the caller has it."""
    clock = clock or definition.clock(state, {})
    if clock is None or clock.since is None:
        return definition.version(state)
    return clock.since


def starts_step(definition: Definition, state: Any, clock: Clock | None = None) -> bool:
    """Whether the action that made `state` started a new step: its clock starts afresh."""
    return step_since(definition, state, clock) == definition.version(state)


def checks_seen(definition: Definition, action: Any) -> bool:
    """Whether `action` is checked against the version its sender's screen showed: the
    game's say (`ChecksSeen`), every action of a game that says nothing. A screen must
    send that version with a checked action (a frame without it is refused: a sender
    that left it out would never be found stale)."""
    return not isinstance(definition, ChecksSeen) or definition.checks_seen(action)


def is_stale(definition: Definition, state: Any, action: Any, seen: int) -> bool:
    """Whether `action`, sent from a screen that showed version `seen`, was meant for
    another step than the one `state` waits on: refused, and the screen catches up. Two
    screens that saw the same step both count (everybody inside deciding on one room);
    a late tap from the step before never lands on the next one. An action the game
    does not check (`checks_seen`) is never stale."""
    if not checks_seen(definition, action):
        return False
    return not step_since(definition, state) <= seen <= definition.version(state)


def gifts_of(definition: Definition) -> HoldsGifts:
    """The gift part of a game with `Features(gifts=True)` (LookupError for another game:
    the party asked a game without gifts about gifts)."""
    if not isinstance(definition, HoldsGifts):
        raise LookupError(f"{definition.name} has no gifts")
    return definition


def relay_of(definition: Definition) -> RelaysGifts:
    """The relay part of a game with `Features(relay=True)` (LookupError for another game)."""
    if not isinstance(definition, RelaysGifts):
        raise LookupError(f"{definition.name} has no relay")
    return definition


@runtime_checkable
class ScoresEachGame(Protocol):
    """A game whose table may play several games in a row (Features.max_games > 1): the
    party's result shows each guest's score game by game, read from the events the
    table's play emitted (its definition's replay of the stored actions, tables/replay.py)."""

    def game_scores(self, events: Sequence[Event]) -> list[list[int]]:
        """Per finished game, in order: each seat's score in that game alone."""
        ...


@dataclass(frozen=True, slots=True)
class HostOption:
    """One choice the host makes for every table of a party, in the host's form
    (`TakesHostOptions`): an int in `low`..`high` or a bool. `label` and `hint` are
    marked texts (gettext_noop), translated by the page that shows them."""

    name: str
    label: str
    default: int | bool
    low: int = 0
    high: int = 0
    hint: str = ""

    @property
    def kind(self) -> str:
        return "bool" if isinstance(self.default, bool) else "int"

    def check(self, value: object) -> int | bool:
        """`value` as sent, checked (HostOptionError names the option and its range)."""
        if self.kind == "bool":
            if type(value) is not bool:
                raise HostOptionError(gettext_noop("%(option)s: yes or no (true or false)"), option=self.label)
            return value
        if type(value) is not int or not self.low <= value <= self.high:
            raise HostOptionError(
                gettext_noop("%(option)s: a whole number from %(low)s to %(high)s"),
                option=self.label,
                low=self.low,
                high=self.high,
            )
        return value


class HostOptionError(ValueError):
    """A host's choice refused (`check_host_options`): `text` a marked text
    (gettext_noop) with `%(name)s` places, `params` its values; `option` and `game`,
    when given, are marked texts too (an option's label, a game's title). `str()` is the
    English; the host shows `translated(gettext)`."""

    MARKED = ("option", "game")

    def __init__(self, text: str, **params: object) -> None:
        self.text, self.params = text, params
        super().__init__(text % params)

    def translated(self, say: Callable[[str], str]) -> str:
        return say(self.text) % {
            k: say(v) if k in self.MARKED and isinstance(v, str) else v for k, v in self.params.items()
        }


@runtime_checkable
class TakesHostOptions(Protocol):
    """A game whose host chooses some of its rules for the whole party (a vault's size,
    an alternate rule): the host's form offers `host_options`, the party keeps the
    choices, and each table's Setup.options come from `table_options` at the seating."""

    def host_options(self) -> Sequence[HostOption]:
        """The choices the host's form offers, in its order."""
        ...

    def table_options(
        self,
        chosen: Mapping[str, Any],
        table_sizes: Sequence[int],
        rng: random.Random,
        groups: Sequence[Sequence[int | None]] | None = None,
    ) -> list[dict[str, Any]]:
        """Each table's Setup.options (in the seating's table order) from the host's
        checked choices; any draw across tables (teams) from `rng`, the party's. A game
        that `PlaysInGroups` gets `groups`: each table's seats' groups as the host set
        them by hand in the lobby (None: a seat to draw)."""
        ...


def check_host_options(definition: Definition, sent: object) -> dict[str, Any]:
    """The host's choices as sent, checked against the game's `host_options` and
    completed with their defaults (HostOptionError, a ValueError: an unknown name or a
    value out of range)."""
    offered = list(definition.host_options()) if isinstance(definition, TakesHostOptions) else []
    if sent is None:
        sent = {}
    if not isinstance(sent, dict):
        raise HostOptionError(gettext_noop("the game's options are an object of names and values"))
    unknown = sorted(set(sent) - {o.name for o in offered})
    if unknown:
        raise HostOptionError(
            gettext_noop("%(game)s has no option %(names)s"), game=definition.title, names=", ".join(map(str, unknown))
        )
    return {o.name: o.check(sent[o.name]) if o.name in sent else o.default for o in offered}


@runtime_checkable
class PlaysInGroups(Protocol):
    """A game whose party competes as groups whose members sit at every table (teams):
    the party's result adds every seat's score up by its group, and the best total wins
    the party. A seat's group is its table's state's to say. The host may put guests in
    a group by hand in the lobby (the party command `set_group`); the seating hands the
    choices to `TakesHostOptions.table_options`, which draws the rest."""

    def group_names(self) -> Sequence[str]:
        """The groups' names by number (marked texts, gettext_noop)."""
        ...

    def group_of(self, state: Any, seat: int) -> int:
        """The group `seat` plays for at the table whose state is `state`."""
        ...


def ranked(scores: Sequence[int]) -> list[Standing]:
    """Standings from scores, highest first; tied seats share a rank and a win."""
    order = sorted(set(scores), reverse=True)
    best = order[0] if order else 0
    rank_of = {score: 1 + sum(1 for s in scores if s > score) for score in order}
    return [Standing(seat=i, score=s, rank=rank_of[s], winner=s == best) for i, s in enumerate(scores)]


__all__ = [
    "ChecksSeen",
    "Clock",
    "Definition",
    "Features",
    "GameDefinition",
    "HidesInformation",
    "HoldsGifts",
    "HostOption",
    "HostOptionError",
    "NamesDuties",
    "NamesRules",
    "NamesSteps",
    "NamesWireTypes",
    "PlaysInGroups",
    "RelaysGifts",
    "Role",
    "ScoresEachGame",
    "Setup",
    "SpeaksLanguage",
    "Standing",
    "TakesHostOptions",
    "TakesPartyData",
    "check_host_options",
    "checks_seen",
    "gifts_of",
    "is_stale",
    "ranked",
    "relay_of",
    "starts_step",
    "step_since",
]
