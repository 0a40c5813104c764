"""What Blinks Heist brings to the party beyond its rules.

The parts of the game that live at the party rather than in its pure rules (docs/GAMES.md):
the host finds each as `<package>.party.<part>` through `games.registry.part_of`. They may
use Django and I/O; the pure rules beside this folder never import them.
"""
