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
on its own seat view, as a phone decides (`bench/choose.py`, before t0); an asked player
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
        --warmup 5 --out bench/results/live-t10x10.json
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import json
import math
import os
import platform
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import orjson

if __package__ in (None, ""):  # run as a script: bench/choose.py beside it
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.choose import choose_turn, choose_window_play
from bench.disk import DiskProbe
from bench.disk import summary as disk_summary
from bench.stack import free_port, party_server
from tables.engine.views import TableCopies

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
HOST = "127.0.0.1"
now = time.perf_counter
CLK_TCK = os.sysconf("SC_CLK_TCK")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
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


def stats(xs):
    """boardgame.io bench.js's stats(): nearest-rank on the sorted samples, ms."""
    if not xs:
        return {"n": 0}
    s = sorted(xs)
    n = len(s)

    def q(p):
        return s[min(n - 1, math.floor(p * (n - 1) + 0.5))]

    r = lambda v: round(v, 2)  # noqa: E731
    return {"n": n, "p50": r(q(0.5)), "p90": r(q(0.9)), "p99": r(q(0.99)), "max": r(s[-1]), "mean": r(sum(s) / n)}


def ms(xs):
    return [x * 1000 for x in xs]


# ------------------------------------------------------------------------ processes


def proc_cpu_s(pid: int) -> tuple[float, float] | None:
    """(utime, stime) of a process (all its threads), seconds."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) / CLK_TCK, int(fields[12]) / CLK_TCK
    except (OSError, IndexError, ValueError):
        return None


def procs_cpu_s(names: set[str]) -> dict[int, float]:
    """CPU seconds per pid of every process with one of these names (other users' work
    included)."""
    out = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                raw = f.read()
        except OSError:
            continue
        name = raw[raw.find("(") + 1 : raw.rfind(")")]
        if name in names or any(name.startswith(n) for n in names):
            fields = raw.rsplit(")", 1)[1].split()
            out[int(d)] = (int(fields[11]) + int(fields[12])) / CLK_TCK
    return out


def procs_cpu_delta(a: dict[int, float], b: dict[int, float]) -> float:
    """CPU used between two samples by the processes alive at the second (a process that
    ended in between is not counted; one that started is counted whole)."""
    return sum(cpu - a.get(pid, 0.0) for pid, cpu in b.items())


def self_cpu_s() -> float:
    t = os.times()
    return t.user + t.system


PROFILE_WRAPPER = """
import cProfile, sys, time
out = sys.argv[1]
sys.argv = ["daphne", *sys.argv[2:]]
from daphne.cli import CommandLineInterface
prof = cProfile.Profile(time.thread_time)
try:
    prof.runcall(CommandLineInterface.entrypoint)
finally:
    prof.dump_stats(out)
"""


class Server:
    """One daphne process on 127.0.0.1, in its own process group, killed at the end."""

    def __init__(self, env: dict, port: int, logdir: Path, profile: str = ""):
        self.env, self.port, self.logdir, self.profile = env, port, logdir, profile
        self.proc: subprocess.Popen | None = None

    def start(self, timeout=30.0):
        self.err = open(self.logdir / "daphne.stderr", "w")
        cmd = [
            str(VENV_BIN / "daphne"),
            "-b",
            HOST,
            "-p",
            str(self.port),
            "-v",
            "0",
            "--websocket-max-frame-size",
            "4096",
            "--websocket-max-message-size",
            "262144",
            "config.asgi:application",
        ]
        if self.profile:  # CPU time of the event-loop thread only; the ORM runs in Channels' DB thread
            cmd = [str(VENV_BIN / "python"), "-c", PROFILE_WRAPPER, str(Path(self.profile).resolve()), *cmd[1:]]
        self.proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self.err,
            start_new_session=True,
        )
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited {self.proc.returncode}: {self.log_tail()}")
            try:
                with socket.create_connection((HOST, self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("daphne did not listen within 30 s")

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def cpu_s(self):
        return proc_cpu_s(self.pid) if self.proc else None

    def rss_mb(self):
        try:
            with open(f"/proc/{self.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return round(int(line.split()[1]) / 1024)
        except OSError:
            return None

    def log_tail(self, n=2000):
        try:
            return (self.logdir / "daphne.stderr").read_text()[-n:]
        except OSError:
            return ""

    def log_summary(self):
        text = (self.logdir / "daphne.stderr").read_text() if (self.logdir / "daphne.stderr").exists() else ""
        lines = text.splitlines()
        tracebacks = sum(1 for line in lines if line.startswith("Traceback"))
        samples = [line[:200] for line in lines if "Error" in line or "error" in line][:5]
        return {"lines": len(lines), "tracebacks": tracebacks, "samples": samples}

    def stop(self):
        if not self.proc or self.proc.poll() is not None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(5)
        except (subprocess.TimeoutExpired, ProcessLookupError):
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(5)


class Servers:
    """Several daphnes measured as one server: CPU and memory summed."""

    def __init__(self, servers: list[Server]):
        self.servers = servers
        self.proc = servers[0].proc

    def cpu_s(self):
        parts = [s.cpu_s() for s in self.servers]
        return tuple(sum(p[i] for p in parts if p) for i in range(2))

    def rss_mb(self):
        return sum(s.rss_mb() or 0 for s in self.servers)

    def log_summary(self):
        parts = [s.log_summary() for s in self.servers]
        return {
            "lines": sum(p["lines"] for p in parts),
            "tracebacks": sum(p["tracebacks"] for p in parts),
            "samples": [x for p in parts for x in p["samples"]][:5],
            "daphnes": len(parts),
        }

    def stop(self):
        for s in self.servers:
            s.stop()


# ------------------------------------------------------------------------ database


def prepare_database(args, env: dict, tmp: Path) -> dict:
    t = now()
    if args.embedded:
        env["HEIST_BENCH_EMBEDDED"] = "1"
        env["HEIST_BENCH_SQLITE"] = str(tmp / "bench.sqlite3")
    else:
        import psycopg

        env["HEIST_BENCH_DB"] = args.db
        with psycopg.connect(host=HOST, user="postgres", dbname="postgres", autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (args.db,)).fetchone()
            if exists and not args.reuse_db:
                conn.execute(f'DROP DATABASE "{args.db}" WITH (FORCE)')
                exists = None
            if not exists:
                conn.execute(f'CREATE DATABASE "{args.db}"')
    subprocess.run(
        [str(VENV_BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    return {"migrateS": round(now() - t, 2)}


def django_setup(env: dict):
    os.environ.update({k: v for k, v in env.items() if k.startswith(("HEIST_", "DJANGO_"))})
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


# Everything below imports Django models lazily (after django_setup).


def create_game(players: int, label: str) -> dict:
    """One party of `players` guests, seated (one table), through the services."""
    from events.models import Guest, Party
    from events.party import services
    from tables.models import Table

    created = services.party_create(name=f"Bench {label}").data
    party, host_token = Party.objects.get(pk=created["party"]), created["host_token"]
    tokens = {}
    for i in range(players):
        joined = services.guest_join(code=party.code, name=f"Guest {i + 1}", description=f"gift {label}/{i + 1}").data
        tokens[joined["guest"]] = joined["token"]
    services.party_seat(party_id=party.pk)  # before any socket connects: nothing to broadcast
    table = Table.objects.get(party=party)
    seats = {}
    for g in Guest.objects.filter(party=party):
        seats[g.seat] = {"guest": g.pk, "token": tokens[g.pk], "captain": g.is_captain}
    return {"code": party.code, "party_id": party.pk, "table_id": table.pk, "host_token": host_token, "seats": seats}


def decide_turn(view: dict, r: random.Random, want_window: bool) -> tuple[dict, bool]:
    """The current player's move from its own seat view, as a phone decides (and as
    boardgame.io's bench clients decide on the state they were sent): a move that opens a
    reaction window when one is wanted and the hand has one, else the rehearsal's bot
    choice. Returns (action, opens a window)."""
    if want_window:
        action = choose_window_play(view, r)
        if action is not None:
            return action, True
    return choose_turn(view, r), False


def replay_check(table_id: int, digests: list) -> collections.Counter:
    """Check every recorded message of one table against the table replayed from its log."""
    from events.party.services import _setup_gifts
    from tables.engine import apply, new_game, parse_action
    from tables.models import Table, TableAction

    out = collections.Counter()
    table = Table.objects.get(pk=table_id)
    game, _ = new_game(seed=table.seed, **_setup_gifts(table.setup))
    actions = {a.version: a.action for a in TableAction.objects.filter(table_id=table_id)}
    events = []
    for d in sorted(digests, key=lambda d: d[1]):
        v = d[1]
        while game.version < v:
            if game.version + 1 not in actions:
                out["no_such_version"] += 1
                break
            game, events = apply(game, parse_action(actions[game.version + 1]))
        if game.version != v:
            continue
        out["checked"] += 1
        if d[0] == "s":
            _, _, seat, you, hand, described, evs = d
            if you != seat:
                out["leak_wrong_seat"] += 1
            if list(hand) != list(game.hands[seat]):
                if any(list(hand) == list(h) and list(h) for s, h in enumerate(game.hands) if s != seat):
                    out["leak_other_hand"] += 1
                else:
                    out["hand_mismatch"] += 1
            if any(gift not in game.peeks[seat] for gift in described):
                out["leak_description"] += 1
            if evs is not None:
                want = json.loads(json.dumps([x for x in (e.view(seat) for e in events) if x is not None]))
                if evs != want:
                    out["events_mismatch"] += 1
                    if any(("cards" in x or "card" in x) for x in evs if x not in want):
                        out["leak_event_secret"] += 1
        else:
            _, _, has_hand, described, evs = d
            if has_hand:
                out["leak_public_hand"] += 1
            if described:
                out["leak_public_description"] += 1
            if evs is not None:
                want = json.loads(json.dumps([x for x in (e.view(None) for e in events) if x is not None]))
                if evs != want:
                    out["events_mismatch_public"] += 1
    return out


# ------------------------------------------------------------------------ clients


class Sock:
    """One screen: a seat's phone (seat = 0..P-1) or the party's host (seat = None)."""

    def __init__(self, game: GameRun, seat: int | None, token: str):
        self.game, self.seat, self.token = game, seat, token
        self.ws = None
        self.view: dict | None = None
        self.latest = -1  # newest version seen on this socket's own view
        self.trigger_v = -1  # version at which this socket last decided to act
        self.ok_v = -1  # version its last accepted action produced
        self.inflight = False
        self.snapshot = asyncio.Event()
        self.t_connect = 0.0
        self.reader: asyncio.Task | None = None
        self.copies = TableCopies()  # what patches apply to (as live.js)


class GameRun:
    """One party (= one table) and its sockets."""

    def __init__(self, info: dict):
        self.info = info
        self.table_id = info["table_id"]
        self.socks = [Sock(self, s, info["seats"][s]["token"]) for s in range(len(info["seats"]))]
        self.host = Sock(self, None, info["host_token"])
        self.over = False

    def all(self):
        return [*self.socks, self.host]


class Move:
    __slots__ = ("code", "counted", "kind", "mover", "ok", "t0", "t_ok", "tid", "version")

    def __init__(self, tid, mover, kind, t0, counted):
        self.tid, self.mover, self.kind, self.t0, self.counted = tid, mover, kind, t0, counted
        self.t_ok = None
        self.ok = None
        self.version = None
        self.code = None


class Window:
    def __init__(self, t0, mover, v_open, counted, tid, re):
        self.t0, self.mover, self.v_open, self.counted, self.tid, self.re = t0, mover, v_open, counted, tid, re
        self.move = self.affected = None  # from the mover's view of v_open
        self.timer = None


class Table:
    """The driver of one table slot: a closed loop over its games, one after another."""

    def __init__(self, bench: Bench, idx: int, mode: str):
        self.b, self.idx, self.mode = bench, idx, mode
        self.games: list[GameRun] = []
        self.cur = 0
        self.started = False
        self.finished = False
        self.move_no = 0  # phase 1: moves sent; phase 2: windows opened
        self.rng_turn = random.Random(bench.args.seed * 1000 + idx)  # turns
        self.rng = random.Random(bench.args.seed * 1000 + idx + 500)  # answers and trims
        self.window: Window | None = None
        self.windows_closed = 0
        self.creating = False

    @property
    def game(self) -> GameRun:
        return self.games[self.cur]

    def finish(self):
        if not self.finished:
            self.finished = True
            self.b.check_done()

    def kick(self):
        for s in self.game.all():
            self.on_view(s, now())

    def next_game(self):
        self.game.over = True
        self.b.games_over += 1
        if self.cur + 1 < len(self.games):
            self.cur += 1
            self.kick()
        elif not self.creating:
            self.creating = True
            self.b.on_demand_games += 1
            asyncio.get_running_loop().create_task(self._more())

    async def _more(self):
        g = await self.b.new_game(f"{self.mode}-{self.idx}-{len(self.games)}", self)
        self.games.append(g)
        self.creating = False
        self.cur += 1
        self.kick()

    def on_view(self, sock: Sock, t: float):
        """A socket's view changed (or its reply came back): does it have to act?"""
        if not self.started or sock.game is not self.game or sock.view is None:
            return
        view, v = sock.view, sock.latest
        w = self.window
        if w is not None and sock.seat == w.mover and v >= w.v_open:
            cur = view.get("window")
            if w.move is None:
                if v == w.v_open and cur is not None:
                    w.move, w.affected = cur["move"], cur["affected"]
                else:  # the mover never showed the window open: nothing to time
                    self.b.window_dropped(self, w, "window_not_seen_open")
            elif cur is None or cur.get("move") != w.move or cur.get("affected") != w.affected:
                self.b.window_closed(self, w, t)
        if self.finished or sock.inflight or v <= sock.trigger_v or v < sock.ok_v:
            return
        kind = None
        if sock.seat is None:
            if view["phase"] == "reveal":
                kind = "confirm"
            elif view["phase"] == "over" and not sock.game.over:
                self.next_game()
                return
        elif view["phase"] == "action" and view["active"] == sock.seat:
            kind = "turn"
        elif view.get("asked"):
            kind = "react"
        elif view.get("must_trim"):
            kind = "trim"
        if kind is None:
            return
        sock.trigger_v = v
        sock.inflight = True
        asyncio.get_running_loop().create_task(self.act(sock, kind, v))

    async def act(self, sock: Sock, kind: str, v: int):
        b = self.b
        try:
            if kind in ("turn", "confirm") and b.args.think:
                await asyncio.sleep(b.args.think / 1000)
            if self.finished or time.monotonic() > b.phase_deadline:
                sock.inflight = False
                self.finish()
                return
            frame = {"type": "act"}
            window = False
            if kind == "turn":
                want = self.mode == "windows"
                if want and self.move_no >= b.args.windows:
                    if self.window is None:
                        sock.inflight = False
                        self.finish()
                        return
                    want = False
                view = sock.view  # now: the think time may have brought newer versions
                if view["phase"] != "action" or view["active"] != sock.seat:
                    sock.inflight = False  # no longer this seat's turn
                    return
                t = now()
                wire, opens = decide_turn(view, self.rng_turn, want)
                b.decide.append(now() - t)
                v = frame["version"] = sock.latest
                frame["action"] = wire
                window = opens and self.window is None  # one timed window at a time
            elif kind == "react":
                hand = sock.view["hand"]
                blocks = [c["id"] for c in hand if c["kind"] == "REACTION"]
                card = self.rng.choice(blocks) if blocks and self.rng.random() < 0.3 else None
                frame["action"] = {"type": "react", "card": card}
            elif kind == "trim":
                ids = [c["id"] for c in sock.view["hand"]]
                frame["action"] = {"type": "trim", "cards": self.rng.sample(ids, sock.view["must_trim"])}
            else:
                frame["table"] = self.game.table_id
                frame["action"] = {"type": "confirm_reveal"}
            if self.mode == "turns":
                if self.move_no >= b.args.moves:
                    sock.inflight = False
                    self.finish()
                    return
                counted = self.move_no >= b.args.warmup
                self.move_no += 1
            else:
                counted = False
            b.seq += 1
            re = f"m{b.seq}"
            frame["re"] = re
            text = json.dumps(frame, separators=(",", ":"))
            t0 = now()
            rec = Move(self.game.table_id, sock.seat, kind, t0, counted)
            b.pending[re] = (rec, sock)
            b.moves.append(rec)
            if window:
                # Its move and affected seats are read off the mover's view of v_open.
                self.window = Window(t0, sock.seat, v + 1, self.move_no >= b.args.warmup, self.game.table_id, re)
                self.move_no += 1
                self.window.timer = asyncio.get_running_loop().call_later(10, b.window_stuck, self, self.window)
            elif kind == "react" and self.window is not None:
                b.react_sends += 1
            await sock.ws.send(text)
        except Exception as exc:  # a bench bug must not hang the loop: count it and stop this table
            b.bench_errors.append(f"{type(exc).__name__}: {exc}"[:300])
            sock.inflight = False
            self.finish()


class Bench:
    def __init__(self, args, port: int):
        self.args = args
        self.port = port
        self.ports = port if isinstance(port, list) else [port]
        self.uri_base = f"ws://{HOST}:{self.ports[0]}/ws/party/"
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="orm")
        self.deadline = time.monotonic() + args.time - 20
        self.phase_deadline = self.deadline
        self.reset()
        self.connect_ms: list[float] = []
        self.msg_bytes: list[int] = []

    def reset(self):
        self.tables: list[Table] = []
        self.pending: dict[str, tuple[Move, Sock]] = {}
        self.moves: list[Move] = []
        self.arrivals: dict[tuple[int, int], dict[int, float]] = {}
        self.host_arrivals: dict[tuple[int, int], float] = {}
        self.digests: dict[int, list] = collections.defaultdict(list)
        self.errors = collections.Counter()
        self.error_samples: list[str] = []
        self.bench_errors: list[str] = []
        self.decide: list[float] = []
        self.seq = getattr(self, "seq", 0)
        self.done = asyncio.Event()
        self.games_over = 0
        self.on_demand_games = 0
        self.messages = 0
        self.window_ms: list[float] = []
        self.window_visible_ms: list[float] = []
        self.window_affected: list[int] = []
        self.windows_stuck = 0
        self.react_sends = 0
        self.all_socks: list[Sock] = []

    def check_done(self):
        if all(t.finished for t in self.tables):
            self.done.set()

    # --- sockets -------------------------------------------------------------------

    async def new_game(self, label: str, driver: Table) -> GameRun:
        info = await asyncio.get_running_loop().run_in_executor(self.pool, create_game, self.args.players, label)
        g = GameRun(info)
        g.driver = driver
        for s in g.all():
            await self.connect(s)
        return g

    async def connect(self, sock: Sock):
        import websockets

        code = sock.game.info["code"]
        sock.t_connect = now()
        port = party_server(self.ports, code)  # sticky by party code
        sock.ws = await websockets.connect(
            f"ws://{HOST}:{port}/ws/party/{code}/",
            origin=f"http://{HOST}:{port}",
            compression=None,
            max_size=2**22,
            ping_interval=None,
            open_timeout=30,
        )
        self.all_socks.append(sock)
        sock.reader = asyncio.get_running_loop().create_task(self.read(sock))
        role = "host" if sock.seat is None else "guest"
        hello = {"type": "hello", "role": role, "token": sock.token}
        if not self.args.whole:
            hello["patches"] = True  # as static/heist/live.js
        await sock.ws.send(json.dumps(hello))
        await asyncio.wait_for(sock.snapshot.wait(), 30)

    async def read(self, sock: Sock):
        import websockets

        try:
            async for raw in sock.ws:
                t = now()
                # as static/heist/live.js: a seat's public view + its private part, or a
                # patch of the version before (orjson: the client's own decoding was a
                # seventh of its time with the stdlib's)
                msg = orjson.loads(raw)
                kind = msg.get("type")
                if kind == "table":
                    whole = sock.copies.take(msg)  # merged; a patch applied to the version before
                    if whole is None:  # a lost update: as live.js, resync
                        self.errors["patch_missed"] += 1
                        await sock.ws.send(json.dumps({"type": "resync", "re": uuid.uuid4().hex}))
                        continue
                    msg = whole
                elif kind == "snapshot":
                    sock.copies.snapshot(msg)
                self.on_message(sock, msg, t, len(raw))
        except websockets.ConnectionClosed:
            pass

    def on_message(self, sock: Sock, msg: dict, t: float, size: int):
        self.messages += 1
        kind = msg.get("type")
        table = sock.game.table_id
        if kind == "table":
            view, v = msg["view"], msg["version"]
            if msg["table"]["id"] != table:
                self.errors["wrong_table_message"] += 1
                return
            if "you" in view:
                arr = self.arrivals.get((table, v))
                if arr is None:
                    arr = self.arrivals[(table, v)] = {}
                if sock.seat not in arr:
                    arr[sock.seat] = t
                self.digest_seat(table, v, sock.seat, view, msg["events"])
                if len(self.msg_bytes) < 20000:
                    self.msg_bytes.append(size)
            else:
                self.digest_public(table, v, view, msg["events"])
                if sock.seat is not None:
                    if not sock.game.info["seats"][sock.seat]["captain"]:
                        self.errors["public_view_to_non_captain"] += 1
                    return  # a captain's copy of the public view
                self.host_arrivals.setdefault((table, v), t)
            if v > sock.latest:
                sock.latest, sock.view = v, view
                tab = self.table_of(sock)
                if tab is not None:
                    tab.on_view(sock, t)
        elif kind in ("ok", "error"):
            got = self.pending.pop(msg.get("re"), None)
            if kind == "error":
                code = msg.get("code")
                self.errors[code] += 1
                if len(self.error_samples) < 8:
                    self.error_samples.append(f"{code}: {msg.get('message')}"[:200])
                if code == "stale":
                    sock.trigger_v = -1  # a snapshot follows; decide again on it
            if got is None:
                return
            rec, _ = got
            tab = self.table_of(sock)
            if kind == "error" and tab is not None and tab.window is not None and tab.window.re == msg.get("re"):
                self.window_dropped(tab, tab.window, "window_play_refused")
            rec.t_ok, rec.ok, rec.version, rec.code = t, kind == "ok", msg.get("version"), msg.get("code")
            sock.inflight = False
            if kind == "ok" and rec.version:
                sock.ok_v = max(sock.ok_v, rec.version)
            if tab is not None:
                tab.on_view(sock, t)
        elif kind == "snapshot":
            payload = None
            if sock.seat is None:
                payload = next((p for p in msg.get("tables", []) if p["table"]["id"] == table), None)
                if payload:
                    self.digest_public(table, payload["version"], payload["view"], None)
            else:
                payload = msg.get("table")
                if payload:
                    self.digest_seat(table, payload["version"], sock.seat, payload["view"], None)
                if msg.get("public"):
                    self.digest_public(table, msg["public"]["version"], msg["public"]["view"], None)
            if payload and payload["version"] >= sock.latest:
                sock.latest, sock.view = payload["version"], payload["view"]
            if not sock.snapshot.is_set():
                self.connect_ms.append((t - sock.t_connect) * 1000)
                sock.snapshot.set()
            tab = self.table_of(sock)
            if tab is not None:
                tab.on_view(sock, t)

    def table_of(self, sock: Sock):
        return getattr(sock.game, "driver", None)

    def digest_seat(self, table, v, seat, view, events):
        described = tuple(
            e["gift"] for e in (*view["seats"], *view["vault"]) if not e["open"] and e["description"] is not None
        )
        hand = tuple(c["id"] for c in view.get("hand", ()))
        self.digests[table].append(("s", v, seat, view.get("you"), hand, described, events))

    def digest_public(self, table, v, view, events):
        described = tuple(
            e["gift"] for e in (*view["seats"], *view["vault"]) if not e["open"] and e["description"] is not None
        )
        self.digests[table].append(("p", v, "hand" in view or "you" in view, described, events))

    # --- windows -------------------------------------------------------------------

    def window_closed(self, tab: Table, w: Window, t: float):
        if tab.window is not w:
            return
        tab.window = None
        if w.timer:
            w.timer.cancel()
        tab.windows_closed += 1
        if w.counted:
            self.window_ms.append((t - w.t0) * 1000)
            self.window_affected.append(len(w.affected))
            arr = self.arrivals.get((w.tid, w.v_open), {})
            if all(s in arr for s in w.affected):
                self.window_visible_ms.append((max(arr[s] for s in w.affected) - w.t0) * 1000)

    def window_dropped(self, tab: Table, w: Window, why: str):
        """A window that never opened as sent (its play refused, or not shown): untimed."""
        if tab.window is w:
            tab.window = None
            if w.timer:
                w.timer.cancel()
            self.errors[why] += 1

    def window_stuck(self, tab: Table, w: Window):
        if tab.window is w:
            self.windows_stuck += 1
            tab.window = None
            tab.finish()

    # --- phases --------------------------------------------------------------------

    async def setup_phase(self, mode: str, games_per_table: int):
        self.reset()
        t = now()
        for i in range(self.args.tables):
            tab = Table(self, i, mode)
            self.tables.append(tab)
        # Create every party first (database only), then connect its sockets.
        infos = []
        for tab in self.tables:
            for k in range(games_per_table):
                infos.append(
                    (
                        tab,
                        await asyncio.get_running_loop().run_in_executor(
                            self.pool, create_game, self.args.players, f"{mode}-{tab.idx}-{k}"
                        ),
                    )
                )
        create_s = now() - t
        t = now()
        for tab, info in infos:
            g = GameRun(info)
            g.driver = tab
            tab.games.append(g)
        socks = [s for tab in self.tables for g in tab.games for s in g.all()]
        for i in range(0, len(socks), 20):
            await asyncio.gather(*(self.connect(s) for s in socks[i : i + 20]))
        return {"createS": round(create_s, 2), "connectS": round(now() - t, 2), "sockets": len(socks)}

    async def run_phase(self, mode: str, deadline: float):
        for tab in self.tables:
            for g in tab.games:
                g.driver = tab
        srv0, pg0, me0 = self.server.cpu_s(), procs_cpu_s(DB_PROCS), self_cpu_s()
        t_start = now()
        for tab in self.tables:
            tab.started = True
            tab.kick()
        self.phase_deadline = deadline
        timeout = max(1.0, deadline - time.monotonic())
        try:
            await asyncio.wait_for(self.done.wait(), timeout)
        except TimeoutError:
            pass
        # Let the replies and updates of moves already sent arrive.
        end = time.monotonic() + 3
        while self.pending and time.monotonic() < end:
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.2)
        wall = now() - t_start
        srv1, pg1, me1 = self.server.cpu_s(), procs_cpu_s(DB_PROCS), self_cpu_s()
        user, system = srv1[0] - srv0[0], srv1[1] - srv0[1]
        db_cpu = procs_cpu_delta(pg0, pg1)
        sent = max(1, sum(1 for m in self.moves if m.ok))
        cpu = {
            "phaseWallS": round(wall, 2),
            "serverProcess": {
                "cpuS": round(user + system, 2),
                "userS": round(user, 2),
                "systemS": round(system, 2),
                "cpuPctOfOneCore": round(100 * (user + system) / wall),
                "cpuMsPerAcceptedAction": round(1000 * (user + system) / sent, 2),
                "rssMBAfter": self.server.rss_mb(),
            },
            "benchProcess": {
                "cpuS": round(me1 - me0, 2),
                "cpuPctOfOneCore": round(100 * (me1 - me0) / wall),
                "cpuMsPerAcceptedAction": round(1000 * (me1 - me0) / sent, 2),
            },
            "acceptedActions": sent,
            "postgresAndRedisAllProcesses": {
                "cpuS": round(db_cpu, 2),
                "cpuPctOfOneCore": round(100 * db_cpu / wall),
                "note": "every postgres/redis-server process on the machine, other work included",
            },
        }
        return cpu

    async def close_all(self):
        socks, self.all_socks = self.all_socks, []
        for i in range(0, len(socks), 50):
            await asyncio.gather(*(s.ws.close() for s in socks[i : i + 50] if s.ws), return_exceptions=True)
        for s in socks:
            if s.reader:
                s.reader.cancel()

    async def leak_check(self):
        total = collections.Counter()
        loop = asyncio.get_running_loop()
        for tid, digests in self.digests.items():
            total.update(await loop.run_in_executor(self.pool, replay_check, tid, digests))
        leaks = sum(v for k, v in total.items() if k.startswith("leak"))
        return {"secretLeaks": leaks, "messagesChecked": total.pop("checked", 0), **dict(total)}

    def turn_figures(self, mode_moves: list[Move]):
        P = self.args.players
        per, slowest, mover_ok, mover_table, worst = [], [], [], [], []
        by_kind = collections.defaultdict(list)
        missing = 0
        counted = [m for m in mode_moves if m.counted and m.ok]
        t_first = min((m.t0 for m in counted), default=0)
        t_last = t_first
        for m in counted:
            arr = self.arrivals.get((m.tid, m.version), {})
            for s in range(P):
                if s in arr:
                    per.append(arr[s] - m.t0)
                else:
                    missing += 1
            if len(arr) == P:
                last = max(arr.values())
                slowest.append(last - m.t0)
                worst.append((round((last - m.t0) * 1000, 2), m.kind, m.tid, m.version))
                t_last = max(t_last, last)
            mover_ok.append(m.t_ok - m.t0)
            by_kind[m.kind].append(m.t_ok - m.t0)
            own = arr.get(m.mover) if m.mover is not None else self.host_arrivals.get((m.tid, m.version))
            if own is not None:
                mover_table.append(own - m.t0)
        elapsed = t_last - t_first
        kinds = collections.Counter(m.kind for m in counted)
        return {
            "tables": self.args.tables,
            "playersPerTable": P,
            "movesPerTable": self.args.moves,
            "warmupMovesPerTable": self.args.warmup,
            "tablesFinished": sum(1 for t in self.tables if t.finished and t.move_no >= self.args.moves),
            "countedMoves": len(counted),
            "countedByKind": dict(kinds),
            "movesSent": len(mode_moves),
            "movesRefused": sum(1 for m in mode_moves if m.ok is False),
            "movesUnanswered": sum(1 for m in mode_moves if m.ok is None),
            "gamesFinished": self.games_over,
            "gamesCreatedOnDemand": self.on_demand_games,
            "movesPerSecondAllTables": round(len(counted) / elapsed, 1) if elapsed > 0 else None,
            "moverRoundTripOkMs": stats(ms(mover_ok)),
            "moverRoundTripTableMs": stats(ms(mover_table)),
            "perRecipientMs": stats(ms(per)),
            "slowestRecipientPerMoveMs": stats(ms(slowest)),
            "slowestMoves": sorted(worst, reverse=True)[:8],  # (ms, kind, table, version): where the tail is
            "recipientUpdatesMissing": missing,
            "moverOkMsByKind": {k: stats(ms(v)) for k, v in by_kind.items()},
            "decideBeforeT0Ms": stats(ms(self.decide)),
            "seatMessageBytes": stats(self.msg_bytes),
            "errors": dict(self.errors),
            "errorSamples": self.error_samples,
            "benchErrors": self.bench_errors[:5],
        }

    def window_figures(self):
        return {
            "tables": self.args.tables,
            "windowsPerTable": self.args.windows,
            "countedWindows": len(self.window_ms),
            "stuckWindows": self.windows_stuck,
            "affectedPerWindow": stats(self.window_affected),
            "reactionSendsTotal": self.react_sends,
            "playToAllAffectedAskedMs": stats(self.window_visible_ms),
            "playToWindowClosedMs": stats(self.window_ms),
            "gamesFinished": self.games_over,
            "gamesCreatedOnDemand": self.on_demand_games,
            "errors": dict(self.errors),
            "errorSamples": self.error_samples,
            "benchErrors": self.bench_errors[:5],
        }


DB_PROCS = {"postgres", "redis-server"}


class GcPauses:
    """The client's own garbage-collector pauses: while one runs, no message is read or
    time-stamped, so each adds to every latency in flight. Measured here at 10x10: 171
    collections in a 3.7 s phase, 373 ms in all, the full ones 140-150 ms (they walk
    every message digest kept for the leak check). So the collector is off while a
    phase is timed (`quiet`), as timeit turns it off; these figures show it stayed so."""

    def __init__(self) -> None:
        self.ms: list[float] = []
        self._t = 0.0
        gc.callbacks.append(self._on)

    def _on(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._t = now()
        elif self._t:
            self.ms.append((now() - self._t) * 1000)

    def take(self) -> dict:
        out, self.ms = self.ms, []
        return {**stats(out), "totalMs": round(sum(out), 1)}

    @staticmethod
    def quiet() -> None:
        """Before a timed phase: what setup made is left out of every later collection,
        and nothing is collected until `loud`."""
        gc.collect()
        gc.freeze()
        gc.disable()

    @staticmethod
    def loud() -> None:
        gc.enable()


async def main_async(args, bench: Bench, result: dict):
    pauses = GcPauses()
    # ---- phase 1
    games = max(1, math.ceil((args.moves + 10) / 70))
    result["turnsSetup"] = await bench.setup_phase("turns", games)
    left = bench.deadline - time.monotonic()
    # With phase 2 to come, phase 1 may use at most 60% of the time left.
    pauses.quiet()
    pauses.take()
    # The disk's flushes while the phase runs (bench/disk.py): each act's ack waits for
    # its commit's, so a stall of the disk is in the tail whatever the server does.
    disk = DiskProbe(tempfile.gettempdir()).start()
    cpu = await bench.run_phase("turns", bench.deadline - (0.4 * left if args.windows > 0 else 0))
    flushes = disk_summary(disk.stop())
    gc_pauses = pauses.take()  # before the collector is back: its first run is after the phase
    pauses.loud()
    result["turns"] = {
        **bench.turn_figures(bench.moves),
        **cpu,
        "clientGcPausesMs": gc_pauses,
        "diskFsyncMs": flushes,
    }
    await bench.close_all()
    result["turns"]["leakCheck"] = await bench.leak_check()
    result["connectToSnapshotMs"] = stats(bench.connect_ms)
    # ---- phase 2
    if args.windows > 0 and time.monotonic() < bench.deadline - 30:
        await asyncio.sleep(0.3)
        games = 1  # a game has about 40 turns; more are created on demand
        result["windowsSetup"] = await bench.setup_phase("windows", games)
        pauses.quiet()
        pauses.take()
        disk = DiskProbe(tempfile.gettempdir()).start()
        cpu = await bench.run_phase("windows", bench.deadline)
        flushes = disk_summary(disk.stop())
        gc_pauses = pauses.take()
        pauses.loud()
        result["windows"] = {**bench.window_figures(), **cpu, "clientGcPausesMs": gc_pauses, "diskFsyncMs": flushes}
        await bench.close_all()
        result["windows"]["leakCheck"] = await bench.leak_check()
    elif args.windows > 0:
        result["windows"] = {"skipped": "not enough time left"}


def summary(result: dict) -> str:
    tu = result.get("turns", {})
    wi = result.get("windows", {})
    p = result["params"]

    def pp(s):
        return f"{s.get('p50', '-')} / {s.get('p99', '-')}" if s and s.get("n") else "- / -"

    stack = "embedded (SQLite + in-memory layer)" if p["embedded"] else "PostgreSQL + Redis pub/sub"
    lines = [
        f"Yankee Heist live bench: {p['tables']} tables x {p['players']} seats, think {p['think']} ms, {stack}",
        f"load average before/after: {result['loadavgBefore']} / {result.get('loadavgAfter')}",
        "",
        "| metric | value |",
        "| --- | --- |",
        f"| moves/s (all tables) | {tu.get('movesPerSecondAllTables')} ({tu.get('countedMoves')} counted: {tu.get('countedByKind')}) |",
        f"| per-recipient p50 / p99 ms | {pp(tu.get('perRecipientMs'))} |",
        f"| slowest recipient p50 / p99 ms | {pp(tu.get('slowestRecipientPerMoveMs'))} |",
        f"| mover RTT (ok) p50 / p99 ms | {pp(tu.get('moverRoundTripOkMs'))} |",
        f"| mover RTT (own table update) p50 / p99 ms | {pp(tu.get('moverRoundTripTableMs'))} |",
        f"| window closed p50 / p99 ms | {pp(wi.get('playToWindowClosedMs'))} ({wi.get('countedWindows', 0)} windows, affected p50 {wi.get('affectedPerWindow', {}).get('p50')}, stuck {wi.get('stuckWindows')}) |",
        f"| server CPU (1 core = 100%) | {tu.get('serverProcess', {}).get('cpuPctOfOneCore')}% turns, {wi.get('serverProcess', {}).get('cpuPctOfOneCore')}% windows |",
        f"| server CPU per accepted action | {tu.get('serverProcess', {}).get('cpuMsPerAcceptedAction')} ms turns |",
        f"| bench client CPU | {tu.get('benchProcess', {}).get('cpuPctOfOneCore')}% turns |",
        f"| postgres+redis CPU (all processes) | {tu.get('postgresAndRedisAllProcesses', {}).get('cpuPctOfOneCore')}% turns |",
        f"| leaks (messages checked) | {tu.get('leakCheck', {}).get('secretLeaks')} ({tu.get('leakCheck', {}).get('messagesChecked')}) turns, "
        f"{wi.get('leakCheck', {}).get('secretLeaks')} ({wi.get('leakCheck', {}).get('messagesChecked')}) windows |",
        f"| errors | turns {tu.get('errors')} windows {wi.get('errors')} |",
    ]
    return "\n".join(lines)


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


if __name__ == "__main__":
    main()
