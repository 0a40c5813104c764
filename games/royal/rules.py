"""The rules of Royal Heist as one pure function: `apply(game, action) -> (game, events)`.

No I/O, no clock, no global random: the only randomness is the game's own SplitMix64
state (games/rng.py), which travels inside the game. The input game is never changed;
an illegal action raises an `IllegalActionError` and changes nothing.

Step numbers in comments are the printed rules' ("Play", 1 to 6); the decisions the
printed rules leave open are docs/RULES.md's "Royal Heist" section.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games import rng as _rng
from games.dispatch import dispatch

from .actions import Action, Decide, OpenGate, TimeoutDecide
from .cards import JOKER, RUN_DECK, SIDE_STACK, is_bonus, is_danger, rank_of, spot_value
from .errors import (
    AlreadyDecidedError,
    MalformedActionError,
    NoSuchSeatError,
    NotInsideError,
    WrongPhaseError,
)
from .state import Event, Game, Phase, Room

MIN_PLAYERS, MAX_PLAYERS = 3, 8
HEISTS = 5
# Why at most 13: the run deck can then never run out while somebody is inside (see
# `_turn_up`). A heist that ends on a danger retires one card; before heist h at most
# h - 1 cards are retired. Emptying the deck without a repeat needs every danger rank
# down to one card: 3 of each face's 4 (12) and one of the two Jokers, 13 retirements,
# so heist 14 at the earliest. Through heist 13 some rank still has two cards in the
# deck, and turning up the whole deck would turn up both: the heist ends on the second
# at the latest (tests/games/royal/test_decks.py).
MAX_HEISTS = 13
# A party's table may play several games in a row, the banks adding up (docs/RULES.md,
# "A Royal Heist party": three; four fit one table's evening, not a room's). Each game
# starts from a whole deck, so MAX_HEISTS's proof holds game by game.
MAX_GAMES = 4
PARTY_GAMES = 3  # what a party's table plays unless the host chooses otherwise


class _Log(list[Event]):
    """The events of one action, all stamped with the version the action produces."""

    def __init__(self, version: int) -> None:
        super().__init__()
        self.version = version

    def emit(self, type_: str, to: tuple[int, ...] | None = None, **data: Any) -> None:
        self.append(Event(type_, data, to, self.version))


def gate_after(heists: int) -> int:
    """The heist after which a party's one-game table stops at the gate: half-way,
    rounded down (heist 2 of 5, so the gate stands before heist 3)."""
    return heists // 2


def top_seats(scores: Sequence[int]) -> list[int]:
    """The seats with the best score (ties: all of them), in seat order."""
    best = max(scores)
    return [s for s, score in enumerate(scores) if score == best]


def gate_point(heists: int, games: int = 1) -> tuple[int, int]:
    """(game, heist) after which a party's table stops at the gate: half-way through all
    its heists, rounded down. One game of 5: after heist 2; three games of 5 (15 heists):
    after the 7th, game 2's heist 2; two games: between them. (0, 0): no half-way."""
    n = games * heists // 2
    if n < 1:
        return 0, 0
    return (n - 1) // heists + 1, (n - 1) % heists + 1


# --- setup --------------------------------------------------------------------------------


def new_game(
    seed: int | str, players: int, gate: bool = False, heists: int = HEISTS, games: int = 1
) -> tuple[Game, list[Event]]:
    """Seat `players` players and start heist 1 of game 1 (its first room is turned up
    at once). `games` > 1: the table plays that many games in a row, each from a whole
    deck and empty banks, the banks adding up to a running total (`Game.totals`)."""
    if type(seed) is not int and type(seed) is not str:  # bool is an int subclass: refuse it too
        raise MalformedActionError(f"a seed is an int or a str, not {type(seed).__name__}")
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise MalformedActionError(f"Royal Heist is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
    if type(heists) is not int or not 1 <= heists <= MAX_HEISTS:
        raise MalformedActionError(f"a game has 1 to {MAX_HEISTS} heists, not {heists!r}")
    if type(games) is not int or not 1 <= games <= MAX_GAMES:
        raise MalformedActionError(f"a table plays 1 to {MAX_GAMES} games, not {games!r}")
    if type(gate) is not bool:
        raise MalformedActionError("gate is true or false")
    if gate and gate_point(heists, games) == (0, 0):
        raise MalformedActionError("a one-heist game has no half-way for a party's gate")
    game = Game(
        players=players,
        seed=seed,
        rng=_rng.seed_state(seed),
        version=1,
        phase=Phase.DECIDE,
        heists=heists,
        heist=0,
        games=games,
        game=1,
        totals=[0] * players,
        gate=gate,
        gate_opened=False,
        deck=[],
        side=[],
        rooms=[],
        inside=(),
        satchels=[0] * players,
        banks=[0] * players,
        dangers=(),
        retired=(),
        decisions={},
        timed_out=(),
        revealed={},
        turned_up=0,
        lost=0,
        last_heist=None,
    )
    log = _Log(1)
    log.emit("game_started", game=1, players=players, heists=heists, games=games, gate=gate)
    _start_heist(game, log)
    return game, list(log)


# --- the one entry point ------------------------------------------------------------------


def apply(game: Game, action: Action) -> tuple[Game, list[Event]]:
    """Apply one action. Returns the new game and its events; raises IllegalActionError."""
    g, log = dispatch(game, action, _HANDLERS, _Log)
    return g, list(log)


def replay(
    seed: int | str, players: int, actions: Sequence[Action], gate: bool = False, heists: int = HEISTS, games: int = 1
) -> Game:
    """Rebuild a game from its setup and accepted actions."""
    game, _ = new_game(seed, players, gate=gate, heists=heists, games=games)
    for action in actions:
        game, _ = apply(game, action)
    return game


# --- a heist ------------------------------------------------------------------------------


def _start_heist(g: Game, log: _Log) -> None:
    """1. Go in: shuffle the run deck without the retired cards, shuffle the side stack,
    everybody inside with an empty satchel, the first room turned up at once."""
    if g.heist >= g.heists:
        _next_game(g, log)
    g.heist += 1
    retired = list(g.retired)
    deck = []
    for card in RUN_DECK:
        if card in retired:
            retired.remove(card)
        else:
            deck.append(card)
    g.rng = _rng.shuffle(g.rng, deck)
    side = list(SIDE_STACK)
    g.rng = _rng.shuffle(g.rng, side)
    g.deck, g.side = deck, side
    g.rooms = []
    g.inside = tuple(range(g.players))
    # The satchels are empty already: every heist ends with each player's satchel banked
    # (got out) or lost (caught), tests/games/royal/test_properties.py checks it always.
    g.dangers = ()
    g.decisions, g.timed_out, g.revealed = {}, (), {}
    g.phase = Phase.DECIDE
    log.emit("heist_started", game=g.game, heist=g.heist, deck=len(deck), retired=list(g.retired))
    _turn_up(g, log)


def _turn_up(g: Game, log: _Log) -> None:
    """4 and 5. Turn up the top run card as the next room and settle it."""
    # The deck cannot be empty here while somebody is inside: MAX_HEISTS's proof.
    card = g.deck.pop()
    if is_danger(card):
        rank = rank_of(card)
        g.rooms.append(Room(card, None, 0))
        repeat = rank in g.dangers
        log.emit("room", heist=g.heist, card=card, danger=True, repeat=repeat, value=0, share=0, left=0)
        if repeat:
            _caught(g, card, log)
        else:
            g.dangers = (*g.dangers, rank)
        return
    value = spot_value(card)
    bonus = None
    if is_bonus(card):
        # At most 8 diamonds a heist against a fresh 16-card side stack: it never runs out.
        bonus = g.side.pop()
        value += spot_value(bonus)
    k = len(g.inside)
    share, left = divmod(value, k)  # "What doesn't divide stays in the room."
    for s in g.inside:
        g.satchels[s] += share
    g.rooms.append(Room(card, bonus, left))
    g.turned_up += value
    log.emit("room", heist=g.heist, card=card, bonus=bonus, danger=False, value=value, share=share, left=left)


def _caught(g: Game, card: str, log: _Log) -> None:
    """5. A second card of a danger rank: everybody inside loses their satchel, the rooms'
    jewels are lost; a second Joker also halves each caught player's bank (rounded down,
    so an odd bank keeps the larger half). Then the card retires for good."""
    caught = g.inside
    losses = {}
    for s in caught:
        satchel = g.satchels[s]
        taken = g.banks[s] // 2 if rank_of(card) == JOKER else 0
        g.banks[s] -= taken
        g.satchels[s] = 0
        g.lost += satchel + taken
        losses[str(s)] = {"satchel": satchel, "bank": taken}
    rooms = _clear_rooms(g)
    g.inside = ()
    # "remove one card of that rank from the game for good": the card that ended the heist.
    g.retired = (*g.retired, card)
    log.emit("caught", heist=g.heist, card=card, seats=list(caught), losses=losses, rooms_lost=rooms)
    log.emit("retired", card=card, retired=list(g.retired))
    _end_heist(g, log, {"heist": g.heist, "ended": "caught", "card": card, "caught": list(caught), "rooms_lost": rooms})


def _clear_rooms(g: Game) -> int:
    """The jewels left in the rooms are lost (a heist's end); returns how many."""
    left = sum(r.jewels for r in g.rooms)
    g.lost += left
    g.rooms = [Room(r.card, r.bonus, 0) for r in g.rooms]
    return left


def _end_heist(g: Game, log: _Log, summary: dict[str, Any]) -> None:
    g.last_heist = {**summary, "game": g.game}
    if g.heist >= g.heists:
        # a game's last heist: its banks, for the screens' "game 1 is over" once the
        # next game has emptied them
        g.last_heist["game_banks"] = list(g.banks)
    g.decisions, g.timed_out = {}, ()
    log.emit("heist_ended", **summary, game=g.game, banks=list(g.banks))
    if g.heist >= g.heists:
        totals = g.running_totals()
        if g.game >= g.games:
            g.phase = Phase.OVER
            log.emit("game_over", game=g.game, banks=list(g.banks), totals=totals, winners=top_seats(totals))
            return
        # One game of several is over; the next starts with the next heist (_start_heist),
        # so a gate between two games shows the finished game's banks.
        log.emit("game_ended", game=g.game, banks=list(g.banks), winners=top_seats(g.banks), totals=totals)
    if g.gate and not g.gate_opened and (g.game, g.heist) == gate_point(g.heists, g.games):
        g.phase = Phase.GATE
        log.emit("at_gate", game=g.game, heist=g.heist)
    else:
        _start_heist(g, log)


def _next_game(g: Game, log: _Log) -> None:
    """The next of a table's several games starts as the first did: the banks go into
    the running totals and are emptied, the retired cards go back into the run deck."""
    g.totals = g.running_totals()
    g.banks = [0] * g.players
    g.retired = ()
    g.game += 1
    g.heist = 0
    log.emit("game_started", game=g.game, games=g.games, totals=list(g.totals))


def _get_out(g: Game, leavers: Sequence[int], log: _Log) -> None:
    """3. The leavers split the jewels left in all the rooms, as one pile, equally; what
    doesn't divide goes back on the newest room. Each banks that share and their satchel."""
    pile = sum(r.jewels for r in g.rooms)
    share, left = divmod(pile, len(leavers))
    if pile:
        g.rooms = [Room(r.card, r.bonus, 0) for r in g.rooms]
        last = g.rooms[-1]
        g.rooms[-1] = Room(last.card, last.bonus, left)
    banked = {}
    for s in leavers:
        amount = g.satchels[s] + share
        g.banks[s] += amount
        g.satchels[s] = 0
        banked[str(s)] = amount
    g.inside = tuple(s for s in g.inside if s not in leavers)
    log.emit("got_out", seats=list(leavers), share=share, left=left, banked=banked, banks=list(g.banks))


def _reveal(g: Game, log: _Log) -> None:
    """Everybody inside has decided: show every choice at once, then play steps 3 and 4."""
    choices = dict(g.decisions)
    g.revealed = choices
    log.emit(
        "revealed",
        heist=g.heist,
        choices={str(s): ("press_on" if c else "get_out") for s, c in sorted(choices.items())},
        timed_out=list(g.timed_out),
    )
    g.decisions, g.timed_out = {}, ()
    leavers = [s for s, c in sorted(choices.items()) if not c]
    if leavers:
        _get_out(g, leavers, log)
    if not g.inside:
        # "When nobody is left inside, the heist ends, and any jewels still in the rooms are lost."
        rooms = _clear_rooms(g)
        _end_heist(g, log, {"heist": g.heist, "ended": "all_out", "card": None, "caught": [], "rooms_lost": rooms})
        return
    _turn_up(g, log)


# --- handlers -----------------------------------------------------------------------------


def _decider(g: Game, seat: int) -> None:
    if not 0 <= seat < g.players:
        raise NoSuchSeatError(f"there is no seat {seat} at this table")
    if g.phase is not Phase.DECIDE:
        raise WrongPhaseError(f"nobody decides now: the game is in its {g.phase.value} phase")
    if seat not in g.inside:
        raise NotInsideError(f"seat {seat} is out of this heist")
    if seat in g.decisions:
        raise AlreadyDecidedError(f"seat {seat} has decided already (a decision is final)")


def _record(g: Game, seat: int, press_on: bool, log: _Log, *, timed_out: bool) -> None:
    g.decisions[seat] = press_on
    if timed_out:
        g.timed_out = (*g.timed_out, seat)
    # Everybody sees that the seat decided, only the seat sees what (until the reveal).
    log.emit("decided", seat=seat)
    log.emit("decision_kept", (seat,), seat=seat, press_on=press_on, timed_out=timed_out)
    if not g.waiting():
        _reveal(g, log)


def _decide(g: Game, a: Decide, log: _Log) -> None:
    if type(a.press_on) is not bool:
        raise MalformedActionError("press_on must be true or false")
    _decider(g, a.seat)
    _record(g, a.seat, a.press_on, log, timed_out=False)


def _timeout_decide(g: Game, a: TimeoutDecide, log: _Log) -> None:
    """The clock ran out: the seat gets out (docs/RULES.md: the empty fist)."""
    _decider(g, a.seat)
    _record(g, a.seat, False, log, timed_out=True)


def _open_gate(g: Game, a: OpenGate, log: _Log) -> None:
    if g.phase is not Phase.GATE:
        raise WrongPhaseError(f"there is no gate to open: the game is in its {g.phase.value} phase")
    g.gate_opened = True
    log.emit("gate_opened", game=g.game, heist=g.heist + 1)
    _start_heist(g, log)


_HANDLERS: dict[type[Any], Callable[[Game, Any, _Log], None]] = {
    Decide: _decide,
    TimeoutDecide: _timeout_decide,
    OpenGate: _open_gate,
}


__all__ = [
    "HEISTS",
    "MAX_GAMES",
    "MAX_HEISTS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PARTY_GAMES",
    "apply",
    "gate_after",
    "gate_point",
    "new_game",
    "replay",
    "top_seats",
]
