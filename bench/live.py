#!/usr/bin/env python
"""Loopback latency benchmark of the live party host (daphne + Channels), measured the
way /work/shared/peers/boardgameio/bench.js measures boardgame.io, so the figures compare.

It starts one real `daphne` (the production-like stack: PostgreSQL in its own database
and the Redis pub/sub channel layer with a prefix of its own; `--embedded`: SQLite and
the in-memory layer), creates T parties of P guests through the services in this process
(one party = one table, so tables are independent like boardgame.io's matches), seats
them, and connects one `websockets` client per seat plus one host socket per table.

Phase 1 "turns": a closed loop per table. Whoever the table waits for acts as soon as its
socket's view says so: the current player (after `--think` ms) plays a bot's move chosen
on its own seat view, as a phone decides (`games/yankee/party/choose.py`, before t0); an asked player
answers a reaction window at once, a player over the hand limit trims at once, the host
confirms the round-1 reveal. Every accepted action is a move. For each move: mover round
trip (t0 -> its `ok`, and t0 -> its own `table` message of the new version), per recipient
(t0 -> each of the P seat sockets' `table` message of that version) and the slowest
recipient. A table whose game ends carries on with its next (already connected) party.

Phase 2 "windows": new parties. The current player plays a card that opens a reaction
window whenever its view offers one (a MOVE card or a SWIPE); every
asked player answers the instant its view says `asked` (a block with a reaction card 30%
of the time, else a pass). Timed: play -> the mover's view shows that window closed.

Every message a seat receives is checked afterwards against the table replayed from its
action log: the hand must be that seat's hand at that version, unopened gifts described
only if that seat peeked, events exactly what that seat may see; public views (host,
captains) carry no hand and no unopened description.

Bounded: `--moves` / `--windows` per table, `--time` hard wall-clock limit (default 240 s);
127.0.0.1 only; the server is killed at the end. JSON goes to stdout (and `--out`), the
one-screen summary to stderr.

    .venv/bin/python bench/live.py --tables 10 --players 10 --moves 100 --windows 20 \
        --warmup 5 --out /tmp/live-t10x10.json
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the bench package beside it
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# The parts live in bench/livebench/; these names are what party.py, floor.py and the tests read.
from bench.livebench.main import main
from bench.livebench.measures import GcPauses, proc_cpu_s, stats
from bench.livebench.servers import VENV_BIN

__all__ = ["VENV_BIN", "GcPauses", "main", "proc_cpu_s", "stats"]

if __name__ == "__main__":
    main()
