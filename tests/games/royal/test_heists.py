"""Five heists, then the biggest bank wins; tied banks share the win."""

from games.definition import Setup
from games.royal import ROYAL, Phase, new_game
from tests.games.royal.builders import decide, everyone, of, rigged


def _finish_heist(g):
    """Everybody gets out at once: the heist ends."""
    return decide(g, everyone(g, False))


def test_five_heists_then_the_game_is_over():
    g, _ = new_game(3, 3)
    for heist in range(1, 6):
        assert g.heist == heist and g.phase is Phase.DECIDE
        g, events = _finish_heist(g)
    assert g.phase is Phase.OVER and g.heist == 5
    assert of(events, "game_over") and not of(events, "heist_started")
    assert g.waiting() == ()


def test_the_number_of_heists_is_an_option():
    g, _ = ROYAL.setup(Setup(players=3, seed=1, options={"heists": 2}))
    g, _ = _finish_heist(g)
    g, _ = _finish_heist(g)
    assert ROYAL.is_over(g)


def test_the_biggest_bank_wins():
    g = rigged(3, run=["9H", "QS", "QH"], heist=5, banks=[3, 3, 3])
    g, _ = decide(g, everyone(g, True))  # the QS: 3 each in the satchels
    g, events = decide(g, {0: False, 1: True, 2: True})  # seat 0 banks 3; the others are caught
    assert g.phase is Phase.OVER
    assert of(events, "game_over")[0].data["winners"] == [0]
    standings = ROYAL.standings(g)
    assert [(s.seat, s.score, s.rank, s.winner) for s in standings] == [
        (0, 6, 1, True),
        (1, 3, 2, False),
        (2, 3, 2, False),
    ]


def test_tied_banks_share_the_win():
    g = rigged(4, run=["8H"], heist=5, banks=[5, 0, 5, 1])
    g, events = decide(g, everyone(g, False))  # 2 each
    assert g.banks == [7, 2, 7, 3]
    assert of(events, "game_over")[0].data["winners"] == [0, 2]
    assert [s.winner for s in ROYAL.standings(g)] == [True, False, True, False]
    assert [s.rank for s in ROYAL.standings(g)] == [1, 4, 1, 3]
    assert ROYAL.public_view(g)["winners"] == [0, 2]
