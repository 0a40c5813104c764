"""4. Turn up a room: hearts pay their rank, diamonds add the side stack's top card,
the loot splits equally among those inside and the remainder stays; dangers pay nothing."""

from games.royal import Phase, new_game
from tests.games.royal.builders import decide, everyone, jewels, of, rigged


def test_the_first_room_is_turned_up_at_once():
    g, events = new_game(7, 4)
    assert len(g.rooms) == 1 and len(g.deck) == 33
    assert g.phase is Phase.DECIDE and g.waiting() == (0, 1, 2, 3)
    assert [e.type for e in events] == ["game_started", "heist_started", "room"]


def test_hearts_split_equally_and_the_remainder_stays_in_the_room():
    g = rigged(3, run=["8H"])
    assert g.satchels == [2, 2, 2]
    assert g.rooms[-1].jewels == 2  # 8 = 3 * 2 + 2


def test_hearts_split_only_among_those_still_inside():
    g = rigged(4, run=["2H", "9H"])
    g, _ = decide(g, {0: False, 1: True, 2: True, 3: True})
    # 2H: 0 each, 2 left; seat 0 leaves alone with those 2; the 9H splits among three.
    assert 0 not in g.inside and g.banks[0] == 2
    assert g.satchels[1:] == [3, 3, 3] and g.satchels[0] == 0
    assert g.rooms[-1].jewels == 0


def test_a_diamond_adds_the_side_stacks_top_card():
    g = rigged(3, run=["7D"], side=["5S", "9C"])
    assert g.rooms[-1].bonus == "5S" and g.rooms[-1].value == 12
    assert g.satchels == [4, 4, 4] and g.rooms[-1].jewels == 0
    assert len(g.side) == 15
    assert g.turned_up == 12


def test_the_next_diamond_draws_the_next_side_card():
    g = rigged(4, run=["2D", "9D"], side=["2S", "9C"])
    assert g.rooms[-1].value == 4  # the smallest diamond room
    g, _ = decide(g, everyone(g, True))
    assert g.rooms[-1].bonus == "9C" and g.rooms[-1].value == 18  # the largest
    assert g.satchels == [1 + 4, 1 + 4, 1 + 4, 1 + 4] and g.rooms[-1].jewels == 2


def test_hearts_draw_no_side_card():
    g = rigged(3, run=["9H"], side=["5S"])
    assert g.rooms[-1].bonus is None and len(g.side) == 16


def test_a_danger_pays_nothing():
    g = rigged(3, run=["JS"])
    assert g.satchels == [0, 0, 0] and g.rooms[-1].value == 0 and g.rooms[-1].jewels == 0
    assert g.dangers == ("J",)
    for card in ["QH", "KD", "AC", "X1"]:
        g = rigged(3, run=[card])
        assert g.satchels == [0, 0, 0] and g.rooms[-1].value == 0 and jewels(g) == 0


def test_different_dangers_do_not_end_the_heist():
    g = rigged(3, run=["JS", "QS", "KS", "AS", "X1"])
    for _ in range(4):
        g, events = decide(g, everyone(g, True))
        assert not of(events, "caught")
    assert g.dangers == ("J", "Q", "K", "A", "X") and g.inside == (0, 1, 2) and g.heist == 1
