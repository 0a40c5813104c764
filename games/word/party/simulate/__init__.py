"""Word Heist's simulator: complete games with policy bots on the real engine (words
drawn from the dictionary, clue counts and halts by policy), the figures by table size
and the party clock by the largest table. Pure Python, no Django; I/O only in
runner.py (processes, the clock, the dictionary's files) and report.py.

The host finds it by the game's name (tables/simulate/hook.py): `SIMULATOR`.
"""

from tables.simulate.hook import GameSimulator

from .hook import WordSimulator

SIMULATOR: GameSimulator = WordSimulator()
