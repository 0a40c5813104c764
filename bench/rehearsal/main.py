"""bench/party.py's run: the stack up, the parties played, the report, everything stopped."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import uuid
from pathlib import Path

from bench.rehearsal.clock import log, now
from bench.rehearsal.figures import server_acks_by_window
from bench.rehearsal.options import parse_args
from bench.rehearsal.rehearsal import START_TIMEOUT_S, Rehearsal
from bench.rehearsal.report import report
from bench.stack import HOST, DaphneServer, PostgresServer, RedisServer, free_port, no_proxy_env

ROOT = Path(__file__).resolve().parents[2]
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"


def django_setup(env: dict) -> None:
    os.environ.update({k: v for k, v in env.items() if k.startswith(("HEIST_", "DJANGO_"))})
    import django

    django.setup()


def main(argv=None) -> int:
    args = parse_args(argv)
    t_begin = now()
    run_id = uuid.uuid4().hex[:10]
    tmp = Path(tempfile.mkdtemp(prefix="heist-party-"))
    result: dict = {
        "game": args.game,
        "guests": args.guests * args.parties,
        "parties": args.parties,
        "stack": "embedded"
        if args.embedded
        else f"postgres ({args.postgres})+redis, 2 daphnes, sockets by {args.route}",
        "pace": args.pace,
        "think_scale": args.think_scale,
        "fault": args.fault,
        "seed": args.seed,
    }
    env = no_proxy_env()
    if args.act_timing:
        env["HEIST_ACT_TIMING"] = "1"
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.bench",
        HEIST_BENCH_RUN_ID=f"party-{run_id}",
        PYTHONUNBUFFERED="1",
        PYTHONPATH=str(ROOT),
    )
    redis = None
    db_name = None
    pg = None
    pg_port = 5432
    servers: list[DaphneServer] = []

    def cleanup():
        for s in servers:
            s.stop()
        if redis is not None:
            redis.stop()
        if db_name is not None and pg is None:
            from django.db import connections

            connections.close_all()
            for _attempt in range(3):
                try:
                    import psycopg

                    with psycopg.connect(
                        host=HOST, port=pg_port, user="postgres", dbname="postgres", autocommit=True
                    ) as conn:
                        conn.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
                    break
                except Exception as exc:
                    log(f"could not drop {db_name}: {exc!r}")
                    time.sleep(2)
        if pg is not None:
            pg.stop()
            if args.keep_logs:  # checkpoints, autovacuum and slow statements (stack.py)
                Path(args.keep_logs).mkdir(parents=True, exist_ok=True)
                shutil.copy(pg.root / "postgres.log", Path(args.keep_logs) / "postgres.log")
            shutil.rmtree(pg.root, ignore_errors=True)
        if args.keep_logs:
            Path(args.keep_logs).mkdir(parents=True, exist_ok=True)
            for s in servers:
                shutil.copy(s.log_path, Path(args.keep_logs) / s.log_path.name)
        shutil.rmtree(tmp, ignore_errors=True)

    def hard_stop():  # the asyncio bound failed to stop it (or a signal): leave nothing behind
        log("stopping before the end")
        cleanup()
        print(json.dumps({**result, "aborted": "hard time limit or signal"}), flush=True)
        os._exit(2)

    def on_signal(signum, frame):  # SIGTERM / SIGINT: stop the servers, drop the database
        hard_stop()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    watchdog = threading.Timer(args.time + 180, hard_stop)
    watchdog.daemon = True
    watchdog.start()
    phases: dict[str, float] = {}
    try:
        t = now()
        if args.embedded:
            env.update(HEIST_BENCH_EMBEDDED="1", HEIST_BENCH_SQLITE=str(tmp / "party.sqlite3"))
        else:
            import psycopg

            redis = RedisServer().start()
            env["HEIST_TEST_REDIS_URL"] = redis.url
            if args.postgres == "private":
                # its own directory: the server runs as the postgres user, which cannot enter tmp (0700)
                pg = PostgresServer(Path(tempfile.mkdtemp(prefix="heist-party-pg-"))).start()
                pg_port = pg.port
                env["HEIST_BENCH_PG_PORT"] = str(pg_port)
            db_name = f"heist_party_{run_id}"
            with psycopg.connect(host=HOST, port=pg_port, user="postgres", dbname="postgres", autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{db_name}"')
            env["HEIST_BENCH_DB"] = db_name
        subprocess.run(
            [str(VENV_PYTHON), "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
        )
        django_setup(env)
        for i in range(1 if args.embedded else 2):
            port = free_port()
            servers.append(DaphneServer(env=env, port=port, log_path=tmp / f"daphne-{i + 1}-{port}.log"))
        for s in servers:
            s.start(timeout=START_TIMEOUT_S)
        phases["stack_up"] = now() - t
        log(f"stack up in {phases['stack_up']:.1f}s: {result['stack']}, ports {[s.port for s in servers]}")
        bench = Rehearsal(args, servers, redis, db_name, pg_port)
        bench.pg_root = pg.root if pg is not None else None
        bench.pg = pg
        asyncio.run(bench.run())
        result.update(report(bench))
        result["phases_s"] = {**{k: round(v, 1) for k, v in phases.items()}, **result["phases_s"]}
        result["server_tracebacks"] = sum(s.log_text().count("Traceback") for s in servers)
        if args.act_timing and bench.stats.ack_detail:
            result["server_acks_by_30s"] = server_acks_by_window(
                [s.log_text() for s in servers], min(a[0] for a in bench.stats.ack_detail), 30.0
            )
        result["server_log_samples"] = sorted(
            {line[:160] for s in servers for line in s.log_text().splitlines() if "Error" in line or "error" in line}
        )[:8]
    except Exception as exc:
        result["aborted"] = repr(exc)
        log(f"aborted: {exc!r}")
    finally:
        watchdog.cancel()
        cleanup()
    result["wall_s"] = round(now() - t_begin, 1)
    print(json.dumps(result), flush=True)
    ok = (
        "aborted" not in result
        and result.get("tables_finished") == result.get("tables")
        and result.get("lost") == 0
        and result.get("applied_twice") == 0
        and result.get("phones_stale") == 0
        and result.get("errors_5xx") == 0
        and result.get("stalls") == 0
    )
    return 0 if ok else 1
