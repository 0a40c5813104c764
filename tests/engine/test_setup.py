"""Setup: table size, gifts, deck, deal, starter, vault, invalid setups, seeding."""

import json
from collections import Counter

import pytest

from games.yankee import (
    Card,
    Game,
    Gift,
    Kind,
    MalformedActionError,
    Phase,
    card_of,
    deck_for,
    new_game,
)
from games.yankee.cards import CARD_OF
from tests.engine.builders import (
    assert_cards_conserved,
    desc,
    draws,
    gift_id,
    make_gifts,
    make_vault,
    of_type,
    start,
    vault_id,
)

EXPECTED_COPIES = {
    Card.SNATCH: (Kind.MOVE, 10),
    Card.SWITCHEROO: (Kind.MOVE, 6),
    Card.THREE_GIFT_GRIFT: (Kind.MOVE, 4),
    Card.YANKEE_HEIST: (Kind.MOVE, 4),
    Card.CASE_THE_JOINT: (Kind.SCHEME, 4),
    Card.INSIDE_MAN: (Kind.SCHEME, 6),
    Card.PICKPOCKET: (Kind.SCHEME, 6),
    Card.NOT_SO_FAST: (Kind.REACTION, 8),
    Card.TRIPWIRE: (Kind.REACTION, 6),
}


def test_deck_catalogue_matches_game_md():
    assert len(CARD_OF) == 54
    counts = Counter(CARD_OF)
    for card, (kind, copies) in EXPECTED_COPIES.items():
        assert card.kind is kind
        assert counts[card] == copies, card
    kinds = Counter(c.kind for c in CARD_OF)
    assert kinds == {Kind.MOVE: 24, Kind.SCHEME: 16, Kind.REACTION: 14}
    assert Card.THREE_GIFT_GRIFT.title == "THREE-GIFT GRIFT"
    assert Card.YANKEE_HEIST.title == "YANKEE HEIST"


@pytest.mark.parametrize("players", range(3, 11))
def test_three_or_more_players_use_all_54_cards(players):
    deck = deck_for(players)
    assert sorted(deck) == list(range(54))
    g, _ = start(players)
    assert_cards_conserved(g)
    assert sum(len(h) for h in g.hands) + len(g.draw_pile) == 54


def test_two_players_use_44_cards_without_switcheroo_or_grift():
    deck = deck_for(2)
    assert len(deck) == 44
    counts = Counter(card_of(c) for c in deck)
    assert counts[Card.SWITCHEROO] == 0 and counts[Card.THREE_GIFT_GRIFT] == 0
    for card, (_, copies) in EXPECTED_COPIES.items():
        if card not in (Card.SWITCHEROO, Card.THREE_GIFT_GRIFT):
            assert counts[card] == copies
    for seed in range(30):
        g, _ = start(2, seed=seed)
        everywhere = [c for h in g.hands for c in h] + g.draw_pile
        assert sorted(everywhere) == sorted(deck)
        assert not {card_of(c) for c in everywhere} & {Card.SWITCHEROO, Card.THREE_GIFT_GRIFT}


@pytest.mark.parametrize("players", range(2, 11))
def test_setup_deals_gifts_and_three_cards_then_starter_draws_one(players):
    g, events = start(players, seed=players * 7)
    assert g.players == players
    assert g.phase is Phase.ACTION and g.round == 1 and g.turn == 0
    assert 0 <= g.starter < players and g.active == g.starter
    # one gift each, a permutation of the gifts brought
    assert sorted(g.gifts) == [gift_id(s) for s in range(players)]
    assert g.open == frozenset()  # every gift is wrapped
    # 3 cards each, then the starter's automatic draw
    for seat in range(players):
        assert len(g.hands[seat]) == (4 if seat == g.starter else 3)
    assert len(g.draw_pile) == len(deck_for(players)) - 3 * players - 1
    assert g.discards == [] and g.aside == []
    assert_cards_conserved(g)
    assert draws(events) == [(g.starter, 1, "turn")]
    dealt = of_type(events, "dealt")
    assert [e.to for e in dealt] == [(s,) for s in range(players)]
    assert [len(e.data["cards"]) for e in dealt] == [3] * players


@pytest.mark.parametrize("players", [1, 0, 11, 12])
def test_table_size_outside_2_to_10_is_rejected(players):
    with pytest.raises(MalformedActionError, match="2 to 10"):
        new_game(seed=1, gifts=[Gift(id=i, description="x") for i in range(players)])


def test_invalid_setups_are_rejected():
    with pytest.raises(MalformedActionError, match="vault"):
        new_game(seed=1, gifts=make_gifts(4), vault=make_vault(4))
    with pytest.raises(MalformedActionError, match="unique"):
        new_game(seed=1, gifts=[Gift(1, "a"), Gift(1, "b"), Gift(2, "c")])
    with pytest.raises(MalformedActionError, match="unique"):
        new_game(seed=1, gifts=make_gifts(3), vault=[Gift(gift_id(0), "dup")])
    with pytest.raises(MalformedActionError, match="does not exist"):
        new_game(seed=1, gifts=[Gift(1, "a", brought_by=0), Gift(2, "b", brought_by=5)])


def test_gifts_are_dealt_by_a_seeded_permutation_and_own_gift_is_allowed():
    seen_own = seen_other = False
    layouts = set()
    for seed in range(200):
        g, _ = start(4, seed=seed)
        assert sorted(g.gifts) == [10, 11, 12, 13]
        layouts.add(tuple(g.gifts))
        if any(g.gifts[s] == gift_id(s) for s in range(4)):
            seen_own = True
        if any(g.gifts[s] != gift_id(s) for s in range(4)):
            seen_other = True
    assert seen_own and seen_other
    assert len(layouts) == 24  # every permutation of 4 gifts occurs


def test_each_player_peeks_at_the_dealt_gift_privately():
    g, events = start(5, seed=3)
    peeks = of_type(events, "peeked")
    assert len(peeks) == 5
    for e in peeks:
        seat = e.data["seat"]
        assert e.to == (seat,)
        assert e.data["gift"] == g.gifts[seat]
        assert e.data["description"] == desc(g.gifts[seat] - 10)
        assert e.view(seat) is not None
        assert e.view((seat + 1) % 5) is None and e.view(None) is None
    for seat in range(5):
        # the dealt gift, and the one the player brought (they described it)
        assert g.peeks[seat] == {g.gifts[seat], gift_id(seat)}


def test_starter_is_random_from_the_seed():
    starters = Counter(start(4, seed=seed)[0].starter for seed in range(400))
    assert set(starters) == {0, 1, 2, 3}
    assert all(60 < n < 140 for n in starters.values()), starters
    assert start(4, seed=99)[0].starter == start(4, seed=99)[0].starter


@pytest.mark.parametrize("size", [0, 1, 2, 3])
def test_vault_of_0_to_3_wrapped_gifts(size):
    g, events = start(4, seed=5, vault=size)
    assert g.vault == [vault_id(i) for i in range(size)]
    assert not (set(g.vault) & g.open)
    assert of_type(events, "game_started")[0].data["vault"] == g.vault
    assert all(vault_id(i) not in p for p in g.peeks for i in range(size))


def test_same_seed_same_game_and_different_seeds_differ():
    a, ev_a = start(6, seed=1234)
    b, ev_b = start(6, seed=1234)
    assert a.to_dict() == b.to_dict()
    assert ev_a == ev_b
    c, _ = start(6, seed=1235)
    assert c.to_dict() != a.to_dict()
    assert c.hands != a.hands
    # string seeds are stable too
    s1, _ = start(6, seed="party-42")
    s2, _ = start(6, seed="party-42")
    s3, _ = start(6, seed="party-43")
    assert s1.to_dict() == s2.to_dict()
    assert s1.hands != s3.hands


def test_the_seed_is_kept_as_given_int_or_str_and_replays_the_game():
    # Game.seed was typed int while new_game took `int | str`: a string seed was stored as
    # a string all along. It is kept as given (audit: the seed the party was dealt from),
    # survives the stored JSON, and replays the game.
    for seed in ("party-42", 2**63 - 1, 0):
        g, _ = start(6, seed=seed)
        assert g.seed == seed and type(g.seed) is type(seed)
        stored = json.loads(json.dumps(g.to_dict()))
        assert stored["seed"] == seed
        back = Game.from_dict(stored)
        assert back == g and type(back.seed) is type(seed)
        assert start(6, seed=back.seed)[0] == g


@pytest.mark.parametrize("seed", [1.5, True, None, b"party", ["party"]])
def test_a_seed_that_is_not_an_int_or_str_is_refused(seed):
    with pytest.raises(MalformedActionError, match="seed is an int or a str"):
        new_game(seed=seed, gifts=make_gifts(3))


def test_setup_emits_game_started_and_round_one():
    g, events = start(3, seed=8)
    types = [e.type for e in events]
    assert types[0] == "game_started"
    assert types.index("round_started") < types.index("turn_started") < types.index("drew")
    rs = of_type(events, "round_started")[0]
    assert rs.data == {"round": 1, "starter": g.starter}
    assert of_type(events, "game_started")[0].data["gifts"] == g.gifts
