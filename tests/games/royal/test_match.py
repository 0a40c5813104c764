"""A party's table plays several games in a row (docs/RULES.md, "A Royal Heist party"):
each from a whole deck and empty banks, the banks adding up to a running total that
ranks the table; the party's gate stands half-way through all the games' heists."""

import random

import pytest

from games.definition import Setup
from games.royal import (
    MAX_GAMES,
    ROYAL,
    Decide,
    MalformedActionError,
    OpenGate,
    Phase,
    apply,
    gate_point,
    new_game,
    public_view,
    replay,
)
from tests.games.royal.builders import decide, everyone, jewels, of


def _end_heist(g):
    """Everybody gets out at once: the heist ends after its first room."""
    return decide(g, everyone(g, False))


def _heist_with_banks(g, seat):
    """Only `seat` gets out after the first room, the rest press on until the heist ends:
    `seat` banks its share of the first room (a spot card) or nothing (a danger)."""
    g, events = decide(g, everyone(g, True, but=[seat]))
    while g.phase is Phase.DECIDE and g.inside and of(events, "heist_ended") == []:
        g, more = decide(g, everyone(g, False))
        events += more
    return g, events


def test_a_table_of_three_games_plays_fifteen_heists_and_ranks_by_the_running_total():
    rng = random.Random(7)
    g, _ = new_game(11, 4, games=3)
    banks_by_game: list[list[int]] = []
    seen: list[tuple[int, int]] = []
    actions = []
    while g.phase is not Phase.OVER:
        seen.append((g.game, g.heist))
        while g.phase is Phase.DECIDE and (g.game, g.heist) == seen[-1]:
            choices = {s: rng.random() < 0.7 for s in g.inside}
            acts = [Decide(s, c) for s, c in sorted(choices.items())]
            g, events = decide(g, choices)
            actions += acts
            ended = of(events, "game_ended") + of(events, "game_over")
            if ended:
                banks_by_game.append(ended[0].data["banks"])
                assert ended[0].data["game"] == len(banks_by_game)
    assert seen == [(game, heist) for game in (1, 2, 3) for heist in range(1, 6)]
    assert len(banks_by_game) == 3
    totals = [sum(b[s] for b in banks_by_game) for s in range(4)]
    assert g.running_totals() == totals
    assert [s.score for s in sorted(ROYAL.standings(g), key=lambda s: s.seat)] == totals
    best = max(totals)
    assert public_view(g)["winners"] == [s for s in range(4) if totals[s] == best]
    assert [p["total"] for p in public_view(g)["seats"]] == totals
    # replay is the stored state, and the storage round trip keeps the match
    assert replay(11, 4, actions, games=3).to_dict() == g.to_dict()
    assert type(g).from_dict(g.to_dict()).to_dict() == g.to_dict()
    assert jewels(g) == g.turned_up


def test_the_next_game_starts_from_empty_banks_and_a_whole_deck():
    g, _ = new_game(3, 3, games=2)
    for _ in range(4):
        g, _ = _end_heist(g)
    # the last heist of game 1: seat 0 gets out at once, the rest are caught or leave
    g, events = _heist_with_banks(g, 0)
    while g.game == 1:  # a caught heist turns up no danger twice: end it by all leaving
        g, events = _end_heist(g)
    assert g.game == 2 and g.heist == 1 and g.phase is Phase.DECIDE
    started = [e for e in of(events, "game_started") if e.data["game"] == 2]
    assert started and started[0].data["totals"] == g.totals
    assert g.banks == [0, 0, 0]
    assert g.retired == ()
    assert len(g.deck) + len(g.rooms) == 34  # every run card back in
    assert sum(g.totals) == sum(of(events, "game_ended")[0].data["banks"])


def test_retired_cards_come_back_for_the_next_game():
    g, _ = new_game(3, 3, games=2, heists=1)
    g.retired = ("QS",)  # as if heist 1 had ended on a second queen
    g, events = _end_heist(g)
    assert g.game == 2 and g.retired == () and of(events, "game_ended")


def test_a_single_game_is_what_was_printed():
    g, _ = new_game(5, 4)
    assert (g.games, g.game, g.totals) == (1, 1, [0, 0, 0, 0])
    for _ in range(5):
        g, events = _end_heist(g)
    assert g.phase is Phase.OVER and g.game == 1 and not of(events, "game_ended")
    assert of(events, "game_over")[0].data["totals"] == g.banks


@pytest.mark.parametrize(
    ("heists", "games", "point"),
    [(5, 1, (1, 2)), (5, 3, (2, 2)), (5, 2, (1, 5)), (5, 4, (2, 5)), (1, 1, (0, 0)), (1, 3, (1, 1)), (13, 1, (1, 6))],
)
def test_the_gate_stands_half_way_through_every_heist_of_the_table(heists, games, point):
    assert gate_point(heists, games) == point


def test_three_games_at_a_party_stop_once_at_game_2_heist_2():
    g, _ = new_game(5, 4, gate=True, games=3)
    stops = []
    while g.phase is not Phase.OVER:
        if g.phase is Phase.GATE:
            stops.append((g.game, g.heist))
            assert ROYAL.at_gate(g) and public_view(g)["gate_game"] == 2 and public_view(g)["gate_after"] == 2
            g, events = apply(g, OpenGate())
            assert (g.game, g.heist) == (2, 3) and of(events, "gate_opened")[0].data == {"game": 2, "heist": 3}
            continue
        g, _ = _end_heist(g)
    assert stops == [(2, 2)]


def test_a_gate_between_two_games_shows_the_finished_games_banks():
    g, _ = new_game(5, 3, gate=True, games=2, heists=1)
    g.banks = [4, 0, 1]  # as if banked in the only heist's first rooms
    g.turned_up = 5
    g, events = _end_heist(g)
    assert g.phase is Phase.GATE and (g.game, g.heist) == (1, 1) and g.banks == [4, 0, 1]
    assert of(events, "game_ended")[0].data["winners"] == [0]
    g, _ = apply(g, OpenGate())
    assert (g.game, g.heist, g.banks, g.totals) == (2, 1, [0, 0, 0], [4, 0, 1])
    # what the screens tell of the game just over, once its banks are emptied
    assert g.last_heist["game"] == 1 and g.last_heist["game_banks"] == [4, 0, 1]


@pytest.mark.parametrize("games", [0, MAX_GAMES + 1, "3", True, 2.0])
def test_a_table_plays_1_to_max_games(games):
    with pytest.raises(MalformedActionError):
        new_game(1, 3, games=games)


def test_the_definition_plays_the_setups_games():
    g, _ = ROYAL.setup(Setup(players=3, seed=1, games=3))
    assert g.games == 3
    assert ROYAL.replay(Setup(players=3, seed=1, games=3), []).to_dict() == g.to_dict()
    assert (ROYAL.features.games, ROYAL.features.max_games) == (3, 4)
    for games in ("3", 0, MAX_GAMES + 1):
        with pytest.raises(MalformedActionError):
            ROYAL.setup(Setup(players=3, seed=1, games=games))  # type: ignore[arg-type]
    with pytest.raises(MalformedActionError):
        ROYAL.setup(Setup(players=3, seed=1, options={"games": 3}))  # not an option: Setup.games


def test_a_table_stored_before_matches_reads_as_one_game():
    g, _ = new_game(2, 3)
    stored = g.to_dict()
    for key in ("games", "game", "totals"):
        del stored[key]
    back = type(g).from_dict(stored)
    assert (back.games, back.game, back.totals) == (1, 1, [0, 0, 0])
