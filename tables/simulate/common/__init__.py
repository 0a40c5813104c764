"""What every game's simulator (games/<name>/party/simulate/) shares: no game's may
import another's (pyproject.toml's contracts), so the parts they have in common live
here, knowing no game.

pacing.py is pure (the play side may import it); runs.py (processes, clocks) and
output.py (files) are for the runners and the reports only.
"""
