"""A registered game with rules and no simulator hook (no party/simulate/): Royal Heist's
rules under another name, registered by tests/simulate/test_hook.py only."""

from games.royal.definition import RoyalDefinition


class NoSimulatorDefinition(RoyalDefinition):
    name = "nosim"
    title = "Heist Without a Simulator"


DEFINITION = NoSimulatorDefinition()
