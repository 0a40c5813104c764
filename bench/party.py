#!/usr/bin/env python
"""The full-size rehearsal: whole parties played by bot guests over real WebSockets and
the real HTTP endpoints, exactly as the screens do, with faults on request.

    .venv/bin/python bench/party.py --guests N [--game NAME] [--parties K] [--pace human|fast] [--embedded]
                                    [--fault none|kill-daphne|restart-redis|drop-phones|
                                             restart-postgres|sleep-laptop|ctrl-c]
                                    [--quiet N [--quiet-clock S]]

`--guests` is the number of guests of each party (K parties run at once). `--game`: the
game every party plays (default: the registry's first), any registered game with
rehearsal bots (`games/<name>/party/rehearsal.py`, bench/rehearsal/game.py
`RehearsalGame`: its party's form, its guests' and host's bots, where its tables are).

The stack. Default: PostgreSQL (a fresh database, dropped at the end), the Redis pub/sub
channel layer on a private redis-server started for the run (the shared one on 6379 is
never touched), and two daphne processes with the phones split across them (the host
on the first). `--embedded`: what `bin/serve` runs, one daphne on SQLite (a fresh file
in a temporary directory, never var/) with the in-memory channel layer. Settings:
config.settings.bench. 127.0.0.1 only; every phone connects from its own loopback
address (127.0.0.2, 127.0.0.3, ...), as phones on a venue's Wi-Fi have their own.

A party, as it happens in a room: the host loads the home page and creates the party
(POST /api/parties, with the game's form), opens the dashboard and the QR code and
connects; then the join burst: every guest, within a few seconds, loads the join page,
joins (POST .../guests), loads the phone page and connects (hello); the host does what
the game asks before seating (e.g. a gift swap's vault gifts) and seats everyone (the
game's largest table: ceil(N / table_max) tables); then the game's bots play: each
guest's phone decides from the view it holds, its captains do their duties, the host's
dashboard runs the gate (and whatever the game has there: a relay, its opening) until
every table is over; the host downloads result.csv. The game's own figures join the
JSON (e.g. `gates_opened`), and `phases_s` names the game's phases.

Each screen is a bot with a real socket that does what static/heist/live.js does:
hello with its secret, `re` ids, a table message whose version is not last + 1 means
a missed broadcast, so `resync`; reconnect with jittered backoff (300 ms doubling to
5 s) and resend unanswered actions with the same `re`; ping every 15 s, and a socket
silent for 40 s is dropped. It decides only from the view it holds, as the game's
phone does, never from the database.

Pace. `human` (default): turn think times from a log-normal distribution (median 4 s,
1.5-15 s), reactions in 1-5 s with 10 % late taps (5-12 s), trims in 1-4 s, host and
captain duties in 2-8 s, a relay carrier's walk across the room 8-25 s, and 10 % of phones fall asleep once for 5-20 s (half lose
their socket and reconnect on waking, half freeze and then read what queued up);
`--think-scale` multiplies every human delay. `fast`: a closed loop, no delays.

Quiet guests (`--quiet N`): N guests of each party (never a captain) stop answering
once seated, for good: no turn, no reaction, no discard. The party is created with the
host's 60-second step clock, played by the server (docs/RULES.md, "When a guest does
not answer"); `--quiet-clock S` shortens it for the bench (written to the table rows,
as --think-scale shortens the think times). Every table must still finish;
`clock_passes` counts the steps the server played, by kind, and any request id used
twice (none: each fires once, whichever daphne's sweep claimed it).

Faults, once per party mid-game, at the game's moment for it (every table held there
until it struck; the game's `holds_for_fault`, e.g. a reaction window of the second
round): `kill-daphne` kill -9 a daphne (the second; with --embedded the
only one) and restart it on the same port 2 s later; `restart-redis` kill -9 the
private redis-server and restart it on the same port 2 s later (not with --embedded:
it has no Redis); `drop-phones` 30 % of the phones abort their socket right after
sending an action (the reply is lost) and reconnect and resend it. The faults of a real
night (issue 29): `restart-postgres` a fast shutdown of PostgreSQL and a start on the same
port 2 s later (every session ended; the pools must reconnect; always on a private cluster, the
shared one is never restarted; not with --embedded); `sleep-laptop` the daphne holding
the party's sockets (with --embedded, what bin/serve runs) stopped with SIGSTOP for
`--sleep` seconds (default 120, the host's laptop lid closed) and continued with SIGCONT;
`ctrl-c` that daphne stopped with SIGINT (Ctrl-C in bin/serve's terminal: a graceful
shutdown) and started again on the same port. Each fault's entry in `faults` has
`converge_s`: from the server's return until every screen of the party is connected and
shows the database's version of every table it reads. Time spent in a fault is not a
stall for the watchdog.

A watchdog reads the tables' versions from the database: a table that has not moved
for 60 s (human) or 30 s (fast) is a stall; the phones at that table whose view is
behind the database then reload (a person reloading a frozen page), counted in
`stalls` and `reloads`, so a run ends and reports instead of hanging.

The exit status is 0 when every table finished with 0 lost, 0 stale, 0 5xx and no
stall. It stops by itself: `--time` (default 1500 s human, 300 s fast) bounds the play, then
the checks run. The last line of stdout is one JSON object:
  guests, parties, tables, tables_finished, actions (acknowledged, not duplicates),
  quiet_guests, clock_passes,
  lost (acknowledged actions whose `re` and version are not in the action log),
  applied_twice (an `re` in the action log more than once), applied_unacked (an `re` in
  the log that no screen saw acknowledged),
  phones_stale (screens whose final view or version differ from a fresh snapshot
  from events.party.selectors.snapshot_for), errors_5xx (HTTP answers and WebSocket
  handshakes >= 500), refused_by_code, phases_s (seconds per phase), latency_ms (acks:
  send to `ok`, but an ack a phone read only after it slept is apart, in ack_over_sleep:
  that wait is the pocket's; broadcasts: send to each other screen's table message of
  that version), slowest_acks (the 40 slowest, with their wall-clock time, to set beside the
  daphnes' and PostgreSQL's logs: --keep-logs), load_by_30s (the harness's loop lag, the
  CPU, and the disk's WAL-like flushes, probed all along by bench/disk.py, per window of
  ack_by_30s), disk_fsync_ms, pg_connections_max, server_tracebacks, and more.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
if __name__ == "__main__" and Path(sys.prefix) != ROOT / ".venv" and VENV_PYTHON.exists():
    # `python bench/party.py` with the system Python: run again in the project's venv.
    os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), *sys.argv])
sys.path.insert(0, str(ROOT))

# The parts live in bench/rehearsal/; these names are what tests/party/test_rehearsal.py reads.
from bench.rehearsal.checks import check_lost, check_stale, check_twice  # noqa: E402
from bench.rehearsal.figures import load_by_window, server_acks_by_window  # noqa: E402
from bench.rehearsal.main import main  # noqa: E402
from bench.rehearsal.phone import Phone  # noqa: E402
from bench.rehearsal.stats import Stats  # noqa: E402

__all__ = [
    "Phone",
    "Stats",
    "check_lost",
    "check_stale",
    "check_twice",
    "load_by_window",
    "main",
    "server_acks_by_window",
]

if __name__ == "__main__":
    sys.exit(main())
