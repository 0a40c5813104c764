"""The simulator's host side: what it asks of a game (hook.py `GameSimulator`, found by
the game's name), what every game's simulator shares (common/: the pacing arithmetic,
seeded chunks on every core, the report's files) and the lobby's estimate
(estimates.py). Pure Python, no Django. Each game's bots, statistics and pacing model
are its own, in `games/<name>/party/simulate/`; `python manage.py simulate --game NAME`
is a thin command over the game's hook.
"""
