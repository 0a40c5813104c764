"""A party's gate: the game stops after heist 2 of 5 (before heist 3) until the host's
OpenGate; without the gate it never stops."""

import pytest

from games.definition import Setup
from games.royal import ROYAL, OpenGate, Phase, TimeoutDecide, WrongPhaseError, apply, gate_after, new_game
from tests.games.royal.builders import decide, everyone, of


def _end_heist(g):
    return decide(g, everyone(g, False))


def test_the_gate_stops_the_game_before_heist_3_and_open_gate_resumes():
    g, _ = new_game(5, 4, gate=True)
    g, _ = _end_heist(g)
    assert g.phase is Phase.DECIDE and g.heist == 2
    g, events = _end_heist(g)
    assert g.phase is Phase.GATE and g.heist == 2 and of(events, "at_gate")
    assert ROYAL.at_gate(g) and ROYAL.waiting_for(g) == () and ROYAL.clock(g, {}) is None
    assert ROYAL.legal_actions(g, None) == [OpenGate()]
    with pytest.raises(WrongPhaseError):
        apply(g, TimeoutDecide(0))
    opened = ROYAL.gate_opened(g)
    assert opened == OpenGate()
    g, events = apply(g, opened)
    assert g.phase is Phase.DECIDE and g.heist == 3 and len(g.rooms) == 1
    assert [e.type for e in events][:2] == ["gate_opened", "heist_started"]
    assert ROYAL.gate_opened(g) is None
    for _ in range(3):
        g, _ = _end_heist(g)
    assert g.phase is Phase.OVER  # the gate stops a game once


def test_without_the_gate_the_game_runs_through():
    g, _ = new_game(5, 4)
    for _ in range(4):
        g, _ = _end_heist(g)
        assert g.phase is Phase.DECIDE
    assert not ROYAL.at_gate(g)


def test_the_gate_is_half_way_rounded_down():
    assert gate_after(5) == 2 and gate_after(4) == 2 and gate_after(2) == 1 and gate_after(13) == 6
    g, _ = ROYAL.setup(Setup(players=3, seed=0, gate=True, options={"heists": 2}))
    g, _ = _end_heist(g)
    assert ROYAL.at_gate(g)
