"""The game's one source of randomness: SplitMix64 over a single 64-bit integer.

Why not `random.Random`: its state is 625 words (slow to copy on every action) and
its algorithms are CPython's to change. A game must replay identically from its seed
and actions on any Python, and the generator's whole state must fit in the game state
so that `apply` stays a pure function of (state, action).
"""

from __future__ import annotations

from typing import Any

MASK64 = (1 << 64) - 1


def seed_state(seed: int | str) -> int:
    """Turn any int or string seed into a 64-bit generator state."""
    if isinstance(seed, str):
        acc = 0xCBF29CE484222325  # FNV-1a: stable across processes, unlike hash()
        for byte in seed.encode():
            acc = ((acc ^ byte) * 0x100000001B3) & MASK64
        seed = acc
    return seed & MASK64


def next64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: returns (value, new_state)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31), state


def derive_seed(party_seed: int, purpose: str) -> int:
    """An independent 63-bit seed for one purpose (seating, a table's game...): the
    party's (tables/seating.py) and a simulated party's (a game's simulator hook)."""
    value, _ = next64(seed_state(f"{party_seed}:{purpose}"))
    return value >> 1  # fits a signed BigIntegerField


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) and the new state.

    Lemire's multiply-shift; its bias is at most n / 2**64, far below anything a
    party of 100 could ever observe.
    """
    if n <= 0:
        raise ValueError("below() needs n >= 1")
    value, state = next64(state)
    return (value * n) >> 64, state


def shuffle(state: int, items: list[Any]) -> int:
    """Fisher-Yates shuffle of `items` in place; returns the new state.

    Draws exactly what `below(state, i + 1)` would for i = len-1 .. 1, with the
    SplitMix64 step inlined: a deck reshuffle is 53 draws and this is the engine's
    tightest loop (tests/engine check the output equals the step-by-step version).
    """
    for i in range(len(items) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state
