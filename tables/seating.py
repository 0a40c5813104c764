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

MAX_TABLE = 10
MAX_GUESTS = 100


def table_count(n: int) -> int:
    return max(1, math.ceil(n / MAX_TABLE))


def table_sizes(n: int) -> list[int]:
    """Balanced sizes, larger tables first: 23 -> [8, 8, 7]."""
    if not 2 <= n <= MAX_GUESTS:
        raise ValueError(f"a party seats 2 to {MAX_GUESTS} guests, not {n}")
    t = table_count(n)
    base, extra = divmod(n, t)
    return [base + 1] * extra + [base] * (t - extra)


def table_letter(i: int) -> str:
    return string.ascii_uppercase[i]


def derive_seed(party_seed: int, purpose: str) -> int:
    """An independent 63-bit seed for one purpose (seating, a table's game...)."""
    value, _ = rng.next64(rng.seed_state(f"{party_seed}:{purpose}"))
    return value >> 1  # fits a signed BigIntegerField


def seating_plan(*, seed: int, guest_ids: list[int], vault_ids: list[int], vault_size: int) -> list[dict[str, Any]]:
    """Seat `guest_ids` at balanced tables. Returns, per table in ring order:
    {"letter", "guests" (seat order), "captain", "vault", "seed"}."""
    sizes = table_sizes(len(guest_ids))
    if len(vault_ids) != vault_size * len(sizes):
        raise ValueError(
            f"{len(sizes)} table(s) with {vault_size} vault gift(s) each need {vault_size * len(sizes)} "
            f"vault gifts; there are {len(vault_ids)}"
        )
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
