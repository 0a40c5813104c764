"""Setup and the three rounds: the letter deck by players, the Showcase Letters, the same
letters reshuffled each round, new Bonus Vault cards, the gate, the end and its ties."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.definition import Setup
from games.word.actions import OpenGate, StandIn
from games.word.definition import WordDefinition
from games.word.errors import MalformedActionError, WrongPhaseError
from games.word.letters import COMMON, DECK_BY_PLAYERS, RARE, VOWELS
from games.word.rules import new_game, winners
from games.word.state import Game, Phase
from games.word.views import public_view
from tests.games.word.builders import LEX, play, play_round, table


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_letter_deck_by_players(players: int) -> None:
    for seed in range(20):
        g, _ = new_game(seed, players, LEX)
        kinds = Counter("c" if c in COMMON else "r" if c in RARE else "v" for c in g.cards)
        assert (kinds["c"], kinds["r"], kinds["v"]) == DECK_BY_PLAYERS[players]
        assert len(set(g.cards)) == len(g.cards)
        assert sorted(g.tableau) == sorted(g.cards)


def test_the_rulebook_s_table_of_decks() -> None:
    assert DECK_BY_PLAYERS == {2: (3, 1, 2), 3: (4, 1, 2), 4: (4, 1, 2), 5: (4, 2, 2), 6: (4, 2, 2)}
    assert len(COMMON) == 13 and len(RARE) == 8 and len(VOWELS) == 5


def test_the_first_two_cards_are_the_showcase_letters() -> None:
    g, _ = new_game(3, 4, LEX)
    tableau = public_view(g)["tableau"]
    assert [t["showcase"] for t in tableau] == [1, 2] + [0] * (len(tableau) - 2)


def test_refuses_a_table_it_cannot_seat() -> None:
    for players in (1, 7):
        with pytest.raises(MalformedActionError):
            new_game(0, players, LEX)


def quiet_round(g: Game) -> Game:
    """A round where every clock runs out."""
    start = g.round
    while g.round == start and g.phase in (Phase.WORD, Phase.CLUES, Phase.HALT, Phase.VOTE):
        g, _ = play(g, StandIn(g.waiting()[0]))
    return g


def test_three_rounds_the_same_letters_reshuffled_and_new_vault_cards() -> None:
    g, _ = new_game(11, 4, LEX)
    tableaus, vaults = [g.tableau], [g.vault]
    for _ in range(2):
        g = quiet_round(g)
        tableaus.append(g.tableau)
        vaults.append(g.vault)
    assert g.round == 3
    assert all(sorted(t) == sorted(tableaus[0]) for t in tableaus)
    assert len({t for t in tableaus}) > 1
    dealt = [c for v in vaults for c in v]
    assert len(dealt) == 6 and len(set(dealt)) == 6  # 2 a round, never dealt again
    g = quiet_round(g)
    assert g.phase is Phase.OVER


def test_a_party_s_table_stops_at_the_gate_after_round_1() -> None:
    g, _ = new_game(5, 3, LEX, gate=True)
    g = quiet_round(g)
    assert g.phase is Phase.GATE and g.round == 1
    with pytest.raises(WrongPhaseError):
        play(g, StandIn(0))
    g, _ = play(g, OpenGate())
    assert g.phase is Phase.WORD and g.round == 2
    g = quiet_round(g)
    assert g.phase is Phase.WORD and g.round == 3


def test_a_quiet_seat_scores_nothing_all_game() -> None:
    g, _ = new_game(1, 2, LEX)
    while g.phase is not Phase.OVER:
        g = quiet_round(g)
    assert g.scores == [0, 0] and winners(g) == [0, 1]


def test_equal_points_and_equal_final_words_share_the_victory() -> None:
    g = table(3, round=3)
    g.scores = [10, 10, 9]
    g, _ = play_round(g, words={0: "lilies", 1: "heists", 2: None}, clues={0: {"S": 1}, 1: {"H": 1}})
    assert g.phase is Phase.OVER
    # each: (1 token + I 1 + longest 2 + two vowels 1) x2 = 10; both words 6 letters
    assert g.scores == [20, 20, 9]
    assert winners(g) == [0, 1]


def test_a_tie_on_points_goes_to_the_longest_final_round_word() -> None:
    g = table(3, round=3)
    g.scores = [12, 10, 0]
    g, _ = play_round(g, words={0: "tee", 1: "heist", 2: None}, clues={0: {"T": 1}, 1: {"H": 1}})
    # TEE: (1 + two vowels 1) x2 = 4 -> 16; HEIST: (1 + I 1 + longest 2 + vowels 1) x2 = 10 -> 20
    assert g.scores == [16, 20, 0]
    g = table(3, round=3)
    g.scores = [16, 10, 0]
    g, _ = play_round(g, words={0: "tee", 1: "heist", 2: None}, clues={0: {"T": 1}, 1: {"H": 1}})
    assert g.scores == [20, 20, 0]
    assert winners(g) == [1]  # HEIST (5 letters) beats TEE (3)


def test_replay_is_exact() -> None:

    definition = WordDefinition(lexicons=lambda language: LEX)
    setup = Setup(players=4, seed="replay", gate=True)
    g, _ = definition.setup(setup)
    r = random.Random(3)
    actions = []
    while not definition.is_over(g):
        a = definition.gate_opened(g) if definition.at_gate(g) else definition.bot_action(g, r)
        assert a is not None
        actions.append(a)
        g, _ = definition.apply(g, a)
    assert definition.to_dict(definition.replay(setup, actions)) == definition.to_dict(g)
