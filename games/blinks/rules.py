"""The rules of Blinks Heist as one pure function: `apply(game, action) -> (game, events)`.

The throw happens on the table, with real Blinks; the engine keeps the party's record of
it. No I/O, no clock, no global random: the seed only draws who throws first. The input
game is never changed; an illegal action raises an `IllegalActionError` and changes
nothing. The decisions the printed rules leave open are docs/RULES.md's "Blinks Heist".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games import rng as _rng
from games.dispatch import dispatch

from .actions import Action, Confirm, EndTurn, Overrule, PassTurn, Throw, Undo
from .errors import (
    AlreadyRecordedError,
    AlreadySettledError,
    ClaimedError,
    EndTurnError,
    MalformedActionError,
    NoSuchBlinkError,
    NoSuchSeatError,
    NoSuchThrowError,
    OutOfTurnError,
    UndoClosedError,
    WrongPhaseError,
)
from .state import Event, Game, Phase, Record
from .teams import TEAMS, leaders

MIN_PLAYERS, MAX_PLAYERS = 2, 8
HEALTH = 4  # "Each vault Blink has 4 health"
MIN_VAULT, MAX_VAULT = 3, 30  # the Blinks a host may put in one table's vault
VAULT = 10  # a table's vault unless the host chooses (docs/RULES.md, "The vault's size": bench/blinks_vault.py)


class _Log(list[Event]):
    """The events of one action, all stamped with the version the action produces."""

    def __init__(self, version: int) -> None:
        super().__init__()
        self.version = version

    def emit(self, type_: str, **data: Any) -> None:
        self.append(Event(type_, data, None, self.version))


def top_seats(scores: Sequence[int]) -> list[int]:
    """The seats with the best score (ties: all of them), in seat order."""
    best = max(scores)
    return [s for s, score in enumerate(scores) if score == best]


# --- setup --------------------------------------------------------------------------------


def default_teams(players: int) -> tuple[int, ...]:
    """A lone table's teams when the host sets none: the colours in turn around the table."""
    return tuple(seat % TEAMS for seat in range(players))


def new_game(
    seed: int | str,
    players: int,
    vault: int = VAULT,
    alternate: bool = False,
    teams: Sequence[int] | None = None,
) -> tuple[Game, list[Event]]:
    """Seat `players` players around a vault of `vault` Blinks of full health; the seed
    draws who throws first. `teams`: each seat's team (0 to 3), the host's or its draw."""
    if type(seed) is not int and type(seed) is not str:  # bool is an int subclass: refuse it too
        raise MalformedActionError(f"a seed is an int or a str, not {type(seed).__name__}")
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise MalformedActionError(f"Blinks Heist is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
    if type(vault) is not int or not MIN_VAULT <= vault <= MAX_VAULT:
        raise MalformedActionError(f"a vault has {MIN_VAULT} to {MAX_VAULT} Blinks, not {vault!r}")
    if type(alternate) is not bool:
        raise MalformedActionError("the alternate rule is on or off (true or false)")
    if teams is None:
        teams = default_teams(players)
    teams = tuple(teams)
    if len(teams) != players or any(type(t) is not int or not 0 <= t < TEAMS for t in teams):
        raise MalformedActionError(
            f"teams name each of the {players} seats' team, 0 to {TEAMS - 1}: not {list(teams)!r}"
        )
    first, _ = _rng.below(_rng.seed_state(seed), players)
    game = Game(
        players=players,
        seed=seed,
        version=1,
        phase=Phase.THROW,
        alternate=alternate,
        teams=teams,
        health=[HEALTH] * vault,
        owner=[None] * vault,
        first=first,
        turn=first,
        turns=1,
        thrown=0,
        skips=[False] * players,
        throws=0,
        pending=None,
        last=None,
        before=None,
    )
    log = _Log(1)
    log.emit("game_started", players=players, vault=vault, health=HEALTH, alternate=alternate, teams=list(teams))
    log.emit("turn", seat=first, turn=1)
    return game, list(log)


# --- the one entry point ------------------------------------------------------------------


def apply(game: Game, action: Action) -> tuple[Game, list[Event]]:
    """Apply one action. Returns the new game and its events; raises IllegalActionError."""
    g, log = dispatch(game, action, _HANDLERS, _Log)
    return g, list(log)


def replay(setup: Mapping[str, Any], actions: Sequence[Action]) -> Game:
    """Rebuild a game from new_game's arguments and its accepted actions."""
    game, _ = new_game(**setup)
    for action in actions:
        game, _ = apply(game, action)
    return game


# --- checks -------------------------------------------------------------------------------


def _not_over(g: Game) -> None:
    if g.phase is Phase.OVER:
        raise WrongPhaseError("the vault is empty: the game is over")


def _thrower(g: Game, seat: int) -> None:
    """`seat` may act as the thrower now: it is their turn and no record waits."""
    if not 0 <= seat < g.players:
        raise NoSuchSeatError(f"there is no seat {seat} at this table")
    _not_over(g)
    if g.phase is not Phase.THROW:
        raise WrongPhaseError(f"throw {g.throws} waits for the captain first")
    if seat != g.turn:
        raise OutOfTurnError(f"it is seat {g.turn}'s turn, not seat {seat}'s")


def _outcome(g: Game, hit: int | None, touched: bool) -> None:
    """A throw's outcome names a Blink still in the vault, or none."""
    if type(touched) is not bool:
        raise MalformedActionError("touched must be true or false")
    if hit is None:
        return
    if type(hit) is not int:
        raise MalformedActionError("a hit names a Blink by its number")
    if not 1 <= hit <= g.vault:
        raise NoSuchBlinkError(f"the vault's Blinks are numbered 1 to {g.vault}, not {hit}")
    if g.owner[hit - 1] is not None:
        raise ClaimedError(f"Blink {hit} was claimed by seat {g.owner[hit - 1]}: it is out of the vault")


def _pending(g: Game, throw: int) -> Record:
    """The recorded throw `throw`, waiting for the captain."""
    _not_over(g)
    if g.pending is not None and throw == g.pending.throw:
        return g.pending
    if 1 <= throw <= g.throws:
        raise AlreadySettledError(f"throw {throw} is settled already (the first tap counted)")
    raise NoSuchThrowError(f"no throw {throw} waits for the captain")


# --- a throw ------------------------------------------------------------------------------


def _next_turn(g: Game, log: _Log) -> None:
    """The next seat in order whose turn is not skipped throws. A skip is used up by the
    one turn it skips: the seat throws at its turn after."""
    seat = g.turn
    while True:
        seat = (seat + 1) % g.players
        if g.skips[seat]:
            g.skips[seat] = False
            log.emit("skipped", seat=seat)
            continue
        break
    g.turn, g.thrown = seat, 0
    g.turns += 1
    log.emit("turn", seat=seat, turn=g.turns)


def _settle(g: Game, record: Record, log: _Log, by: str) -> None:
    """The throw happened as `record` says: damage, a claim, a skip, the end or the next
    throw. Kept undoable until the next record."""
    g.before = g.undo_point()
    g.pending = None
    seat, team = record.seat, g.teams[record.seat]
    log.emit("settled", throw=record.throw, seat=seat, hit=record.hit, touched=record.touched, by=by)
    if record.hit is not None:
        i = record.hit - 1
        g.health[i] -= 1
        log.emit("damaged", blink=record.hit, health=g.health[i], seat=seat, team=team)
        if g.health[i] == 0:
            g.owner[i] = seat
            log.emit("claimed", blink=record.hit, seat=seat, team=team, left=len(g.in_vault()))
    g.thrown += 1
    missed = record.hit is None
    if record.touched:
        g.skips[seat] = True
        log.emit("skip_earned", seat=seat, reason="touched")
    if g.alternate and missed and not g.skips[seat]:
        g.skips[seat] = True
        log.emit("skip_earned", seat=seat, reason="missed")
    if not g.in_vault():
        _game_over(g, log)
        return
    g.last = record
    g.phase = Phase.THROW
    if record.touched or missed or not g.alternate:
        _next_turn(g, log)


def _game_over(g: Game, log: _Log) -> None:
    """The last vault Blink is claimed: the game ends; nothing is taken back after it."""
    g.phase = Phase.OVER
    g.last, g.before = None, None
    claims = g.claims()
    teams = g.team_claims()
    log.emit("game_over", claims=claims, winners=top_seats(claims), teams=teams, winning_teams=leaders(teams))


# --- handlers -----------------------------------------------------------------------------


def _throw(g: Game, a: Throw, log: _Log) -> None:
    if type(a.throw) is not int:
        raise MalformedActionError("a throw is numbered")
    # The number first: a record sent twice (a retry, a double tap) is told it counted
    # already, whatever has happened since.
    if 1 <= a.throw <= g.throws:
        raise AlreadyRecordedError(f"throw {a.throw} is recorded already: a throw counts once")
    _thrower(g, a.seat)
    if a.throw != g.throws + 1:
        raise NoSuchThrowError(f"the next throw is number {g.throws + 1}, not {a.throw}")
    _outcome(g, a.hit, a.touched)
    g.throws = a.throw
    # The record opens a new undo window and so closes the last one.
    g.last, g.before = None, None
    g.pending = Record(a.throw, a.seat, a.hit, a.touched)
    g.phase = Phase.CONFIRM
    log.emit("recorded", throw=a.throw, seat=a.seat, hit=a.hit, touched=a.touched)


def _confirm(g: Game, a: Confirm, log: _Log) -> None:
    record = _pending(g, a.throw)
    _settle(g, record, log, by="confirmed")


def _overrule(g: Game, a: Overrule, log: _Log) -> None:
    record = _pending(g, a.throw)
    _outcome(g, a.hit, a.touched)
    _settle(g, Record(record.throw, record.seat, a.hit, a.touched), log, by="captain")


def _undo(g: Game, a: Undo, log: _Log) -> None:
    _not_over(g)
    if g.last is None or g.before is None or a.throw != g.last.throw:
        last = f"throw {g.last.throw}" if g.last else "nothing"
        raise UndoClosedError(
            f"only the last settled throw can be taken back, until the next is recorded ({last} now, not throw {a.throw})"
        )
    record = g.last
    g.restore(g.before)
    g.last, g.before = None, None
    g.phase = Phase.THROW
    log.emit("undone", throw=record.throw, seat=record.seat, hit=record.hit, touched=record.touched)
    log.emit("turn", seat=g.turn, turn=g.turns)


def _end_turn(g: Game, a: EndTurn, log: _Log) -> None:
    _thrower(g, a.seat)
    if not g.alternate:
        raise EndTurnError("a turn is one throw: ending it early is the alternate rule's")
    if g.thrown == 0:
        raise EndTurnError("throw first: the alternate rule ends a turn after a hit")
    log.emit("turn_ended", seat=a.seat, throws=g.thrown)
    g.last, g.before = None, None  # the turn moved on: its last throw stands
    _next_turn(g, log)


def _pass_turn(g: Game, a: PassTurn, log: _Log) -> None:
    _thrower(g, a.seat)
    log.emit("passed", seat=a.seat)
    g.last, g.before = None, None
    _next_turn(g, log)


_HANDLERS: dict[type[Any], Callable[[Game, Any, _Log], None]] = {
    Throw: _throw,
    Confirm: _confirm,
    Overrule: _overrule,
    Undo: _undo,
    EndTurn: _end_turn,
    PassTurn: _pass_turn,
}


__all__ = [
    "HEALTH",
    "MAX_PLAYERS",
    "MAX_VAULT",
    "MIN_PLAYERS",
    "MIN_VAULT",
    "VAULT",
    "apply",
    "default_teams",
    "new_game",
    "replay",
    "top_seats",
]
