"""The interval arithmetic behind Royal Heist's report, against hand-computed values."""

import math
from collections import Counter

import pytest

from games.royal.party.simulate.stats import Z95, describe_lengths, mean_ci, percentile, wilson


def test_mean_interval_is_mean_plus_minus_z_sd_over_root_n():
    xs = [2, 4, 4, 4, 5, 5, 7, 9]  # mean 5, sample sd sqrt(32/7)
    ci = mean_ci(len(xs), sum(xs), sum(x * x for x in xs))
    half = Z95 * math.sqrt(32 / 7) / math.sqrt(8)
    assert ci["mean"] == 5 and ci["low"] == pytest.approx(5 - half) and ci["high"] == pytest.approx(5 + half)
    scaled = mean_ci(len(xs), sum(xs), sum(x * x for x in xs), scale=10)
    assert scaled["mean"] == 0.5 and scaled["high"] == pytest.approx((5 + half) / 10)
    assert math.isnan(mean_ci(1, 3, 9)["low"]) and math.isnan(mean_ci(0, 0, 0)["mean"])


def test_wilson_interval_matches_its_formula_and_stays_inside_0_1():
    # k = 0: the interval is [0, z^2 / (n + z^2)]
    none = wilson(0, 10)
    assert none["mean"] == 0 and none["low"] == 0
    assert none["high"] == pytest.approx(Z95**2 / (10 + Z95**2))
    # a textbook case: 81 of 263 -> [0.2553, 0.3662] (Wilson 1927 style, z = 1.96)
    ci = wilson(81, 263)
    assert ci["low"] == pytest.approx(0.2553, abs=5e-4) and ci["high"] == pytest.approx(0.3662, abs=5e-4)
    full = wilson(10, 10)
    assert full["high"] == pytest.approx(1) and full["low"] == pytest.approx(10 / (10 + Z95**2))


def test_percentiles_of_a_histogram_are_exact_values():
    hist = Counter({1: 5, 2: 3, 10: 2})  # 1 1 1 1 1 2 2 2 10 10
    assert percentile(hist, 0.5) == 1 and percentile(hist, 0.6) == 2 and percentile(hist, 0.9) == 10
    d = describe_lengths(hist)
    assert d == {"n": 10, "mean": 3.1, "p50": 1, "p90": 10, "max": 10}
    with pytest.raises(ValueError):
        percentile(Counter(), 0.5)
