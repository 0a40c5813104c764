"""The cards, and why neither pile can run out (docs/RULES.md, "Royal Heist")."""

import itertools

from games.royal import MAX_HEISTS, new_game
from games.royal.cards import DANGER_RANKS, RUN_DECK, SIDE_STACK, is_bonus, is_danger, rank_of
from tests.games.royal.builders import decide, everyone, rigged


def test_the_run_deck_and_the_side_stack_are_as_printed():
    assert len(RUN_DECK) == 34 and len(SIDE_STACK) == 16
    assert sum(is_danger(c) for c in RUN_DECK) == 18
    assert sorted(rank_of(c) for c in RUN_DECK if rank_of(c) == "X") == ["X", "X"]
    assert sorted(c[1] for c in RUN_DECK if not is_danger(c)) == ["D"] * 8 + ["H"] * 8
    assert sorted(c[1] for c in SIDE_STACK) == ["C"] * 8 + ["S"] * 8
    assert not any(c.startswith("10") or c.startswith("T") for c in (*RUN_DECK, *SIDE_STACK))


def _runs_out_possible(retirements: int) -> bool:
    """Whether `retirements` retired danger cards can leave every danger rank with at most
    one card: only then can the whole deck be turned up without a repeat."""
    counts = {rank: sum(1 for c in RUN_DECK if rank_of(c) == rank) for rank in DANGER_RANKS}
    needed = sum(n - 1 for n in counts.values())  # down to one card of each rank
    return retirements >= needed


def test_the_run_deck_cannot_run_out_within_the_heist_limit():
    # Before heist h at most h - 1 cards are retired (one per heist ended by a danger).
    assert not _runs_out_possible(MAX_HEISTS - 1)
    assert _runs_out_possible(MAX_HEISTS)  # the limit is tight: heist 14 could
    # Pigeonhole, by brute force over every way to spread 12 retirements: some rank keeps
    # two cards, so a full deck turned up holds a repeat before its last card.
    counts = [4, 4, 4, 4, 2]
    for spread in itertools.product(range(4), range(4), range(4), range(4), range(2)):
        if sum(spread) <= MAX_HEISTS - 1:
            assert max(c - s for c, s in zip(counts, spread, strict=True)) >= 2


def test_the_worst_deck_still_ends_the_heist_before_the_last_card():
    # 12 retirements: three Jacks, three Queens, three Kings, two Aces, one Joker.
    retired = ["JH", "JD", "JC", "QH", "QD", "QC", "KH", "KD", "KC", "AH", "AD", "X2"]
    loot = [c for c in RUN_DECK if not is_danger(c)]
    run = [*loot, "JS", "QS", "KS", "X1", "AS", "AC"]
    g = rigged(3, run=run, heist=13, heists=13, retired=retired, side=list(SIDE_STACK[:8]))
    assert len(g.deck) == 34 - 12 - 1
    while g.heist == 13 and g.phase.value == "decide":
        g, _ = decide(g, everyone(g, True))
    assert g.phase.value == "over" and g.deck == []  # the second Ace was the very last card


def test_a_heist_draws_at_most_eight_side_cards():
    for heist_seed in range(200):
        g, _ = new_game(heist_seed, 3)
        while g.heist == 1:
            used = 16 - len(g.side)
            assert used == sum(1 for r in g.rooms if is_bonus(r.card)) <= 8
            g, _ = decide(g, everyone(g, True))
