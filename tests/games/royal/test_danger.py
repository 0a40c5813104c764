"""5. A second card of a danger rank ends the heist: satchels inside lost, rooms' jewels
lost, a second Joker halves each caught player's bank (rounded down), and one card of
that rank retires for good."""

from games.royal import new_game
from tests.games.royal.builders import decide, everyone, jewels, of, rigged


def test_a_second_danger_of_the_same_rank_ends_the_heist_and_satchels_are_lost():
    g = rigged(3, run=["9H", "KS", "5H", "KD"], banks=[10, 20, 30])
    g, _ = decide(g, everyone(g, True))  # KS
    g, _ = decide(g, everyone(g, True))  # 5H: 1 each, 2 left
    assert g.satchels == [4, 4, 4]
    g, events = decide(g, {0: False, 1: True, 2: True})  # seat 0 out with 4 + 2 + 0 left
    (caught,) = of(events, "caught")
    assert caught.data["seats"] == [1, 2] and caught.data["card"] == "KD"
    assert g.banks == [10 + 4 + 2, 20, 30]  # a King takes no bank
    assert g.heist == 2 and g.satchels == [0, 0, 0]
    assert jewels(g) == g.turned_up


def test_the_rooms_jewels_are_lost_when_caught():
    g = rigged(3, run=["8H", "QS", "QH"])
    g, _ = decide(g, everyone(g, True))
    g, events = decide(g, everyone(g, True))
    (caught,) = of(events, "caught")
    assert caught.data["rooms_lost"] == 2
    assert g.lost == 2 + 3 * 2 and sum(g.banks) == 0


def test_the_second_joker_halves_each_caught_bank_rounded_down():
    g = rigged(4, run=["X1", "X2"], banks=[9, 10, 1, 7])
    g, events = decide(g, {0: True, 1: True, 2: True, 3: False})
    assert g.banks == [9 - 4, 10 - 5, 1 - 0, 7]  # seat 3 got out: untouched
    (caught,) = of(events, "caught")
    assert caught.data["losses"]["0"] == {"satchel": 0, "bank": 4}
    assert g.lost == 4 + 5


def test_a_first_joker_takes_nothing():
    g = rigged(3, run=["X1", "AS", "AH"], banks=[8, 8, 8])
    g, _ = decide(g, everyone(g, True))
    g, _ = decide(g, everyone(g, True))
    assert g.banks == [8, 8, 8]  # the Aces ended it; only a second Joker halves


def test_the_card_that_ends_the_heist_retires_for_good_and_the_deck_shrinks():
    g = rigged(3, run=["JS", "JH"])
    g, _ = decide(g, everyone(g, True))
    assert g.retired == ("JH",)
    assert len(g.deck) + len(g.rooms) == 33  # heist 2's deck: 34 less one
    assert "JH" not in g.deck and all(r.card != "JH" for r in g.rooms)


def test_retirement_persists_across_heists():
    g = rigged(3, run=["X1", "X2"], heist=1, retired=())
    g, _ = decide(g, everyone(g, True))
    assert g.retired == ("X2",) and g.heist == 2
    g, _ = decide(g, everyone(g, False))  # heist 2 ends: everybody out
    assert g.heist == 3 and g.retired == ("X2",)
    assert "X2" not in g.deck and len(g.deck) + len(g.rooms) == 33


def test_one_joker_left_is_harmless_and_a_rank_retires_again():
    g = rigged(3, run=["X1", "QS", "QH", "QD"], heist=2, retired=["X2", "QC"])
    assert len(g.deck) + len(g.rooms) == 32
    g, _ = decide(g, everyone(g, True))
    g, _ = decide(g, everyone(g, True))
    assert g.retired == ("X2", "QC", "QH") and g.heist == 3
    assert len(g.deck) + len(g.rooms) == 31


def test_a_fresh_game_keeps_every_card_in_play():
    g, _ = new_game(1, 3)
    assert g.retired == () and len(g.deck) + len(g.rooms) == 34 and len(g.side) == 16
