"""The pure arithmetic of both party clocks: sampling a step's length, percentiles,
and reading a pacing model's parameters."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

M = TypeVar("M", bound="DataclassInstance")


def model_from_dict(cls: type[M], d: dict[str, Any]) -> M:
    """`cls()` (a pacing model, every field a float in seconds) with the fields `d`
    names replaced; ValueError for an unknown name or a value that is not a
    non-negative number."""
    names = {f.name for f in fields(cls)}
    unknown = set(d) - names
    if unknown:
        raise ValueError(f"unknown pacing parameters: {sorted(unknown)}")
    bad = [k for k, v in d.items() if not isinstance(v, (int, float)) or v < 0]
    if bad:
        raise ValueError(f"pacing parameters must be non-negative numbers: {sorted(bad)}")
    return replace(cls(), **{k: float(v) for k, v in d.items()})


def draw(r: random.Random, mean: float, var: float) -> float:
    """One sampled length of a step: normal, cut at zero (no spread: the mean)."""
    return max(0.0, r.gauss(mean, math.sqrt(var))) if var > 0 else mean


def quantiles(xs: Sequence[float], qs: Sequence[float] = (0.1, 0.5, 0.9)) -> list[float]:
    """Linearly interpolated quantiles of `xs` (not empty)."""
    s = sorted(xs)
    out = []
    for q in qs:
        i = q * (len(s) - 1)
        lo = int(i)
        hi = min(lo + 1, len(s) - 1)
        out.append(s[lo] + (s[hi] - s[lo]) * (i - lo))
    return out
