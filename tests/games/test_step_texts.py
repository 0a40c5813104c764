"""Word and Blinks Heist name each step their clock runs (games/definition.py NamesSteps):
the host's stand-in buttons, countdowns and alerts read in the game's words ("No Halt!
guess for Ann", "Pass the throw for Ann"), not the host's plain "Play for Ann"."""

from __future__ import annotations

import pytest

from events.web.screens import game_for_page
from games.definition import NamesSteps
from games.registry import game_named


@pytest.mark.parametrize("name", ["word", "blinks"])
def test_every_clocked_step_has_the_games_words(name: str) -> None:
    definition = game_named(name)
    assert isinstance(definition, NamesSteps)
    texts = definition.step_texts()
    assert set(texts) == set(definition.clock_steps())
    for step, words in texts.items():
        assert "%(name)s" in words["stand_in"], step
        assert words["before"].endswith(" "), step  # the countdown's seconds follow it
        for field in ("%(letter)s", "%(seconds)s", "%(names)s"):
            assert field in words["waited"], (step, field)


@pytest.mark.parametrize(
    ("name", "step", "text"),
    [("word", "halt", "No Halt! guess for %(name)s"), ("blinks", "throw", "Pass the throw for %(name)s")],
)
def test_the_pages_carry_the_steps_words(name: str, step: str, text: str) -> None:
    assert game_for_page(name)["steps"][step]["stand_in"] == text
