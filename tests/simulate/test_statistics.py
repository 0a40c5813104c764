"""The report's statistics on cases with known answers, and its reproducibility."""

import math
import random
import statistics

from games.yankee.party.simulate.play import K, TableResult
from games.yankee.party.simulate.runner import simulate
from games.yankee.party.simulate.stats import Moments, SizeStats


def report(**kw):
    kw.setdefault("parties", 0)
    kw.setdefault("pacing_guests", ())
    kw.setdefault("workers", 1)
    kw.setdefault("chunk", 100)
    out = simulate(**kw)
    out.pop("timing")
    return out


def test_moments_match_the_textbook_mean_sd_and_interval():
    r = random.Random(3)
    xs = [r.randint(0, 9) for _ in range(500)]
    m = Moments()
    for x in xs[:200]:
        m.add(x)
    rest = Moments()
    for x in xs[200:]:
        rest.add(x)
    m.merge(rest)
    assert m.n == 500 and math.isclose(m.mean(), statistics.mean(xs))
    assert math.isclose(m.sd(), statistics.stdev(xs))
    ci = m.ci(9)
    half = 1.959963984540054 * statistics.stdev(xs) / 9 / math.sqrt(500)
    assert math.isclose(ci["low"], statistics.mean(xs) / 9 - half)
    assert math.isclose(ci["high"], statistics.mean(xs) / 9 + half)


def table(ranks, starter, last, dealt=None, final=None):
    n = len(ranks)
    return TableResult(
        players=n,
        starter=starter,
        last=last,
        dealt=dealt or list(range(n)),
        final=final or list(range(n)),
        vault=[],
        ranks=ranks,
        counts=[0] * (2 * K),
    )


def test_the_last_actor_advantage_is_paired_within_each_game():
    s = SizeStats(3, 3)
    # last actor always gets the favourite (rank 2), the others 1 and 0 -> +0.75 each game
    s.add(table([2, 1, 0], starter=1, last=0))
    s.add(table([0, 2, 1], starter=2, last=1))
    out = s.summary()["last_actor"]
    assert out["advantage"]["mean"] == (2 / 2) - (1 / 2 + 0 / 2) / 2  # 1 - 0.25
    assert out["advantage"]["low"] == out["advantage"]["high"]  # no spread: no doubt
    assert out["real"]
    assert out["favourite"]["mean"] == 1.0 and out["others_favourite"]["mean"] == 0.0
    assert out["fair_share"] == 1 / 3
    assert s.summary()["rank_by_order"][2]["mean"] == 1.0  # round 1 position 2 ((0-1)%3, (1-2)%3)


def test_never_steal_control_every_gift_stays_where_dealt_and_no_seat_gains():
    out = report(seed=4, games=600, players=[3, 7], policies=("never",))
    for size in out["sizes"].values():
        assert size["kept_dealt"] == 1.0
        assert size["swaps"] == size["blocks"] == size["comebacks"] == 0
        adv = size["last_actor"]["advantage"]
        assert adv["low"] < 0 < adv["high"] and not size["last_actor"]["real"]


def test_symmetric_case_seat_labels_carry_no_effect():
    # The starter is drawn at random, so seat 0 is like any other seat: the interval
    # for seat 0 against the rest must cover zero.
    out = report(seed=8, games=1500, players=[4, 8], policies=("greedy",))
    for size in out["sizes"].values():
        ci = size["seat0_vs_rest"]
        assert ci["low"] < 0 < ci["high"], ci
        assert size["kept_dealt"] < 0.9  # thieves do move gifts


def test_same_seed_same_report_whatever_the_workers_and_another_seed_differs():
    kw = dict(games=300, players=[2, 5], parties=8, pacing_guests=(20,), chunk=60)
    a = report(seed=11, **kw)
    b = report(seed=11, **{**kw, "workers": 2})
    c = report(seed=12, **kw)
    assert a == b
    assert a["raw"] != c["raw"] and a["pacing"] != c["pacing"]
    assert a["games"] == 600 and a["players"] == [2, 5]
    assert set(a["last_actor"]) == {"2", "5"}
