"""Properties over many random games (hypothesis and seeded loops):

- jewels are conserved: every jewel a room was worth is in a satchel, a bank, a room,
  or counted lost, after every action;
- banks never go negative, satchels are empty outside the heist's insiders;
- bots (random and the strategies) finish every game for 3 to 8 players;
- determinism: the same seed and the same choices give the same game and events;
- a refused action changes nothing.
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.royal import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Coin,
    DangerLimit,
    Decide,
    IllegalActionError,
    Phase,
    SatchelThreshold,
    apply,
    bot_action,
    legal_actions,
    new_game,
    strategy_action,
)
from tests.games.royal.builders import jewels

players = st.integers(MIN_PLAYERS, MAX_PLAYERS)
seeds = st.one_of(st.integers(0, 2**64 - 1), st.text(max_size=8))


def _check(g):
    assert jewels(g) == g.turned_up
    assert min(g.banks) >= 0 and min(g.satchels) >= 0
    assert all(g.satchels[s] == 0 for s in range(g.players) if s not in g.inside)
    assert all(r.jewels >= 0 for r in g.rooms)
    assert set(g.decisions) <= set(g.inside)
    if g.phase is Phase.DECIDE:
        assert g.inside and g.waiting()
        if len(g.rooms) == 1:  # a heist just began: everybody in, the first room's share each
            assert g.satchels == [g.rooms[0].value // g.players] * g.players
    else:
        assert g.waiting() == ()


@settings(max_examples=60, deadline=None)
@given(
    seed=seeds,
    n=players,
    gate=st.booleans(),
    bot_seed=st.integers(0, 10**6),
    press=st.floats(0, 1),
    games=st.integers(1, 3),
)
def test_random_games_keep_every_invariant_and_finish(seed, n, gate, bot_seed, press, games):
    g, _ = new_game(seed, n, gate=gate, games=games)
    r = random.Random(bot_seed)
    steps = 0
    while g.phase is not Phase.OVER:
        _check(g)
        if g.phase is Phase.GATE:
            action = bot_action(g, r)
        else:
            seat = g.waiting()[int(r.random() * len(g.waiting()))]
            action = Decide(seat, r.random() < press)
        g, _ = apply(g, action)
        steps += 1
        assert steps < 2000 * games
    _check(g)
    assert (g.game, g.heist) == (games, 5)


@settings(max_examples=30, deadline=None)
@given(seed=seeds, n=players, bot_seed=st.integers(0, 10**6))
def test_a_refused_action_changes_nothing(seed, n, bot_seed):
    g, _ = new_game(seed, n)
    r = random.Random(bot_seed)
    while g.phase is not Phase.OVER:
        seat = int(r.random() * (n + 2)) - 1
        legal = legal_actions(g, seat if 0 <= seat < n else None)
        attempt = Decide(seat, r.random() < 0.5)
        before = g.to_dict()
        if attempt in legal:
            g, _ = apply(g, attempt)
        else:
            try:
                apply(g, attempt)
            except IllegalActionError:
                assert g.to_dict() == before
            else:
                raise AssertionError(f"{attempt} was accepted though not legal")
            g, _ = apply(g, bot_action(g, r))


@settings(max_examples=30, deadline=None)
@given(seed=seeds, n=players, bot_seed=st.integers(0, 10**6))
def test_the_same_seed_and_choices_give_the_same_game(seed, n, bot_seed):
    runs = []
    for _ in range(2):
        g, events = new_game(seed, n)
        r = random.Random(bot_seed)
        log = [events]
        while g.phase is not Phase.OVER:
            g, events = apply(g, bot_action(g, r))
            log.append(events)
        runs.append((g.to_dict(), log))
    assert runs[0] == runs[1]


def test_bots_finish_every_game_for_3_to_8_players():
    for seed in range(240):
        n = MIN_PLAYERS + seed % (MAX_PLAYERS - MIN_PLAYERS + 1)
        g, _ = new_game(seed, n, gate=seed % 2 == 0)
        r = random.Random(seed)
        strategies = [SatchelThreshold(8), DangerLimit(3), Coin(0.6, r)]
        while g.phase is not Phase.OVER:
            if seed % 3 == 0 or g.phase is Phase.GATE:
                action = bot_action(g, r)
            else:
                seat = g.waiting()[0]
                action = strategy_action(g, seat, strategies[seat % 3])
            assert action is not None
            g, _ = apply(g, action)
        _check(g)
        assert g.heist == 5 and sum(g.banks) + g.lost == g.turned_up


def test_the_generator_is_the_games_own():
    a, _ = new_game(42, 5)
    random.seed(1)
    b, _ = new_game(42, 5)
    assert a == b
    c, _ = new_game(43, 5)
    assert [r.card for r in c.rooms] + c.deck != [r.card for r in a.rooms] + a.deck
