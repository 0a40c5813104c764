"""bench/party.py reaches a game only through its rehearsal bots (bench/rehearsal/game.py,
the game's `REHEARSAL`): every registered game with them can be rehearsed, a game
without them is refused, and each game says where the run's fault strikes."""

from __future__ import annotations

import pytest

from bench.rehearsal.game import rehearsal_of, rehearsed_games, tables_for
from bench.rehearsal.options import parse_args
from games import registry


@pytest.fixture
def nosim():
    """A registered game whose package has neither a simulator nor rehearsal bots."""
    registry.install("tests.simulate.nosim")
    yield "nosim"
    registry.GAMES.pop("nosim")
    registry._PACKAGE_OF.pop("nosim")


def test_every_game_with_bots_can_be_rehearsed_and_one_without_is_refused(nosim, capsys):
    assert rehearsed_games() == ["yankee", "royal", "word", "blinks"]
    assert rehearsal_of(nosim) is None
    for game in ("yankee", "royal", "blinks"):
        assert parse_args(["--game", game, "--guests", "12"]).game == game
    with pytest.raises(SystemExit):
        parse_args(["--game", nosim, "--guests", "12"])
    assert "invalid choice: 'nosim'" in capsys.readouterr().err
    # the tables the host's seating makes: each game's largest table (its definition)
    assert tables_for(nosim, 17) == tables_for("royal", 17) == 3 and tables_for("yankee", 17) == 2


def test_each_game_creates_its_party_and_says_where_the_fault_strikes():
    yankee, royal = rehearsal_of("yankee"), rehearsal_of("royal")
    assert yankee is not None and royal is not None
    assert yankee.party_fields(0)["vault_size"] == 1 and "budget" in yankee.party_fields(0)
    assert royal.party_fields(2) == {"name": "Rehearsal 3", "game": "royal"}
    assert yankee.join_fields(0, 4) == {"description": "wrapped gift 1.5"} and royal.join_fields(0, 4) == {}
    # Yankee Heist: from round 2's reaction window on; Royal Heist: from heist 2, or its gate
    assert not yankee.holds_for_fault({"round": 2, "phase": "action"})
    assert yankee.holds_for_fault({"round": 2, "phase": "reaction"}) and yankee.holds_for_fault(
        {"round": 3, "phase": "action"}
    )
    assert not royal.holds_for_fault({"heist": 1, "phase": "decide"})
    assert royal.holds_for_fault({"heist": 2, "phase": "decide"}) and royal.holds_for_fault(
        {"heist": 1, "phase": "gate"}
    )
    assert (yankee.stage({"round": 3}), royal.stage({"heist": 4})) == (3, 4)
    assert (
        yankee.where({"round": 2, "phase": "trim"}) == "r2/trim"
        and royal.where({"heist": 5, "phase": "over"}) == "h5/over"
    )
    # Blinks Heist: a small vault chosen in the host's form; the fault once a table has a claim
    blinks = rehearsal_of("blinks")
    assert blinks is not None
    assert blinks.party_fields(0) == {"name": "Rehearsal 1", "game": "blinks", "options": {"vault": 3}}
    vault = [{"blink": b, "claimed_by": None} for b in (1, 2, 3)]
    assert not blinks.holds_for_fault({"vault": vault, "left": 3, "phase": "throw"})
    assert blinks.holds_for_fault({"vault": vault, "left": 2, "phase": "confirm"})
    assert not blinks.holds_for_fault({"vault": vault, "left": 0, "phase": "over"})
    assert blinks.stage({"vault": vault, "left": 1}) == 2
    # the spans of the run's phases_s, in order
    assert list(yankee.phases)[:2] == ["vault", "seated"] and list(royal.phases)[-1] == "over"
