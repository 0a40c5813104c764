"""Play complete Royal Heist games with strategy bots on the real engine.

`play_game` seats `players` strategies, each chosen at random from a field (or given
per seat), plays the five heists with `games.royal.apply`, and returns what the
statistics and the pacing model need: every bank, the winners, and the number of
decisions (reveals: one for each room the table decides on) in each heist.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from games import rng as _rng
from games.royal import Action, Phase, apply, gate_after, new_game, strategy_action

from .strategies import strategy


@dataclass(frozen=True, slots=True)
class GameResult:
    seed: int
    strategies: tuple[str, ...]  # per seat
    banks: tuple[int, ...]  # per seat, at the end
    winners: tuple[int, ...]  # every seat with the biggest bank (they share the win)
    decisions: tuple[int, ...]  # per heist: reveals, one per room decided on
    caught: tuple[bool, ...]  # per heist: ended on a repeated danger (else: everybody out)
    actions: tuple[Action, ...] = ()  # every action, when recorded

    @property
    def players(self) -> int:
        return len(self.banks)

    def halves(self) -> tuple[int, int]:
        """Decisions before a party's gate (heists 1-2 of 5) and after it."""
        cut = gate_after(len(self.decisions))
        return sum(self.decisions[:cut]), sum(self.decisions[cut:])


def game_seeds(master: int | str, count: int) -> Iterator[int]:
    """`count` 63-bit game seeds from one master seed (SplitMix64 stream)."""
    state = _rng.seed_state(master)
    for _ in range(count):
        value, state = _rng.next64(state)
        yield value >> 1


def play_game(
    *,
    seed: int,
    players: int,
    field: Sequence[str] | None = None,
    seats: Sequence[str] | None = None,
    record: bool = False,
) -> GameResult:
    """One game of five heists. `seats`: each seat's strategy; otherwise each seat draws
    one from `field` with the game's own bot generator (seeded from `seed`, apart from
    the engine's generator, so the strategies never change what the deck turns up)."""
    r = random.Random(seed)
    if seats is None:
        if not field:
            raise ValueError("a game needs a field of strategies or one per seat")
        seats = [field[int(r.random() * len(field))] for _ in range(players)]
    if len(seats) != players:
        raise ValueError(f"{len(seats)} strategies for {players} seats")
    plays = [strategy(name, r) for name in seats]
    g, _ = new_game(seed, players)
    decisions: list[int] = [0]
    caught: list[bool] = []
    actions: list[Action] = []
    while g.phase is not Phase.OVER:
        # Everybody decides on the same facts: the state only changes at the reveal.
        for s in g.waiting():
            a = strategy_action(g, s, plays[s])
            if a is None:  # cannot happen while s is waited for; keeps mypy honest
                raise RuntimeError("a waited-for seat had no decision")
            if record:
                actions.append(a)
            g, events = apply(g, a)
            for e in events:
                if e.type == "revealed":
                    decisions[-1] += 1
                elif e.type == "heist_ended":
                    caught.append(e.data["ended"] == "caught")
                    decisions.append(0)
    best = max(g.banks)
    return GameResult(
        seed=seed,
        strategies=tuple(seats),
        banks=tuple(g.banks),
        winners=tuple(s for s, b in enumerate(g.banks) if b == best),
        decisions=tuple(decisions[:-1]),
        caught=tuple(caught),
        actions=tuple(actions),
    )
