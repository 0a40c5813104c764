#!/usr/bin/env python
"""The floor of the chosen server: daphne alone, the same shape as bench/live.py.

    .venv/bin/python bench/floor.py --tables 10 --players 10 --daphnes 1 \
        --out bench/results/floor.json

N `daphne` processes serve bench/floor_app.py: no Django, no Channels, no database and no
channel layer. A table is P seat sockets and a host socket (as live.py's), all on one
daphne (tables spread over the processes like live.py's parties). Closed loop, as
boardgame.io's bench and live.py's phase 1: the seat whose turn the last `table` message
gives sends its move at once; the server answers it `ok` and sends every socket of the
table a `table` message of `--bytes` bytes (the party host's are 2.3 kB). Every frame the
real host sends for an action is here; none of the work that decides it.

It prints moves/s (all tables), per-recipient and slowest-recipient latency (ms, nearest
rank as bench.js), and daphne's CPU per move (all its threads, /proc). Whatever the party
host does per action costs more than this: its moves/s cannot pass these, and its CPU per
action cannot go below them, on the same machine and client.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# live.py's definitions, so that the two benches' figures mean the same
from bench.live import VENV_BIN, proc_cpu_s, stats  # noqa: E402
from bench.stack import HOST, free_port  # noqa: E402

now = time.perf_counter


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=10)
    p.add_argument("--players", type=int, default=10)
    p.add_argument("--moves", type=int, default=300, help="moves per table")
    p.add_argument("--warmup", type=int, default=20, help="first moves per table not counted")
    p.add_argument("--daphnes", type=int, default=1)
    p.add_argument("--bytes", type=int, default=2300, help="size of each table message")
    p.add_argument("--no-host", action="store_true", help="P sockets a table, as boardgame.io's bench")
    p.add_argument("--time", type=float, default=120, help="hard limit, s")
    p.add_argument("--out", default="")
    return p.parse_args(argv)


def cpu_s(pid: int) -> float:
    """user + system CPU of a process, all its threads, s."""
    return sum(proc_cpu_s(pid))


def start_daphne(port: int, env: dict, log) -> subprocess.Popen:
    proc = subprocess.Popen(
        [str(VENV_BIN / "daphne"), "-b", HOST, "-p", str(port), "-v", "0", "bench.floor_app:application"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=log,
        start_new_session=True,
    )
    end = time.monotonic() + 20
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited {proc.returncode}")
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("daphne did not listen")


class Table:
    def __init__(self, index: int, players: int, args, done: asyncio.Event, all_done):
        self.index, self.players, self.args = index, players, args
        self.t0: dict[int, float] = {}
        self.arrivals: dict[int, list[float]] = {}
        self.version = 0
        self.finished = False
        self.done, self.all_done = done, all_done
        self.counted_t0: list[float] = []
        self.last_arrival = 0.0

    def move(self, ws, seat: int, version: int) -> asyncio.Future:
        self.t0[version + 1] = now()
        return asyncio.ensure_future(ws.send(json.dumps({"type": "act", "re": str(version + 1), "seat": seat})))


async def run(args, ports: list[int]) -> dict:
    import websockets

    done = asyncio.Event()
    tables: list[Table] = []
    per_recipient: list[float] = []
    slowest: list[float] = []

    def all_done():
        if all(t.finished for t in tables):
            done.set()

    async def reader(table: Table, ws, seat: int | None):
        async for raw in ws:
            t = now()
            msg = json.loads(raw)
            if msg["type"] != "table":
                continue
            v = msg["version"]
            table.version = max(table.version, v)
            if seat is not None:
                got = table.arrivals.setdefault(v, [])
                got.append(t)
                if v > args.warmup and v in table.t0:
                    per_recipient.append((t - table.t0[v]) * 1000)
                    if len(got) == table.players:
                        slowest.append((t - table.t0[v]) * 1000)
                        table.last_arrival = t
                        table.arrivals.pop(v, None)
                if v >= args.moves:
                    if len(got) == table.players and not table.finished:
                        table.finished = True
                        all_done()
                    continue
                if seat == v % table.players:  # this seat's turn: move at once
                    if v + 1 > args.warmup:
                        table.counted_t0.append(now())
                    table.move(ws, seat, v)

    sockets = []
    for i in range(args.tables):
        table = Table(i, args.players, args, done, all_done)
        tables.append(table)
        port = ports[i % len(ports)]
        seats = list(range(args.players)) + ([] if args.no_host else [None])
        for seat in seats:
            ws = await websockets.connect(
                f"ws://{HOST}:{port}/ws/{i}/", compression=None, ping_interval=None, max_size=2**22
            )
            sockets.append(ws)
            asyncio.ensure_future(reader(table, ws, seat))
    await asyncio.sleep(0.5)
    cpu0 = {p: cpu_s(p) for p in args.pids}
    t_start = now()
    for table in tables:
        first = next(ws for ws in sockets if ws.request.path == f"/ws/{table.index}/")
        table.move(first, 0, 0)
    try:
        await asyncio.wait_for(done.wait(), args.time)
    except TimeoutError:
        print("hard time limit reached", file=sys.stderr)
    t_end = now()
    cpu = sum(cpu_s(p) - cpu0[p] for p in args.pids)
    for ws in sockets:
        await ws.close()
    counted = len(slowest)
    first = min(min(t.counted_t0) for t in tables if t.counted_t0)
    last = max(t.last_arrival for t in tables)
    all_moves = sum(t.version for t in tables)  # every move made, the warm-up's too
    return {
        "moves_counted": counted,
        "moves_per_s": round(counted / (last - first), 1),
        "per_recipient_ms": stats(per_recipient),
        "slowest_ms": stats(slowest),
        "daphne_cpu_s": round(cpu, 2),
        "daphne_cpu_ms_per_move": round(cpu * 1000 / all_moves, 3),
        "wall_s": round(t_end - t_start, 2),
    }


def main(argv=None):
    args = parse_args(argv)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FLOOR_BYTES": str(args.bytes)}
    tmp = Path(tempfile.mkdtemp(prefix="floor-"))
    procs = []
    load_before = os.getloadavg()
    try:
        ports = []
        for i in range(args.daphnes):
            port = free_port()
            procs.append(start_daphne(port, env, open(tmp / f"daphne-{i}.log", "w")))
            ports.append(port)
        args.pids = [p.pid for p in procs]
        result = asyncio.run(run(args, ports))
    finally:
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGTERM)
                p.wait(5)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(p.pid, signal.SIGKILL)
    out = {
        "shape": f"t{args.tables}x{args.players}" + ("" if args.no_host else "+host"),
        "daphnes": args.daphnes,
        "bytes": args.bytes,
        "moves_per_table": args.moves,
        "warmup": args.warmup,
        "loadavg_before": [round(x, 2) for x in load_before],
        "python": platform.python_version(),
        **result,
    }
    text = json.dumps(out, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")
    print(
        f"floor {out['shape']} x{args.daphnes} daphne(s), {args.bytes} B: {out['moves_per_s']} moves/s, "
        f"slowest p50/p99 {out['slowest_ms'].get('p50')}/{out['slowest_ms'].get('p99')} ms, "
        f"daphne CPU {out['daphne_cpu_ms_per_move']} ms/move",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
