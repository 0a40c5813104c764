"""The scaling rule, as pure functions: how many tables, how big, who sits where.

ceil(n / 10) tables whose sizes differ by at most one (so 5 to 10 each from 11 guests
on); guests are seated at random, a captain is drawn per table, and each table's vault
gets the same number of gifts. Every draw comes from the party's seed through the
engine's generator, and the whole plan is returned so it can be recorded and audited.
"""

from __future__ import annotations

import math
import string
from typing import Any

from games import rng
from games.rng import derive_seed

MAX_TABLE = 10
MAX_GUESTS = 100


class VaultMismatch(ValueError):
    """The vault gifts do not match the tables: its numbers, for a sentence in any language."""

    def __init__(self, *, tables: int, each: int, have: int) -> None:
        self.params = {"tables": tables, "each": each, "need": each * tables, "have": have}
        super().__init__(VAULT_MISMATCH % self.params)


# Marked for translation where it is shown (events/party/services.py).
VAULT_MISMATCH = "%(tables)s table(s) with %(each)s vault gift(s) each need %(need)s vault gifts; there are %(have)s"


def table_count(n: int, table_max: int = MAX_TABLE) -> int:
    return max(1, math.ceil(n / table_max))


def table_sizes(n: int, *, table_max: int = MAX_TABLE, min_players: int = 2) -> list[int]:
    """Balanced sizes, larger tables first: 23 -> [8, 8, 7]. `table_max` and
    `min_players`: the party's game's (its definition's)."""
    if not min_players <= n <= MAX_GUESTS:
        raise ValueError(f"a party seats {min_players} to {MAX_GUESTS} guests, not {n}")
    t = table_count(n, table_max)
    base, extra = divmod(n, t)
    return [base + 1] * extra + [base] * (t - extra)


def table_letter(i: int) -> str:
    return string.ascii_uppercase[i]


def seating_plan(
    *,
    seed: int,
    guest_ids: list[int],
    vault_ids: list[int],
    vault_size: int,
    table_max: int = MAX_TABLE,
    min_players: int = 2,
) -> list[dict[str, Any]]:
    """Seat `guest_ids` at balanced tables of at most `table_max`. Returns, per table in
    ring order: {"letter", "guests" (seat order), "captain", "vault", "seed"}."""
    sizes = table_sizes(len(guest_ids), table_max=table_max, min_players=min_players)
    if len(vault_ids) != vault_size * len(sizes):
        raise VaultMismatch(tables=len(sizes), each=vault_size, have=len(vault_ids))
    state = rng.seed_state(derive_seed(seed, "seating"))
    guests = sorted(guest_ids)
    state = rng.shuffle(state, guests)
    vault = sorted(vault_ids)
    state = rng.shuffle(state, vault)
    plan, start = [], 0
    for i, size in enumerate(sizes):
        seated = guests[start : start + size]
        start += size
        captain_seat, state = rng.below(state, size)
        plan.append(
            {
                "letter": table_letter(i),
                "guests": seated,
                "captain": seated[captain_seat],
                "vault": vault[i * vault_size : (i + 1) * vault_size],
                "seed": derive_seed(seed, f"table:{table_letter(i)}"),
            }
        )
    return plan
