"""How long a game is, in decisions (reveals: one for each room the table decides on).

Bounds that hold for every game: each heist has at least one decision (after its first
room) and at most 21: the 16 loot rooms and one card of each of the 5 danger ranks can
come up before the 22nd card must repeat a danger rank, and the room that ends a heist
is decided on by nobody. So 5 to 105 decisions in five heists.

The expected length when everybody always presses on, heist 1 exactly: with the 18
danger cards (four each of J, Q, K, A, two Jokers) in random order, the number D of
dangers turned up until a rank repeats has E[D] = sum over j of P(first j differ)
= sum_j j! e_j(4,4,4,4,2) (18-j)! / 18!, and each of the 16 loot cards comes before the
D-th danger with probability D/19. Decisions = rooms - 1 = D (1 + 16/19) - 1 = 5.81.
Later heists run longer (a retired card makes its rank rarer), so a pressing table
makes about 30 decisions a game; real players get out earlier (the random bots: about
15 to 20). The printed game's ~20 is in between.
"""

import math
import random
from itertools import combinations

from games.royal import Coin, Phase, SatchelThreshold, apply, new_game, strategy_action


def _reveals(seed, n, strategy, heists=5):
    g, _ = new_game(seed, n, heists=heists)
    reveals = 0
    while g.phase is not Phase.OVER:
        g, events = apply(g, strategy_action(g, g.waiting()[0], strategy))
        reveals += sum(e.type == "revealed" for e in events)
    return reveals


def _expected_heist_one():
    counts, m = (4, 4, 4, 4, 2), 18
    e_d = sum(
        math.factorial(j)
        * sum(math.prod(c) for c in combinations(counts, j))
        * math.factorial(m - j)
        / math.factorial(m)
        for j in range(len(counts) + 1)
    )
    return e_d * (1 + 16 / 19) - 1


def test_every_game_has_5_to_105_decisions_and_a_pressing_table_about_30():
    def always(g, seat):
        return True

    games = [_reveals(seed, 3 + seed % 6, always) for seed in range(300)]
    assert all(5 <= r <= 105 for r in games)
    first = _expected_heist_one()
    assert 5.7 < first < 5.9
    # Five heists, the later ones at least as long as the first: mean at least 5 * 5.81,
    # less a sampling margin (the per-game spread is about 8, so 300 games: +-1.5).
    mean = sum(games) / len(games)
    assert 5 * first - 2 < mean < 5 * first + 6


def test_heist_one_matches_its_exact_expectation():
    def always(g, seat):
        return True

    heists = [_reveals(seed, 3, always, heists=1) for seed in range(2000)]
    mean = sum(heists) / len(heists)
    # The per-heist spread is about 3.5; 2000 heists: a standard error of 0.08.
    assert abs(mean - _expected_heist_one()) < 0.35


def test_a_cautious_or_random_table_plays_about_twenty_decisions():
    r = random.Random(5)
    for strategy in (Coin(0.5, r), SatchelThreshold(8)):
        games = [_reveals(seed, 5, strategy) for seed in range(200)]
        mean = sum(games) / len(games)
        assert 12 < mean < 30, (strategy, mean)
