"""Build Royal Heist games in precise states for rules tests.

`new_game` shuffles; a rules test needs "the rooms come up 7H, QS, 5D with a 4S under
it". `rigged` starts from a real `new_game` (every field present and consistent), then
stacks the current heist's run deck and side stack in the order given and turns up the
first room the way the engine does (its own `_turn_up`, so no rule is copied here).
The cards not named lie under the named ones, so the deck keeps its real size.

    g = rigged(3, run=["7H", "QS", "5D"], side=["4S"])   # the first room is 7H
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from games.royal import Decide, Event, Game, apply, new_game
from games.royal import rules as _rules
from games.royal.cards import RUN_DECK, SIDE_STACK


def rigged(
    players: int,
    run: Sequence[str],
    side: Sequence[str] = (),
    *,
    banks: Sequence[int] | None = None,
    heist: int = 1,
    heists: int = 5,
    retired: Sequence[str] = (),
    gate: bool = False,
) -> Game:
    """A game in heist `heist` whose rooms come up in `run`'s order (the first already
    up) and whose diamonds draw `side` in order."""
    g, _ = new_game(0, players, gate=gate, heists=heists)
    pool = list(RUN_DECK)
    for card in retired:
        pool.remove(card)
    for card in run:
        pool.remove(card)  # a card named twice, or retired, fails here
    rest_side = [c for c in SIDE_STACK if c not in side]
    assert len(rest_side) + len(side) == len(SIDE_STACK)
    g.heist = heist
    g.retired = tuple(retired)
    g.banks = list(banks) if banks is not None else [0] * players
    g.turned_up = sum(g.banks)  # so that jewel conservation holds from here on
    g.lost = 0
    g.deck = pool + list(reversed(run))  # the top is the end
    g.side = rest_side + list(reversed(side))
    g.rooms, g.dangers, g.satchels = [], (), [0] * players
    g.inside = tuple(range(players))
    _rules._turn_up(g, _rules._Log(g.version))
    return g


def play(g: Game, *actions: object) -> tuple[Game, list[Event]]:
    """Apply the actions in order; returns the last game and every event."""
    events: list[Event] = []
    for action in actions:
        g, ev = apply(g, action)  # type: ignore[arg-type]
        events += ev
    return g, events


def decide(g: Game, choices: Mapping[int, bool]) -> tuple[Game, list[Event]]:
    """Each seat of `choices` decides, in seat order."""
    return play(g, *(Decide(s, c) for s, c in sorted(choices.items())))


def everyone(g: Game, press_on: bool, but: Iterable[int] = ()) -> dict[int, bool]:
    """Every seat inside choosing `press_on`, the seats in `but` the other way."""
    flip = set(but)
    return {s: press_on != (s in flip) for s in g.inside}


def of(events: list[Event], type_: str) -> list[Event]:
    return [e for e in events if e.type == type_]


def jewels(g: Game) -> int:
    """Where every jewel turned up is now: satchels, banks (this game's, and the totals
    of the table's finished games), rooms, or lost."""
    return sum(g.satchels) + sum(g.banks) + sum(g.totals) + sum(r.jewels for r in g.rooms) + g.lost
