"""Royal Heist's simulator: complete games with strategy bots on the real engine
(games.royal), strategies head to head, seat advantage, game length and the party
clock. Pure Python, no Django; I/O only in runner.py (processes, clock) and report.py.
It imports nothing of Yankee Heist's simulator, and Yankee Heist's imports nothing of
it (pyproject.toml's contracts):

    from tables.simulate.royal.runner import simulate_royal
    report = simulate_royal(seed=1, games=2000)     # every core; JSON-ready dict

`python manage.py simulate --game royal` is a thin command over `simulate_royal`.
"""
