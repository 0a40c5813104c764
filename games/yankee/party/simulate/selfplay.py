"""Play complete games and whole parties with bots on the real engine: Yankee Heist's
simulated games, played where the game's names live.

Plain functions, no Django: `play_table` plays one table of 2-10 players from a seed,
`play_party` plays a party at tables of the given sizes (play.py adds
the scaling rule's sizes for a number of guests), with the gate and the relay. Both
return what the statistics and the pacing model need, and optionally every action, so a
test can replay the game with the engine's own `replay`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import rng as _rng
from games.yankee.actions import Action, ConfirmReveal, DrawRelaySeat, React, RelayExchange, Trim
from games.yankee.rules import apply, apply_in_place, new_game
from games.yankee.state import Event, Game, Gift, Phase, open_window

from .policies import POLICIES, Policy, Seat, policy_named

# What the simulator counts, per half of the game (rounds 1-2, rounds 3-4): the pacing
# model prices each of these, the fairness report shows blocks, comebacks and swaps.
COUNTS = ("turns", "windows", "answers", "blocks", "comebacks", "swaps", "vault", "trims")
K = len(COUNTS)
TURNS, WINDOWS, ANSWERS, BLOCKS, COMEBACKS, SWAPS, VAULT, TRIMS = range(K)
# Engine event type -> what it counts ("drew" counts only comeback draws).
_COUNTED = {
    "window_opened": WINDOWS,
    "gifts_moved": SWAPS,
    "blocked": BLOCKS,
    "drew": COMEBACKS,
    "vault_exchanged": VAULT,
}


@dataclass(slots=True)
class TableResult:
    players: int
    starter: int  # round 1's starter
    last: int  # the last seat to act in round 4
    dealt: list[int]  # gift per seat after the deal
    final: list[int]  # gift per seat at the end
    vault: list[int]  # vault gifts at the end
    ranks: list[int]  # per seat: how many of the table's gifts it values below its final gift
    counts: list[int]  # COUNTS for rounds 1-2, then for rounds 3-4 (2 * K)
    seed: int = 0
    setup: dict[str, Any] = field(default_factory=dict)  # new_game's inputs, for replay
    actions: list[Action] | None = None  # every action, when recorded
    game: Game | None = None  # the final state, when recorded

    @property
    def gifts(self) -> int:
        """How many gifts a player can reach at this table (held + vault)."""
        return len(self.final) + len(self.vault)

    def total(self, k: int) -> int:
        return self.counts[k] + self.counts[K + k]


def policy_list(policies: Iterable[str | Policy]) -> list[Policy]:
    return [policy_named(p) if isinstance(p, str) else p for p in policies]


Step = Callable[[Game, Action], tuple[Game, list[Event]]]


def _play_until_stop(
    g: Game, seats: list[Seat], pols: list[Policy], counts: list[int], step: Step, record: list[Action] | None
) -> Game:
    """Play until the game is over or waits at the gate. The reveal is confirmed at once."""
    ACTION, REACTION, TRIM, REVEAL = Phase.ACTION, Phase.REACTION, Phase.TRIM, Phase.REVEAL
    while True:
        phase = g.phase
        if phase is ACTION:
            s = g.active
            a = pols[s].turn(g, seats[s])
            base = 0 if g.round <= 2 else K
            counts[base + TURNS] += 1
        elif phase is REACTION:
            w = open_window(g)
            s = w.waiting()[0]  # ask clockwise from the active player
            a = React(s, pols[s].react(g, seats[s]), w.version)
            base = 0 if g.round <= 2 else K
            counts[base + ANSWERS] += 1
        elif phase is TRIM:
            s = min(g.trims)
            a = Trim(s, pols[s].trim(g, seats[s], g.trims[s]))
            base = 0 if g.round <= 2 else K
            counts[base + TRIMS] += 1
        elif phase is REVEAL:
            a = ConfirmReveal()
            base = 0
        else:
            return g
        g, events = step(g, a)
        if record is not None:
            record.append(a)
        for e in events:
            k = _COUNTED.get(e[0])
            if k is not None and (k != COMEBACKS or e[1]["reason"] == "comeback"):
                counts[base + k] += 1


def _finish(
    g: Game,
    starter: int,
    dealt: list[int],
    seats: list[Seat],
    counts: list[int],
    seed: int,
    setup: dict[str, Any],
    record: list[Action] | None,
) -> TableResult:
    n = g.players
    at_table = g.gifts + g.vault
    ranks = []
    for s in range(n):
        v = seats[s].values
        mine = v[g.gifts[s]]
        ranks.append(sum(1 for x in at_table if v[x] < mine))
    return TableResult(
        players=n,
        starter=starter,
        last=(g.starter + n - 1) % n,  # g.starter is round 4's starter now
        dealt=dealt,
        final=list(g.gifts),
        vault=list(g.vault),
        ranks=ranks,
        counts=counts,
        seed=seed,
        setup=setup,
        actions=record,
        game=g if record is not None else None,
    )


AGREEMENT = 0.5


def _values(r: random.Random, gift_ids: Iterable[int], players: int, agreement: float) -> list[dict[int, float]]:
    """Each player's private value for every gift: `agreement` of it is the gift's
    quality (the same for everybody), the rest the player's own taste. 0: tastes are
    independent (everyone may get their favourite); 1: everybody wants the same gift.
    Either way the mean is 0.5, the bots' prior for a gift they have not seen."""
    if not 0 <= agreement <= 1:
        raise ValueError(f"agreement is between 0 and 1, not {agreement}")
    ids = list(gift_ids)
    quality = [r.random() for _ in ids]
    w = agreement
    return [{gid: w * q + (1 - w) * r.random() for gid, q in zip(ids, quality, strict=False)} for _ in range(players)]


def play_table(
    *,
    seed: int,
    players: int,
    policies: Sequence[str | Policy] = ("greedy",),
    vault: int = 0,
    agreement: float = AGREEMENT,
    last_call_draw: int = 0,
    in_place: bool = True,
    record: bool = False,
) -> TableResult:
    """One complete game of `players` (2-10) with `vault` extra gifts. Seat s plays
    `policies[s % len(policies)]`; each player draws a private value for every gift
    (see `_values` for `agreement`). `last_call_draw`: the engine's house rule, off by default."""
    pols = policy_list(policies)
    pols = [pols[s % len(pols)] for s in range(players)]
    gifts = [Gift(id=s + 1, description=f"gift {s + 1}", brought_by=s) for s in range(players)]
    vault_gifts = [Gift(id=100 + i, description=f"vault gift {i + 1}") for i in range(vault)]
    r = random.Random(seed)
    ids = [g.id for g in gifts] + [g.id for g in vault_gifts]
    seats = [Seat(s, v, r) for s, v in enumerate(_values(r, ids, players, agreement))]
    g, _ = new_game(seed=seed, gifts=gifts, vault=vault_gifts, last_call_draw=last_call_draw)
    starter, dealt = g.starter, list(g.gifts)
    counts = [0] * (2 * K)
    actions: list[Action] | None = [] if record else None
    g = _play_until_stop(g, seats, pols, counts, apply_in_place if in_place else apply, actions)
    setup = {"gifts": gifts, "vault": vault_gifts, "gate": False, "last_call_draw": last_call_draw} if record else {}
    return _finish(g, starter, dealt, seats, counts, seed, setup, actions)


@dataclass(slots=True)
class PartyResult:
    guests: int
    tables: list[TableResult]
    relayed: bool


def play_party(
    *,
    seed: int,
    sizes: Sequence[int],
    policies: Sequence[str | Policy] = ("greedy",),
    vault: int = 0,
    agreement: float = AGREEMENT,
    last_call_draw: int = 0,
    in_place: bool = True,
    record: bool = False,
) -> PartyResult:
    """A whole party at tables of `sizes`: rounds 1-2 at every table, the gate, the relay
    around the ring A -> B -> ... -> A, rounds 3-4. One table (2-10 guests) plays without
    a gate, as the server does."""
    sizes = list(sizes)
    total = sum(sizes)
    pols = policy_list(policies)
    step = apply_in_place if in_place else apply
    gate = len(sizes) > 1
    r = random.Random(seed)
    next_id = 1
    tables_gifts: list[list[Gift]] = []
    tables_vault: list[list[Gift]] = []
    for size in sizes:
        tables_gifts.append(
            [Gift(id=next_id + s, description=f"gift {next_id + s}", brought_by=s) for s in range(size)]
        )
        next_id += size
    for _ in sizes:
        tables_vault.append([Gift(id=next_id + i, description=f"vault gift {next_id + i}") for i in range(vault)])
        next_id += vault
    all_ids = range(1, next_id)
    games: list[Game] = []
    seats_of: list[list[Seat]] = []
    pols_of: list[list[Policy]] = []
    starts: list[tuple[int, list[int]]] = []
    counts_of: list[list[int]] = []
    records: list[list[Action] | None] = []
    guest = 0
    for i, size in enumerate(sizes):
        seats = [Seat(s, v, r) for s, v in enumerate(_values(r, all_ids, size, agreement))]
        seats_of.append(seats)
        pols_of.append([pols[(guest + s) % len(pols)] for s in range(size)])
        guest += size
        g, _ = new_game(
            seed=_rng.derive_seed(seed, f"table:{i}"),
            gifts=tables_gifts[i],
            vault=tables_vault[i],
            gate=gate,
            last_call_draw=last_call_draw,
        )
        starts.append((g.starter, list(g.gifts)))
        games.append(g)
        counts_of.append([0] * (2 * K))
        records.append([] if record else None)
    for i in range(len(games)):
        games[i] = _play_until_stop(games[i], seats_of[i], pols_of[i], counts_of[i], step, records[i])
    if gate:
        # Every table is at the gate: captains draw seats, then every drawn gift moves one
        # table along the ring at once (the gift from ring[i - 1] arrives at ring[i]).
        for i in range(len(games)):
            games[i], _ = step(games[i], DrawRelaySeat())
            rec = records[i]
            if rec is not None:
                rec.append(DrawRelaySeat())
        leaving = [_relay_gift(g) for g in games]
        for i in range(len(games)):
            gid, desc = leaving[i - 1]
            a = RelayExchange(Gift(id=gid, description=desc))
            games[i], _ = step(games[i], a)
            rec = records[i]
            if rec is not None:
                rec.append(a)
            games[i] = _play_until_stop(games[i], seats_of[i], pols_of[i], counts_of[i], step, records[i])
    results: list[TableResult] = []
    for i, g in enumerate(games):
        setup = (
            {"gifts": tables_gifts[i], "vault": tables_vault[i], "gate": gate, "last_call_draw": last_call_draw}
            if record
            else {}
        )
        results.append(
            _finish(
                g,
                starts[i][0],
                starts[i][1],
                seats_of[i],
                counts_of[i],
                _rng.derive_seed(seed, f"table:{i}"),
                setup,
                records[i],
            )
        )
    return PartyResult(guests=total, tables=results, relayed=gate)


def _relay_gift(g: Game) -> tuple[int, str]:
    """The gift the drawn relay seat sends on, and its description."""
    if g.relay_seat is None:
        raise AssertionError("the relay seat is drawn before the relay")
    gid = g.gifts[g.relay_seat]
    return gid, g.descriptions[gid]


def game_seeds(master: int | str, count: int) -> Iterator[int]:
    """`count` 63-bit game seeds from one master seed (SplitMix64 stream)."""
    state = _rng.seed_state(master)
    for _ in range(count):
        value, state = _rng.next64(state)
        yield value >> 1


__all__ = [
    "AGREEMENT",
    "BLOCKS",
    "COMEBACKS",
    "COUNTS",
    "POLICIES",
    "SWAPS",
    "TRIMS",
    "TURNS",
    "WINDOWS",
    "K",
    "PartyResult",
    "Policy",
    "Seat",
    "TableResult",
    "game_seeds",
    "play_party",
    "play_table",
    "policy_list",
]
