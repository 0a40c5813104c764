"""The games the party hosts, each a pure package behind `games.definition.GameDefinition`.

games/definition.py is the seam; games/rng.py, games/event.py, games/errors.py,
games/parsing.py (an action's wire form) and games/dispatch.py (one action applied) are
what every game shares; each game's rules live in its own package.
"""
