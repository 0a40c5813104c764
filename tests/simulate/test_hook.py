"""The simulator reaches a game only through its hook (tables/simulate/hook.py): every
registered game with one runs through `manage.py simulate --game`, its lobby estimate and
`fit_pacing`; a game without one is refused with a clear message."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from games import registry
from tables.simulate.estimates import lobby_estimate
from tables.simulate.hook import FitsPacing, simulated_games, simulator_of


@pytest.fixture
def nosim():
    """A registered game whose package has no simulator hook."""
    registry.install("tests.simulate.nosim")
    yield "nosim"
    registry.GAMES.pop("nosim")
    registry._PACKAGE_OF.pop("nosim")


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("simulate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_every_registered_game_has_its_simulator_and_runs():
    assert simulated_games() == ["yankee", "royal", "word"]
    for game, players in (("yankee", "3"), ("royal", "3"), ("word", "3")):
        out, err = run(
            "--game", game, "--games", "4", "--players", players, "--parties", "0", "--workers", "1", "--json"
        )
        report = json.loads(out.strip().splitlines()[-1])
        assert report["players"] == [3] and report["games_per_size"] == 4
        assert f"simulate {game}: 4/4 (100 %)" in err


def test_a_game_without_a_simulator_is_refused_with_a_clear_message(nosim):
    assert simulator_of(nosim) is None and nosim not in simulated_games()
    with pytest.raises(CommandError, match=r"the game 'nosim' has no simulator .*games with one: yankee, royal, word"):
        run("--game", nosim, "--games", "4")
    with pytest.raises(CommandError, match="no game named 'nobody'"):
        run("--game", "nobody")
    # the lobby shows no estimate rather than another game's
    assert lobby_estimate(game=nosim, games=1, guests=20) is None
    assert lobby_estimate(game="yankee", games=1, guests=20) is not None


def test_another_games_option_is_refused_not_ignored():
    with pytest.raises(CommandError, match="--turn is an option of yankee's simulator, not royal's"):
        run("--game", "royal", "--turn", "30", "--games", "4")
    with pytest.raises(CommandError, match="--field is an option of royal's simulator, not yankee's"):
        run("--field", "T5", "--games", "4")
    # an option both games declare is either's: --setup prices both parties' setting up
    for game in ("yankee", "royal"):
        out, _ = run("--game", game, "--games", "4", "--players", "3", "--guests", "", "--setup", "60", "--json")
        assert json.loads(out.strip().splitlines()[-1])["pacing"]["model"]["setup"] == 60


@pytest.mark.django_db
def test_fit_pacing_refuses_a_game_whose_simulator_fits_no_model(nosim):
    assert isinstance(simulator_of("yankee"), FitsPacing)
    assert not isinstance(simulator_of("royal"), FitsPacing)
    for game in ("royal", nosim):
        with pytest.raises(CommandError, match=f"the game '{game}' has no simulator that fits a pacing model"):
            call_command("fit_pacing", "--game", game, stdout=io.StringIO())
    with pytest.raises(CommandError, match="no game named 'nobody'"):
        call_command("fit_pacing", "--game", "nobody", stdout=io.StringIO())
