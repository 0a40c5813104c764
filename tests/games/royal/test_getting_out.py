"""3. Get out: the leavers split the rooms' leftovers as one pile (docs/RULES.md), bank
that share and their satchel, and are out; nobody inside ends the heist."""

from games.royal import Phase
from tests.games.royal.builders import decide, everyone, jewels, of, rigged


def _leftovers():
    """Three inside; rooms 8H (2 left) and 7H (1 left): 3 jewels in the rooms."""
    g = rigged(3, run=["8H", "7H", "5H", "JS"])
    g, _ = decide(g, everyone(g, True))
    assert [r.jewels for r in g.rooms] == [2, 1] and g.satchels == [4, 4, 4]
    return g


def test_a_lone_leaver_takes_every_leftover_and_banks_the_satchel():
    g, events = decide(_leftovers(), {0: False, 1: True, 2: True})
    assert g.banks[0] == 4 + 3 and g.satchels[0] == 0 and 0 not in g.inside
    (out,) = of(events, "got_out")
    assert out.data["share"] == 3 and out.data["left"] == 0
    # The 5H then splits between the two still inside: 2 each, 1 left.
    assert g.satchels == [0, 6, 6] and [r.jewels for r in g.rooms] == [0, 0, 1]


def test_several_leavers_split_the_rooms_summed_and_leave_the_remainder():
    g = _leftovers()
    g, _ = decide(g, {0: False, 1: False, 2: True})
    # 2 + 1 = 3 jewels as one pile: 1 each, 1 stays (per room it would be 1 + 0 and 2 left)
    assert g.banks[:2] == [4 + 1, 4 + 1]
    # The remainder went back on the newest room, then the 5H paid seat 2 alone.
    assert [r.jewels for r in g.rooms] == [0, 1, 0]
    assert g.satchels == [0, 0, 4 + 5]


def test_getting_out_leaves_the_remainder_in_the_rooms_when_it_does_not_divide():
    g = rigged(4, run=["3H", "JS"])  # 0 each, 3 left
    g, _ = decide(g, {0: False, 1: False, 2: True, 3: True})
    assert g.banks == [1, 1, 0, 0] and sum(r.jewels for r in g.rooms) == 1


def test_those_out_do_not_decide_again_nor_share_later_rooms():
    g = rigged(3, run=["2H", "9H", "4H"])
    g, _ = decide(g, {0: False, 1: True, 2: True})
    assert g.waiting() == (1, 2)
    before = g.banks[0]
    g, _ = decide(g, {1: True, 2: True})
    assert g.banks[0] == before and g.satchels[0] == 0


def test_the_last_one_out_takes_every_leftover_and_the_heist_ends():
    g = rigged(3, run=["8H", "7H", "QS"])
    g, _ = decide(g, everyone(g, True))  # 2 + 1 left in the rooms
    g, _ = decide(g, {0: False, 1: False, 2: True})  # 3 summed: 1 each, 1 left on the 7H
    assert g.inside == (2,)
    # Seat 2, alone, turned up the QS; getting out now takes the last jewel.
    g, events = decide(g, {2: False})
    assert g.banks == [5, 5, 4 + 1] and g.lost == 0
    assert of(events, "heist_ended")[0].data["ended"] == "all_out"
    assert g.heist == 2


def test_everyone_out_ends_the_heist_and_the_rooms_jewels_are_lost():
    g = rigged(3, run=["8H"])
    g, events = decide(g, everyone(g, False))
    # 8: 2 each into satchels, 2 left; 3 leavers split 2: 0 each, 2 stay and are lost.
    assert g.banks == [2, 2, 2]
    (ended,) = of(events, "heist_ended")
    assert ended.data["rooms_lost"] == 2 and g.lost == 2
    assert jewels(g) == g.turned_up
    assert g.heist == 2 and g.phase is Phase.DECIDE


def test_the_next_heist_starts_at_once_with_everybody_inside_and_empty_satchels():
    g = rigged(3, run=["8H"])
    g, events = decide(g, everyone(g, False))
    assert [e.type for e in events][-3:] == ["heist_ended", "heist_started", "room"]
    assert g.inside == (0, 1, 2) and len(g.rooms) == 1
    assert g.decisions == {}
    g2, _ = decide(g, everyone(g, True))
    assert g2.version == g.version + 3


def test_a_decision_counts_only_at_the_reveal():
    g = rigged(3, run=["8H", "JS"])
    g, _ = decide(g, {0: False, 1: True})
    assert g.inside == (0, 1, 2) and g.banks == [0, 0, 0]  # nothing happens until seat 2 decides
    g, _ = decide(g, {2: True})
    assert g.inside == (1, 2) and g.banks[0] == 2 + 2


def test_leftovers_are_one_pile_not_split_room_by_room():
    g = rigged(3, run=["7H", "4H", "JS"])  # 7H: 2 each, 1 left
    g, _ = decide(g, everyone(g, True))  # 4H: 1 each, 1 left
    assert [r.jewels for r in g.rooms] == [1, 1]
    g, _ = decide(g, {0: False, 1: False, 2: True})
    # Summed, 2 jewels split between two: 1 each. Room by room, 1 // 2 twice: 0 each.
    assert g.banks == [3 + 1, 3 + 1, 0] and sum(r.jewels for r in g.rooms) == 0
