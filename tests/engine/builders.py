"""Build games in precise states for rules tests (reusable by any engine test).

`new_game` deals at random; rules tests need "seat 0 holds SNATCH and TRIPWIRE, the
next card on the pile is INSIDE MAN". `build` starts from a real `new_game` (so every
field the engine keeps is present and consistent) and then rearranges the table:
hands, draw pile, discards, who holds which gift, what is open, whose turn it is.
Every card id of the table's deck stays in exactly one place (`assert_cards_conserved`).

The built game is in the ACTION phase of `active`'s turn *after* the automatic
turn-start draw: the hands you give are what players hold right now.

    from tests.engine.builders import C, build, ids

    g = build(4, hands=[[C.SNATCH, C.INSIDE_MAN], [C.TRIPWIRE], [], []],
              draw=[C.PICKPOCKET])          # PICKPOCKET is the next card drawn
    snatch = ids(g, 0, C.SNATCH)[0]

Gift ids: seat s brought gift `gift_id(s)` (10 + s) with description `desc(s)`; by
default seat s holds its own gift. Vault gifts are `vault_id(i)` (90 + i).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.yankee import (
    Card,
    Event,
    Game,
    Gift,
    Phase,
    Regroup,
    Trim,
    apply,
    card_of,
    deck_for,
    new_game,
)

C = Card
CardSpec = Card | int

GIFT_BASE = 10
VAULT_BASE = 90


def gift_id(seat: int) -> int:
    return GIFT_BASE + seat


def desc(seat: int) -> str:
    return f"secret gift of seat {seat}"


def vault_id(i: int) -> int:
    return VAULT_BASE + i


def vault_desc(i: int) -> str:
    return f"vault gift {i}"


def make_gifts(players: int) -> list[Gift]:
    return [Gift(id=gift_id(s), description=desc(s), brought_by=s) for s in range(players)]


def make_vault(size: int) -> list[Gift]:
    return [Gift(id=vault_id(i), description=vault_desc(i)) for i in range(size)]


def start(players: int = 4, *, seed: int | str = 1, vault: int = 0, gate: bool = False):
    """A real `new_game` with the standard gifts; returns (game, events)."""
    return new_game(seed=seed, gifts=make_gifts(players), vault=make_vault(vault), gate=gate)


class _Allocator:
    """Hands out concrete card ids of requested types from a table's deck."""

    def __init__(self, players: int) -> None:
        self.free: dict[Card, list[int]] = {}
        for cid in deck_for(players):
            self.free.setdefault(card_of(cid), []).append(cid)
        self.used: set[int] = set()

    def take(self, spec: CardSpec) -> int:
        if isinstance(spec, Card):
            pool = self.free.get(spec)
            if not pool:
                raise ValueError(f"no {spec.name} left in this table's deck")
            cid = pool.pop(0)
        else:
            cid = spec
            pool = self.free.get(card_of(cid), [])
            if cid not in pool:
                raise ValueError(f"card id {cid} is not free (used twice or not in this deck)")
            pool.remove(cid)
        self.used.add(cid)
        return cid

    def rest(self) -> list[int]:
        return sorted(cid for pool in self.free.values() for cid in pool)


def build(
    players: int = 4,
    *,
    hands: Sequence[Sequence[CardSpec]] | None = None,
    draw: Sequence[CardSpec] = (),
    discards: Sequence[CardSpec] = (),
    leftover: str = "pile",
    active: int = 0,
    starter: int | None = None,
    round: int = 1,
    gifts: Sequence[int] | None = None,
    opened: Iterable[int] | None = None,
    vault: int = 0,
    vault_gifts: Sequence[int] | None = None,
    gate: bool = False,
    seed: int | str = 1,
) -> Game:
    """A game in the ACTION phase of `active`'s turn in `round`, arranged exactly.

    hands:    per seat, the cards held (Card types or concrete ids); default empty.
    draw:     the next cards drawn from the pile, in the order they will be drawn.
    discards: the discard pile.
    leftover: where every other card of the deck goes: "pile" (underneath `draw`),
              "discards", or "none" (raise if any card is left over).
    starter:  the round's starter (default: `active`, i.e. the first turn of the round).
    gifts:    gift id held by each seat (default: seat s holds gift_id(s)).
    opened:   unwrapped gift ids (default: none in round 1, every gift from round 2 on).
    vault / vault_gifts: vault size, and which gift ids sit in it (default vault_id(i)).
    """
    game, _ = start(players, seed=seed, vault=vault, gate=gate)
    g = game.clone()
    alloc = _Allocator(players)
    hand_ids = [tuple(alloc.take(c) for c in (hands[s] if hands and s < len(hands) else ())) for s in range(players)]
    if hands is not None and len(hands) > players:
        raise ValueError("more hands than players")
    draw_ids = [alloc.take(c) for c in draw]
    discard_ids = [alloc.take(c) for c in discards]
    rest = alloc.rest()
    if leftover == "pile":
        pile = rest + list(reversed(draw_ids))  # the top of the pile is the END of the list
    elif leftover == "discards":
        pile = list(reversed(draw_ids))
        discard_ids = discard_ids + rest
    elif leftover == "none":
        if rest:
            raise ValueError(f"{len(rest)} cards left over")
        pile = list(reversed(draw_ids))
    else:
        raise ValueError(leftover)
    g.hands = list(hand_ids)
    g.draw_pile = pile
    g.discards = discard_ids
    g.aside = []
    g.pending = None
    g.trims = {}

    held = list(gifts) if gifts is not None else [gift_id(s) for s in range(players)]
    in_vault = list(vault_gifts) if vault_gifts is not None else [vault_id(i) for i in range(vault)]
    all_ids = sorted([gift_id(s) for s in range(players)] + [vault_id(i) for i in range(vault)])
    if sorted(held + in_vault) != all_ids or len(held) != players:
        raise ValueError("every gift must be in exactly one place")
    g.gifts = held
    g.vault = in_vault
    if opened is None:
        opened = set() if round == 1 else set(held)
    g.open = frozenset(opened)
    # Each player has peeked at the gift they were dealt and knows the one they brought.
    g.peeks = tuple(frozenset({held[s], gift_id(s)}) for s in range(players))

    g.phase = Phase.ACTION
    g.round = round
    g.starter = active if starter is None else starter
    g.turn = (active - g.starter) % players
    assert g.active == active
    assert_cards_conserved(g)
    return g


# --- reading a game -------------------------------------------------------------------


def ids(g: Game, seat: int, card: Card) -> list[int]:
    """The ids of every `card` in seat's hand, in hand order."""
    return [c for c in g.hands[seat] if card_of(c) is card]


def one(g: Game, seat: int, card: Card) -> int:
    """The id of the first `card` in seat's hand (fails if there is none)."""
    found = ids(g, seat, card)
    assert found, f"seat {seat} holds no {card.name}: {names(g.hands[seat])}"
    return found[0]


def names(cards: Iterable[int]) -> list[Card]:
    return [card_of(c) for c in cards]


def top(g: Game, k: int = 1) -> list[int]:
    """The next k card ids to be drawn, in draw order."""
    return list(reversed(g.draw_pile[-k:])) if k else []


def assert_cards_conserved(g: Game) -> None:
    """Every card of the table's deck is in exactly one place."""
    places = [c for h in g.hands for c in h] + list(g.draw_pile) + list(g.discards) + list(g.aside)
    assert sorted(places) == sorted(deck_for(g.players)), "a card was lost or duplicated"


def of_type(events: Iterable[Event], type_: str) -> list[Event]:
    return [e for e in events if e.type == type_]


def draws(events: Iterable[Event], reason: str | None = None) -> list[tuple[int, int, str]]:
    """(seat, count, reason) of every draw, in order."""
    return [
        (e.data["seat"], e.data["count"], e.data["reason"])
        for e in events
        if e.type == "drew" and (reason is None or e.data["reason"] == reason)
    ]


# --- moving a game along ---------------------------------------------------------------


def act(g: Game, *actions) -> tuple[Game, list[Event]]:
    """Apply several actions in a row; returns the last game and all events."""
    events: list[Event] = []
    for a in actions:
        g, ev = apply(g, a)
        events.extend(ev)
    return g, events


def trim_all(g: Game) -> tuple[Game, list[Event]]:
    """In a TRIM phase, every seat discards its first excess cards."""
    events: list[Event] = []
    while g.phase is Phase.TRIM:
        seat = min(g.trims)
        g, ev = apply(g, Trim(seat, tuple(g.hands[seat][: g.trims[seat]])))
        events.extend(ev)
    return g, events


def pass_turn(g: Game) -> tuple[Game, list[Event]]:
    """The active player passes (Regroup with 0 cards); trims are settled."""
    g, ev = apply(g, Regroup(g.active, ()))
    g, ev2 = trim_all(g)
    return g, ev + ev2


def pass_turns(g: Game, k: int) -> tuple[Game, list[Event]]:
    events: list[Event] = []
    for _ in range(k):
        g, ev = pass_turn(g)
        events.extend(ev)
    return g, events
