"""ROYAL's optional part for the party's result (games/definition.py ScoresEachGame) and
its pure telling of a table for the party's story (games/royal/story.py, which
games/royal/party/story.py tells the party with): each game's banks and the
heist-by-heist telling, read from the events of a table's play, agree with the state it
ends in."""

import random

import pytest

from games.definition import ScoresEachGame, Setup
from games.royal import ROYAL
from games.royal.story import table_story


def _played(seed: int, players: int, games: int):
    game, events = ROYAL.setup(Setup(players=players, seed=seed, gate=True, games=games))
    events = list(events)
    r = random.Random(seed)
    while not ROYAL.is_over(game):
        game, more = ROYAL.apply(game, ROYAL.bot_action(game, r))
        events += more
    return game, events


@pytest.mark.parametrize(("seed", "players", "games"), [(1, 3, 1), (2, 5, 3), (3, 8, 4), (4, 6, 2)])
def test_each_games_banks_add_up_to_the_running_totals(seed, players, games):
    assert isinstance(ROYAL, ScoresEachGame)
    game, events = _played(seed, players, games)
    scores = ROYAL.game_scores(events)
    assert len(scores) == games and all(len(banks) == players for banks in scores)
    assert [sum(banks[s] for banks in scores) for s in range(players)] == game.running_totals()
    assert scores[-1] == game.banks  # the last game's banks are still the state's


@pytest.mark.parametrize(("seed", "players", "games"), [(5, 4, 1), (6, 7, 3)])
def test_the_story_tells_every_heist_and_adds_up_to_each_games_banks(seed, players, games):
    game, events = _played(seed, players, games)
    told = table_story(events)["games"]
    scores = ROYAL.game_scores(events)
    assert [g["game"] for g in told] == list(range(1, games + 1))
    retired = 0
    for g, banks in zip(told, scores, strict=True):
        assert [x["heist"] for x in g["heists"]] == list(range(1, game.heists + 1))
        banked = [0] * players
        for x in g["heists"]:
            for o in x["got_out"]:
                banked[o["seat"]] += o["banked"]
            for c in x["caught"]:
                banked[c["seat"]] -= c["bank"]
            # everybody inside leaves once: got out, or caught
            seats = [o["seat"] for o in x["got_out"]] + [c["seat"] for c in x["caught"]]
            assert sorted(seats) == list(range(players))
            retired += x["retired"] is not None
        assert banked == banks == [s["bank"] for s in g["seats"]]
    assert told[-1]["seats"] and [s["total"] for s in told[-1]["seats"]] == game.running_totals()
    assert retired == sum(1 for e in events if e.type == "retired")
