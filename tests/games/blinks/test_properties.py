"""Properties over many random games (hypothesis):

- the vault: every Blink's health is 0 to 4, a Blink is claimed exactly when its health
  is 0, and the damage done is the settled hits;
- a record waits for the captain exactly when the phase says so, the throw numbers only
  grow and the thrower is a seat;
- a refused action changes nothing; a replay of the accepted actions is the game;
- every game ends (the bots, any success rate above 0), with the vault empty and the
  claims adding up to the vault;
- every skip earned costs its seat exactly one turn.
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.blinks import (
    HEALTH,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Game,
    IllegalActionError,
    Phase,
    Thrower,
    apply,
    bot_action,
    legal_actions,
    new_game,
    replay,
)

players = st.integers(MIN_PLAYERS, MAX_PLAYERS)
seeds = st.one_of(st.integers(0, 2**64 - 1), st.text(max_size=8))


def _check(g: Game, hits: int) -> None:
    assert all(0 <= h <= HEALTH for h in g.health)
    assert all((h == 0) == (o is not None) for h, o in zip(g.health, g.owner, strict=True))
    assert sum(HEALTH - h for h in g.health) == hits
    assert sum(g.claims()) == g.vault - len(g.in_vault()) == sum(g.team_claims())
    assert (g.phase is Phase.CONFIRM) == (g.pending is not None)
    assert 0 <= g.turn < g.players
    assert (g.phase is Phase.OVER) == (not g.in_vault())
    if g.phase is Phase.OVER:
        assert g.waiting() == () and g.last is None


@settings(max_examples=80, deadline=None)
@given(
    seed=seeds,
    n=players,
    vault=st.integers(3, 10),
    alternate=st.booleans(),
    bot_seed=st.integers(0, 10**6),
    rate=st.floats(0.1, 1.0),
    touch=st.floats(0, 0.5),
    mix=st.floats(0, 0.3),
)
def test_random_games_keep_every_invariant_and_finish(seed, n, vault, alternate, bot_seed, rate, touch, mix):
    g, _ = new_game(seed, n, vault=vault, alternate=alternate)
    r = random.Random(bot_seed)
    thrower = Thrower(rate=rate, touch=touch)
    hits, actions, numbers = 0, [], 0
    while g.phase is not Phase.OVER:
        _check(g, hits)
        if r.random() < mix:  # now and then any legal action: a pass, a call, an undo
            action = r.choice(legal_actions(g, None) + legal_actions(g, g.turn))
        else:
            action = bot_action(g, r, None if g.phase is Phase.CONFIRM else g.turn, thrower)
        g, events = apply(g, action)
        actions.append(action)
        for e in events:
            hits += e.type == "damaged"
            hits -= e.type == "undone" and e.data["hit"] is not None
        assert g.throws >= numbers
        numbers = g.throws
        assert len(actions) < 20_000
    _check(g, hits)
    assert sum(g.claims()) == vault
    assert (
        replay({"seed": seed, "players": n, "vault": vault, "alternate": alternate}, actions).to_dict() == g.to_dict()
    )


@settings(max_examples=40, deadline=None)
@given(seed=seeds, n=players, bot_seed=st.integers(0, 10**6), alternate=st.booleans())
def test_a_refused_action_changes_nothing(seed, n, bot_seed, alternate):
    g, _ = new_game(seed, n, vault=4, alternate=alternate)
    r = random.Random(bot_seed)
    tried = 0
    while g.phase is not Phase.OVER:
        legal = legal_actions(g, None) + [a for s in range(n) for a in legal_actions(g, s)]
        other, _ = new_game(seed, n, vault=4, alternate=alternate)
        probes = legal_actions(other, None) + legal_actions(other, other.turn)
        for probe in r.sample(probes, min(3, len(probes))):
            before = g.to_dict()
            try:
                apply(g, probe)
            except IllegalActionError:
                assert probe not in legal
                tried += 1
            assert g.to_dict() == before
        g, _ = apply(g, bot_action(g, r))
    assert tried


@settings(max_examples=60, deadline=None)
@given(
    seed=seeds,
    n=players,
    alternate=st.booleans(),
    bot_seed=st.integers(0, 10**6),
    rate=st.floats(0.1, 1.0),
    touch=st.floats(0, 0.6),
)
def test_every_skip_earned_skips_one_turn(seed, n, alternate, bot_seed, rate, touch):
    # Each seat: the skips it earned are the turns it lost plus the one still pending; a
    # seat that loses a turn plays its following one.
    g, _ = new_game(seed, n, vault=5, alternate=alternate)
    r = random.Random(bot_seed)
    thrower = Thrower(rate=rate, touch=touch)
    earned, lost = [0] * n, [0] * n
    while g.phase is not Phase.OVER:
        g, events = apply(g, bot_action(g, r, thrower=thrower))
        for e in events:
            if e.type == "skip_earned":
                earned[e.data["seat"]] += 1
            elif e.type == "skipped":
                lost[e.data["seat"]] += 1
        assert [e - s for e, s in zip(earned, lost, strict=True)] == [int(s) for s in g.skips]
