"""The games the party hosts, each a pure package behind `games.definition.GameDefinition`.

games/definition.py is the seam; games/rng.py, games/event.py and games/errors.py are
what every game shares; each game's rules live in its own package.
"""
