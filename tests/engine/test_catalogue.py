"""What the screens are told of the rules (`rules_for_screens`) is what the engine does."""

import json

import pytest

from games.yankee import (
    CARD_OF,
    HAND_LIMIT,
    VAULT_ID_BASE,
    Card,
    Direction,
    IllegalActionError,
    IllegalCardError,
    IllegalTargetError,
    Kind,
    PlayCard,
    apply,
    deck_for,
    gift_label,
    new_game,
    rules_for_screens,
)
from games.yankee.legal import heist_steps
from tests.engine.builders import build, make_gifts, make_vault, one


def test_it_is_plain_json_and_a_fresh_copy_each_call():
    rules = rules_for_screens()
    assert json.loads(json.dumps(rules)) == rules
    rules["cards"]["SNATCH"]["targets"] = 9
    assert rules_for_screens()["cards"]["SNATCH"]["targets"] == 1


def test_the_cards_are_the_engine_deck():
    rules = rules_for_screens()
    assert list(rules["cards"]) == [c.name for c in Card]
    assert rules["deck"] == [c.name for c in CARD_OF] and len(rules["deck"]) == 54
    for card in Card:
        entry = rules["cards"][card.name]
        assert (entry["title"], entry["kind"], entry["copies"], entry["effect"]) == (
            card.title,
            card.kind.value,
            card.copies,
            card.effect,
        )
    in_two = {CARD_OF[cid].name for cid in deck_for(2)}
    assert {name for name, c in rules["cards"].items() if c["in_two_player_deck"]} == in_two
    assert in_two == {c.name for c in Card} - {"SWITCHEROO", "THREE_GIFT_GRIFT"}
    assert rules["hand_limit"] == HAND_LIMIT == 5
    assert rules["rounds"] == {"1": "THE SNOOP", "2": "THE SCRAMBLE", "3": "THE DOUBLE-CROSS", "4": "LAST CALL"}
    assert rules["players"] == {"min": 2, "max": 10}


def _accepted_counts(card: Card, players: int) -> set[int]:
    """How many targets the engine accepts for `card`, found by playing it."""
    payer = Card.INSIDE_MAN if card is not Card.INSIDE_MAN else Card.SNATCH
    hands = [[card, payer]] + [[Card.SNATCH] for _ in range(players - 1)]  # 10 SNATCHes in the deck
    g = build(players, hands=hands)
    played = one(g, 0, card)
    accepted = set()
    for k in range(4):
        action = PlayCard(
            0,
            played,
            tuple(range(1, k + 1)),
            extra=one(g, 0, payer) if card is Card.YANKEE_HEIST else None,
            direction=Direction.CLOCKWISE if card is Card.THREE_GIFT_GRIFT else None,
        )
        try:
            apply(g, action)
        except IllegalTargetError:
            continue  # the wrong number of players, or a seat that does not exist
        accepted.add(k)
    return accepted


_PLAYED = [
    pytest.param(card, players, id=f"{card.name}-{players}")
    for players in (2, 3, 10)
    for card in Card
    if card.kind is not Kind.REACTION and (players > 2 or card.name not in ("SWITCHEROO", "THREE_GIFT_GRIFT"))
]


@pytest.mark.parametrize(("card", "players"), _PLAYED)
def test_targets_are_what_the_engine_accepts(card, players):
    entry = rules_for_screens()["cards"][card.name]
    told = entry["targets_two_players"] if players == 2 else entry["targets"]
    assert _accepted_counts(card, players) == {told}


def test_two_player_yankee_heist_names_one_player_once():
    entry = rules_for_screens()["cards"]["YANKEE_HEIST"]
    assert (entry["targets"], entry["targets_two_players"]) == (2, 1)
    assert heist_steps(build(2)) == 1 and heist_steps(build(3)) == 2


@pytest.mark.parametrize("card", [c for c in Card if c.kind is Kind.REACTION], ids=lambda c: c.name)
def test_reactions_name_nobody_and_cannot_be_played_as_an_action(card):
    entry = rules_for_screens()["cards"][card.name]
    assert entry["targets"] == entry["targets_two_players"] == 0
    g = build(3, hands=[[card]])
    with pytest.raises(IllegalCardError):
        apply(g, PlayCard(0, one(g, 0, card), ()))


def test_vault_id_base_and_labels():
    rules = rules_for_screens()
    assert rules["vault"] == {"max": 3, "id_base": VAULT_ID_BASE} and VAULT_ID_BASE == 1000
    assert [gift_label(i) for i in (1, 42, 999, 1000, 1001, 1003)] == ["1", "42", "999", "V0", "V1", "V3"]
    # The engine takes as many vault gifts as the screens are told, and no more.
    new_game(seed=1, gifts=make_gifts(3), vault=make_vault(3))
    with pytest.raises(IllegalActionError):
        new_game(seed=1, gifts=make_gifts(3), vault=make_vault(4))
