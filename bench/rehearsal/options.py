"""The rehearsal's command line: bench/party.py's options."""

from __future__ import annotations

import argparse

from bench.rehearsal.game import rehearsed_games, tables_for
from games.registry import DEFAULT_GAME, game_named

DESCRIPTION = (
    "The full-size rehearsal: whole parties played by bot guests over real WebSockets and "
    "the real HTTP endpoints, exactly as the screens do, with faults on request."
)
FAULTS = ("none", "kill-daphne", "restart-redis", "drop-phones", "restart-postgres", "sleep-laptop", "ctrl-c")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=DESCRIPTION)
    games = rehearsed_games()
    p.add_argument("--guests", type=int, required=True, help="guests per party (the game's fewest players to 100)")
    p.add_argument(
        "--game",
        choices=games,
        default=DEFAULT_GAME,
        help="the game the parties play: "
        + ", ".join(f"{name} ({game_named(name).title})" for name in games)
        + " (a registered game with rehearsal bots, games/<name>/party/rehearsal.py)",
    )
    p.add_argument("--parties", type=int, default=1)
    p.add_argument("--pace", choices=("human", "fast"), default="human")
    p.add_argument("--think-scale", type=float, default=1.0, help="multiplies every human-pace delay")
    p.add_argument("--embedded", action="store_true", help="bin/serve's stack: one daphne, SQLite, in-memory layer")
    p.add_argument("--fault", choices=FAULTS, default="none")
    p.add_argument(
        "--sleep", type=float, default=120, help="--fault sleep-laptop: seconds the daphne stays stopped (SIGSTOP)"
    )
    p.add_argument(
        "--postgres",
        choices=("shared", "private"),
        default="shared",
        help="shared: a fresh database on 127.0.0.1:5432; private: a throwaway cluster of its own "
        "(a run that exhausts connections then exhausts only its own max_connections)",
    )
    p.add_argument(
        "--route",
        choices=("party", "spread"),
        default="party",
        help="where screens' sockets go: party, the daphne the party's code hashes to (deploy/nginx.conf's "
        "/ws/party/ upstream); spread, the daphne their page came from (least_conn)",
    )
    p.add_argument(
        "--quiet",
        type=int,
        default=0,
        help="guests per party who go quiet once seated (never answer again); the party's step clock carries on",
    )
    p.add_argument(
        "--quiet-clock",
        type=int,
        default=60,
        help="the step clock in s (60: the host's shortest; less is written to the table rows, for the bench only)",
    )
    p.add_argument("--whole", action="store_true", help="screens take every update whole (live.js asks for patches)")
    p.add_argument("--time", type=float, default=0, help="bound on the play in s (0: 1500 human, 300 fast)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep-logs", default="", help="copy the daphne and PostgreSQL logs to this directory")
    p.add_argument(
        "--act-timing",
        action="store_true",
        help="the daphnes time each act's phases (events/live/acttiming.py): server_acks_by_30s",
    )
    a = p.parse_args(argv)
    fewest = game_named(a.game).min_players
    if not fewest <= a.guests <= 100:
        p.error(f"--guests: a party of --game {a.game} has {fewest} to 100 guests")
    if a.parties < 1:
        p.error("--parties: at least 1")
    if not 0 <= a.quiet <= a.guests - 2 * tables_for(a.game, a.guests):
        p.error("--quiet: fewer than the guests (each table keeps its captain and one more who answers)")
    if a.embedded and a.fault == "restart-redis":
        p.error("--fault restart-redis: the embedded stack has no Redis")
    if a.fault == "restart-postgres":
        if a.embedded:
            p.error("--fault restart-postgres: the embedded stack has no PostgreSQL")
        a.postgres = "private"  # the shared server on 5432 is never restarted
    if not a.time:
        a.time = 1500 if a.pace == "human" else 300
    return a
