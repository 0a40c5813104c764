"""bench/live.py's command line and run: the stack up, both phases, the JSON, the summary."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import signal
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from bench.livebench.database import django_setup, prepare_database
from bench.livebench.report import summary
from bench.livebench.run import Bench, main_async
from bench.livebench.servers import HOST, ROOT, Server, Servers
from bench.stack import free_port

DESCRIPTION = (
    "Loopback latency benchmark of the live party host (daphne + Channels), measured the "
    "way boardgame.io's bench.js measures boardgame.io, so the figures compare."
)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=DESCRIPTION)
    p.add_argument("--tables", type=int, default=10)
    p.add_argument("--players", type=int, default=10, help="seats per table (3-10 here)")
    p.add_argument("--moves", type=int, default=100, help="moves per table in phase 1 (all action types)")
    p.add_argument("--windows", type=int, default=20, help="reaction windows per table in phase 2 (0: skip)")
    p.add_argument("--warmup", type=int, default=5, help="first N moves / windows per table not counted")
    p.add_argument("--think", type=float, default=0, help="ms the current player waits before a turn action")
    p.add_argument("--embedded", action="store_true", help="SQLite + in-memory channel layer instead")
    p.add_argument(
        "--conn-max-age", type=int, default=0, help="server's CONN_MAX_AGE (0: the connection pool, as production)"
    )
    p.add_argument("--db", default="heist_bench", help="PostgreSQL database (dropped and re-created)")
    p.add_argument("--reuse-db", action="store_true", help="keep the database, only migrate it")
    p.add_argument("--port", type=int, default=0, help="0: a free port")
    p.add_argument("--time", type=float, default=240, help="hard wall-clock limit in s")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--whole", action="store_true", help="every update whole (no `patches` in the hellos; live.js asks for them)"
    )
    p.add_argument("--out", default="")
    p.add_argument("--profile-server", default="", help="run daphne under cProfile, stats to this file")
    p.add_argument(
        "--daphnes",
        type=int,
        default=1,
        help="daphne processes; each party's sockets go to one of them by its code, as a proxy hashing the code would",
    )
    a = p.parse_args(argv)
    if not 3 <= a.players <= 10:
        p.error("--players: a table seats 3 to 10 here")
    return a


def main(argv=None):
    args = parse_args(argv)
    t_begin = time.monotonic()
    run_id = uuid.uuid4().hex[:10]
    tmp = Path(tempfile.mkdtemp(prefix="heist-bench-"))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.bench",
        "HEIST_BENCH_RUN_ID": run_id,
        "HEIST_BENCH_CONN_MAX_AGE": str(args.conn_max_age),
        "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
        "PYTHONUNBUFFERED": "1",
    }
    server_holder: dict = {}

    def hard_stop():
        print(f"hard time limit {args.time}s reached; stopping", file=sys.stderr)
        for srv in server_holder.get("servers", []):
            if srv.proc and srv.proc.poll() is None:
                try:
                    os.killpg(srv.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        os._exit(2)

    watchdog = threading.Timer(args.time, hard_stop)
    watchdog.daemon = True
    watchdog.start()
    result = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "python": platform.python_version(),
        "host": HOST,
        "cpus": os.cpu_count(),
        "loadavgBefore": [round(x, 2) for x in os.getloadavg()],
        "params": {
            "tables": args.tables,
            "players": args.players,
            "moves": args.moves,
            "windows": args.windows,
            "warmup": args.warmup,
            "think": args.think,
            "embedded": args.embedded,
            "connMaxAge": None if args.embedded else args.conn_max_age,
            "seed": args.seed,
            "daphnes": args.daphnes,
        },
    }
    server = None
    try:
        result["db"] = prepare_database(args, env, tmp)
        django_setup(env)
        import channels
        import django
        import websockets

        result["versions"] = {
            "django": django.__version__,
            "channels": channels.__version__,
            "websockets": websockets.__version__,
        }
        ports = [args.port or free_port()] + [free_port() for _ in range(args.daphnes - 1)]
        servers = []
        for i, port in enumerate(ports):
            logdir = tmp if i == 0 else tmp / f"daphne{i}"
            logdir.mkdir(exist_ok=True)
            servers.append(Server(env, port, logdir, args.profile_server if i == 0 else ""))
        server_holder["servers"] = servers
        for srv in servers:
            srv.start()
        server = servers[0] if len(servers) == 1 else Servers(servers)
        server_holder["server"] = server
        bench = Bench(args, ports[0] if len(ports) == 1 else ports)
        bench.server = server
        bench.deadline = t_begin + args.time - 20
        asyncio.run(main_async(args, bench, result))
        result["serverLog"] = server.log_summary()
    finally:
        for srv in server_holder.get("servers", []):
            srv.stop()
        watchdog.cancel()
        result["loadavgAfter"] = [round(x, 2) for x in os.getloadavg()]
        result["wallS"] = round(time.monotonic() - t_begin, 1)
        shutil.rmtree(tmp, ignore_errors=True)
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n")
    print(summary(result), file=sys.stderr)
