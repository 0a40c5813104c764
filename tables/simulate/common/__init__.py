"""What both simulators (Yankee Heist's tables/simulate/, Royal Heist's
tables/simulate/royal/) share: neither may import the other (pyproject.toml's
contracts), so the parts they have in common live here, knowing neither game.

pacing.py is pure (the play side may import it); runs.py (processes, clocks) and
output.py (files) are for the runners and the reports only.
"""
