"""Damage, claims, the end and the winner (docs/RULES.md, "Blinks Heist").

Each vault Blink has 4 health and takes 1 damage a hit; the hit that takes it to 0
claims it for the thrower (and their team); the game ends when the last vault Blink is
claimed; the player holding the most claimed Blinks wins the table, tied players share
the win; the party's teams add up their seats' claims.
"""

from games.blinks import BLINKS, Phase, public_view
from tests.games.blinks.builders import of, table, throw, throws


def test_the_fourth_hit_claims_for_the_thrower_whoever_did_the_damage():
    g = table(3, vault=4)
    g, events = throws(g, 2, 2, 2)  # seats 0, 1, 2 each take one health
    assert g.health[1] == 1 and g.owner[1] is None
    assert [e.data["health"] for e in of(events, "damaged")] == [3, 2, 1]
    g, events = throw(g, 2)  # seat 0 again: the breaking hit
    assert g.health[1] == 0 and g.owner[1] == 0
    assert of(events, "claimed")[0].data == {"blink": 2, "seat": 0, "team": 0, "left": 3}
    assert g.claims() == [1, 0, 0] and g.in_vault() == [1, 3, 4]


def test_a_miss_does_no_damage():
    g = table(2, vault=3)
    g, events = throws(g, None, None, None)
    assert g.health == [4, 4, 4] and not of(events, "damaged")


def test_the_last_claim_ends_the_game_and_the_most_blinks_win():
    g = table(3, vault=3, teams=[2, 3, 2])
    # seat 0 breaks Blinks 1 and 3, seat 1 Blink 2
    g, _ = throws(g, 1, 2, None, 1, 2, None, 1, 2, None, 1, 2, None)
    assert g.owner == [0, 1, None]
    g, _ = throws(g, 3, None, None, 3, None, None, 3, None, None)
    assert g.phase is Phase.THROW
    g, events = throw(g, 3)
    assert g.phase is Phase.OVER and g.owner == [0, 1, 0]
    over = of(events, "game_over")[0].data
    assert over == {"claims": [2, 1, 0], "winners": [0], "teams": [0, 0, 2, 1], "winning_teams": [2]}
    standings = BLINKS.standings(g)
    assert [(s.score, s.rank, s.winner) for s in standings] == [(2, 1, True), (1, 2, False), (0, 3, False)]
    view = public_view(g)
    assert view["winners"] == [0] and view["winning_teams"] == [2] and view["turn"] is None
    assert BLINKS.legal_actions(g, None) == [] and BLINKS.waiting_for(g) == ()


def test_tied_players_share_the_win():
    g = table(2, vault=4)
    g, _ = throws(g, *[b for b in (1, 2, 3, 4) for _ in range(4)])
    # turns alternate, so each Blink's fourth hit is seat 1's: seat 1 takes all four
    assert g.owner == [1, 1, 1, 1]
    g = table(2, vault=4)
    g, _ = throws(g, 1, 1, 1, 1, 2, 2, 2, None, 2, 3, 3, 3, 3, 4, 4, 4, None, 4)
    assert g.phase is Phase.OVER and g.claims() == [2, 2]
    assert [s.winner for s in BLINKS.standings(g)] == [True, True]
