#!/usr/bin/env python
"""The full-size rehearsal: whole parties played by bot guests over real WebSockets and
the real HTTP endpoints, exactly as the screens do, with faults on request.

    .venv/bin/python bench/party.py --guests N [--parties K] [--pace human|fast] [--embedded]
                                    [--fault none|kill-daphne|restart-redis|drop-phones|
                                             restart-postgres|sleep-laptop|ctrl-c]
                                    [--quiet N [--quiet-clock S]]

`--guests` is the number of guests of each party (K parties run at once).

The stack. Default: PostgreSQL (a fresh database, dropped at the end), the Redis pub/sub
channel layer on a private redis-server started for the run (the shared one on 6379 is
never touched), and two daphne processes with the phones split across them (the host
on the first). `--embedded`: what `bin/serve` runs, one daphne on SQLite (a fresh file
in a temporary directory, never var/) with the in-memory channel layer. Settings:
config.settings.bench. 127.0.0.1 only; every phone connects from its own loopback
address (127.0.0.2, 127.0.0.3, ...), as phones on a venue's Wi-Fi have their own.

A party, as it happens in a room: the host loads the home page and creates the party
(POST /api/parties, a vault of 1 gift per table), opens the dashboard and the QR code
and connects; then the join burst: every guest, within a few seconds, loads the join
page, joins (POST .../guests), loads the phone page and connects (hello); the host adds
the vault gifts and seats everyone; each table plays round 1, its captain confirms the
reveal, round 2; at the gate (several tables) the host opens the relay, captains draw
seats, the host runs it; each drawn guest walks their gift to the next table and taps
"I delivered it" (a table plays round 3 once its gift is in and its own carrier has
delivered); rounds 3 and 4; the host downloads result.csv.

Each screen is a bot with a real socket that does what static/heist/live.js does:
hello with its secret, `re` ids, a table message whose version is not last + 1 means
a missed broadcast, so `resync`; reconnect with jittered backoff (300 ms doubling to
5 s) and resend unanswered actions with the same `re`; ping every 15 s, and a socket
silent for 40 s is dropped. It decides only from the view it holds (the seat view's
`hand`, `playable`, `can_swipe`, `can_use_vault`, `asked`, `must_trim`, like
play.js), never from the database.

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

Faults, once per party in round 2 (when a reaction window is open, or at the latest
by the round's end): `kill-daphne` kill -9 a daphne (the second; with --embedded the
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

import argparse
import asyncio
import collections
import gc
import json
import math
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
if __name__ == "__main__" and Path(sys.prefix) != ROOT / ".venv" and VENV_PYTHON.exists():
    # `python bench/party.py` with the system Python: run again in the project's venv.
    os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), *sys.argv])
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402
import websockets  # noqa: E402
from websockets.asyncio.client import connect as ws_connect  # noqa: E402

from bench.choose import arrival_awaited, carrier_walk, choose_turn  # noqa: E402
from bench.disk import DiskProbe  # noqa: E402
from bench.disk import summary as disk_summary  # noqa: E402
from bench.live import GcPauses, proc_cpu_s  # noqa: E402
from bench.stack import (  # noqa: E402
    HOST,
    DaphneServer,
    PostgresServer,
    RedisServer,
    free_port,
    no_proxy_env,
    party_server,
)
from tables.engine.views import TableCopies  # noqa: E402

FAULTS = ("none", "kill-daphne", "restart-redis", "drop-phones", "restart-postgres", "sleep-laptop", "ctrl-c")
# As static/heist/live.js: a ping every 2 s, a socket silent for 4 s is dead, and a
# pong showing a newer table version resyncs if still behind 0.7 s later.
PING_S = 2
FREEZE_EVERY_S = 10  # the harness's collector: see _sample_load
DEAD_AFTER_S = 4
PONG_GRACE_S = 0.7
BACKOFF_BASE_S = 0.3
BACKOFF_CAP_S = 5.0
# A daphne's start, first or after a fault: on a 2-core machine shared with other jobs
# (load 15) importing Django and the apps took over the old 30 s.
START_TIMEOUT_S = 120
now = time.monotonic


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--guests", type=int, required=True, help="guests per party (2-100)")
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
    if not 2 <= a.guests <= 100:
        p.error("--guests: a party has 2 to 100 guests")
    if a.parties < 1:
        p.error("--parties: at least 1")
    if not 0 <= a.quiet <= a.guests - 2 * max(1, math.ceil(a.guests / 10)):
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


def percentiles(xs: list[float]) -> dict:
    if not xs:
        return {"n": 0}
    s = sorted(xs)
    n = len(s)

    def q(p):
        return round(s[min(n - 1, math.floor(p * (n - 1) + 0.5))] * 1000, 1)

    return {"n": n, "p50": q(0.5), "p90": q(0.9), "p99": q(0.99), "max": round(s[-1] * 1000, 1)}


def ack_by_window(at: list[float], latencies: list[float], window: float) -> list[dict]:
    """The ack percentiles per `window` seconds of play: whether the tail is spread over
    the whole party or comes at moments (the reveals, the relay)."""
    if not at:
        return []
    buckets = by_window(zip(at, latencies, strict=True), min(at), window)
    return [{"from_s": int(k * window), **percentiles(v)} for k, v in sorted(buckets.items())]


def server_acks_by_window(logs: list[str], start: float, window: float) -> list[dict]:
    """The daphnes' own timing of each act (events/live/acttiming.py), in windows from `start`
    (a unix time: the harness's first ack, which opens ack_by_30s's first window): the
    server's part of the acks' tail, the database write's part of it, the share of acts
    that took the threads' path, and the worst loop lag and collector pause."""
    acts: list[tuple[float, tuple[float, float, bool]]] = []
    loops: list[tuple[float, tuple[float, float]]] = []
    for text in logs:
        for line in text.splitlines():
            if not line.startswith("acttiming "):
                continue
            parts = line.split()
            fields = dict(p.split("=", 1) for p in parts[4 if parts[1] == "act" else 3 :])
            at = float(parts[2])
            if parts[1] == "act":
                ms = float(fields["total"]) / 1000, float(fields["write"]) / 1000  # percentiles() takes s
                acts.append((at, (*ms, parts[3] == "threads")))
            else:
                full = float(fields.get("gc_full_max", 0.0))
                loops.append((at, (float(fields["lag_max"]), float(fields["gc_max"]), full)))
    by_act, by_loop = by_window(acts, start, window), by_window(loops, start, window)
    rows = []
    for k in sorted(by_act):
        total = percentiles([t for t, _, _ in by_act[k]])
        write = percentiles([w for _, w, _ in by_act[k]])
        rows.append(
            {
                "from_s": int(k * window),
                "n": total["n"],
                "p50": total["p50"],
                "p99": total["p99"],
                "max": total["max"],
                "write_p99": write["p99"],
                "threads_share": round(sum(1 for _, _, th in by_act[k] if th) / len(by_act[k]), 2),
                "loop_lag_max": max((lag for lag, _, _ in by_loop.get(k, [])), default=None),
                "gc_pause_max": max((g for _, g, _ in by_loop.get(k, [])), default=None),
                # a full collection walks every tracked object: its pause grows with the sockets
                "gc_full_max": max((f for _, _, f in by_loop.get(k, [])), default=None),
            }
        )
    return rows


def by_window(samples, start: float, window: float) -> dict[int, list]:
    """(when, value) samples from `start` on, grouped by the `window` they fall in."""
    buckets: dict[int, list] = collections.defaultdict(list)
    for t, value in samples:
        if t >= start:
            buckets[int((t - start) // window)].append(value)
    return buckets


def load_by_window(
    ack_at: list[float],
    lag: list[tuple[float, float]],
    cpu: list[tuple[float, float, float]],
    window: float,
    fsyncs: list[tuple[float, float]] = (),
) -> list[dict]:
    """The harness's loop lag, the CPU in use and the disk's flushes (bench/disk.py), in
    the windows of `ack_by_window` (same start, the same windows): a window whose ack
    p99 is high while the harness loop was late is the harness's tail, and one where
    the disk stalled is the disk's (every ack waits for its commit's WAL flush)."""
    if not ack_at:
        return []
    start = min(ack_at)
    lags = by_window(lag, start, window)
    cpus = by_window(((t, (mine, daphne)) for t, mine, daphne in cpu), start, window)
    disk = by_window(((t, (t, ms)) for t, ms in fsyncs), start, window)  # summary() wants (when, ms)
    rows = []
    for k in sorted(by_window(((t, None) for t in ack_at), start, window)):
        late = percentiles(lags.get(k, []))
        c = cpus.get(k, [])
        flushes = disk_summary(disk[k]) if k in disk else {}
        rows.append(
            {
                "from_s": int(k * window),
                "harness_lag_p50": late.get("p50"),
                "harness_lag_p99": late.get("p99"),
                "harness_lag_max": late.get("max"),
                "harness_cores": round(sum(m for m, _ in c) / len(c), 2) if c else None,
                "daphne_cores": round(sum(d for _, d in c) / len(c), 2) if c else None,
                "fsync_p99": flushes.get("p99"),
                "fsync_max": flushes.get("max"),
                "fsync_stalled_share": flushes.get("stalled_share"),
            }
        )
    return rows


def log(*parts) -> None:
    print(time.strftime("%H:%M:%S"), *parts, file=sys.stderr, flush=True)


# ------------------------------------------------------------------------ pacing


class Pace:
    """Every delay a person adds. Fast pace: none."""

    def __init__(self, kind: str, scale: float, rand: random.Random):
        self.human = kind == "human"
        self.scale = scale
        self.r = rand

    def _s(self, x: float) -> float:
        return x * self.scale if self.human else 0.0

    def join_window(self) -> float:  # the QR moment: everyone within a few seconds
        return 5.0 if self.human else 1.0

    def think(self) -> float:
        return self._s(min(15.0, max(1.5, self.r.lognormvariate(math.log(4.0), 0.5))))

    def react(self) -> float:
        if self.r.random() < 0.1:
            return self._s(self.r.uniform(5, 12))  # a late tap
        return self._s(self.r.uniform(1, 5))

    def trim(self) -> float:
        return self._s(self.r.uniform(1, 4))

    def duty(self) -> float:
        return self._s(self.r.uniform(2, 8))

    def walk(self) -> float:  # a relay carrier crosses the room to the next table
        return self._s(self.r.uniform(8, 25))

    def retry(self) -> float:
        return self._s(self.r.uniform(1, 3)) or 0.05


# ------------------------------------------------------------------------ HTTP


class Http:
    """Plain HTTP/1.1 over asyncio streams (one connection per request, like a phone
    opening a page), counting statuses."""

    def __init__(self, stats: Stats):
        self.stats = stats

    async def request(self, port: int, method: str, path: str, body=None, headers=None, source: str = HOST):
        """One request; a 503 "busy" (config/admission.py: it never reached the app) is
        waited out and sent again, as the join page and the browser's Refresh do."""
        for _ in range(10):
            status, parsed, retry_after = await self._request_once(port, method, path, body, headers, source)
            if status != 503 or retry_after is None:
                break
            self.stats.busy += 1
            await asyncio.sleep(retry_after)
        return status, parsed

    async def _request_once(self, port, method, path, body, headers, source):
        data = json.dumps(body).encode() if body is not None else b""
        head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close", "Accept: */*"]
        if body is not None:
            head += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        for k, v in (headers or {}).items():
            head.append(f"{k}: {v}")
        t0 = now()
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port, local_addr=(source, 0)), 10)
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
            await writer.drain()
            raw = await asyncio.wait_for(reader.read(), 30)
            writer.close()
        except (TimeoutError, OSError) as exc:
            self.stats.http_failures[type(exc).__name__] += 1
            return None, None, None
        self.stats.http_s.append(now() - t0)
        head_raw, _, payload = raw.partition(b"\r\n\r\n")
        try:
            status = int(head_raw.split(b" ", 2)[1])
        except (IndexError, ValueError):
            self.stats.http_failures["bad_response"] += 1
            return None, None, None
        self.stats.http_status[status] += 1
        retry_after = _retry_after(head_raw) if status == 503 else None
        if status >= 500 and retry_after is None:
            self.stats.errors_5xx += 1
            self.stats.errors_5xx_by[f"http {method} {path.split('/')[1] or '/'}"] += 1
        if b"transfer-encoding: chunked" in head_raw.lower():
            payload = _unchunk(payload)
        try:
            parsed = json.loads(payload) if payload[:1] in (b"{", b"[") else payload
        except ValueError:
            parsed = payload
        if status >= 400 and isinstance(parsed, dict) and "error" in parsed and retry_after is None:
            self.stats.refused[f"http.{parsed['error']}"] += 1
        return status, parsed, retry_after


def _retry_after(head_raw: bytes) -> float | None:
    for line in head_raw.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"retry-after":
            try:
                return float(value.strip())
            except ValueError:
                return None
    return None


def _unchunk(data: bytes) -> bytes:
    out = b""
    while data:
        size_raw, _, rest = data.partition(b"\r\n")
        size = int(size_raw.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out += rest[:size]
        data = rest[size + 2 :]
    return out


# ------------------------------------------------------------------------ stats


class Stats:
    def __init__(self):
        self.errors_5xx = 0
        self.busy = 0  # 503 "busy" answers waited out (config/admission.py)
        self.errors_5xx_by = collections.Counter()
        self.http_status = collections.Counter()
        self.http_failures = collections.Counter()
        self.http_s: list[float] = []
        self.refused = collections.Counter()
        self.refused_samples: list[dict] = []
        self.ack_s: list[float] = []
        self.ack_at: list[float] = []  # when each ack came (now()), for the tail over time
        self.ack_detail: list[tuple] = []  # (at, latency s, action type, party, screen): the slowest are listed
        # Acks a phone read only after it slept (pocketed while its act was in flight): the
        # wait is the phone's own, not the server's, so they are kept out of `ack_s`.
        self.acks_over_sleep: list[float] = []
        self.resyncs_by = collections.Counter()
        self.sent_at: dict[tuple[int, int], float] = {}  # (table, version) -> first send of that action
        self.arrivals: list[tuple[int, int, float]] = []  # (table, version, t) per screen message
        self.close_codes = collections.Counter()
        self.handshake_failures = collections.Counter()
        self.connects = 0
        self.gaps = 0
        self.patch_misses = 0  # patches of a version the screen did not hold (each resyncs)
        self.resyncs = 0
        self.duplicates = 0
        self.drops = 0
        self.sleeps = 0
        self.reloads = 0
        self.stalls: list[dict] = []
        self.actions_by_type = collections.Counter()
        self.faults: list[dict] = []


# ------------------------------------------------------------------------ a screen


class Offline(Exception):
    """The socket dropped before a party command's reply (live.js does not resend those)."""


class Refused(Exception):
    def __init__(self, msg: dict):
        super().__init__(msg.get("code"))
        self.code = msg.get("code")
        self.msg = msg


class Phone:
    """One screen (host or guest) with a real socket, doing what static/heist/live.js
    does. `changed` is set on every new view, party message or reconnection."""

    def __init__(self, run: PartyRun, *, role: str, token: str, servers: list[DaphneServer], source: str, name: str):
        self.run = run
        self.stats = run.stats
        self.role = role
        self.token = token
        # Where its socket goes, in order: the first that takes the connection (the
        # proxy's choice, then the next upstream when that one refuses, as nginx does).
        self.servers = servers
        self.source = source
        self.name = name
        self.ws = None
        self.ready = False
        self.quiet = False  # --quiet: never answers once seated
        self.stopped = False
        self.attempt = 0
        self.pending: dict[str, dict] = {}  # re -> {frame, fut, resend, sent_at}
        self.resyncing: asyncio.Future | None = None  # the resync in flight, if any
        self.shown: dict[tuple[str, int], int] = {}  # stream -> newest version shown (arrivals)
        self.views: dict[tuple[str, int], dict] = {}  # ("seat"|"public", table id) -> table message
        self.copies = TableCopies()  # what patches apply to (as live.js)
        bench = getattr(run, "bench", None)  # (a test's stand-in run has none)
        self.patches = bench is None or not bench.args.whole  # as live.js, unless --whole
        self.snapshot: dict | None = None
        self.party: dict | None = None
        self.me: dict | None = None
        self.changed = asyncio.Event()
        self.last_frame = now()
        self.frozen: asyncio.Event | None = None  # set while asleep with the socket open
        self.late = False  # this frame waited while the phone slept (not a broadcast delay)
        self.naps = 0  # moves at each fall asleep and each waking: an act's wait that spans one slept
        self.drop_next_send = False
        self.wake = asyncio.Event()
        self.wake.set()
        self.task: asyncio.Task | None = None
        self.ids = 0

    def new_re(self) -> str:
        self.ids += 1
        return f"{uuid.uuid4().hex[:16]}-{self.ids}"

    # --- the socket ----------------------------------------------------------------------

    def start(self) -> None:
        self.task = asyncio.create_task(self._connection_loop())

    async def _connect(self):
        for server in self.servers[:-1]:
            try:
                return await self._open(server)
            except ConnectionRefusedError:
                continue  # the next upstream, as nginx's proxy_next_upstream
        return await self._open(self.servers[-1])

    async def _open(self, server: DaphneServer):
        return await ws_connect(
            server.ws_url(self.run.code),
            origin=server.origin,
            proxy=None,
            open_timeout=10,
            close_timeout=1,
            ping_interval=None,
            max_queue=None,
            compression=None,
            local_addr=(self.source, 0),
        )

    async def _connection_loop(self) -> None:
        while not self.stopped:
            await self.wake.wait()
            try:
                ws = await self._connect()
            except websockets.exceptions.InvalidStatus as exc:
                status = exc.response.status_code
                self.stats.handshake_failures[status] += 1
                if status >= 500:
                    self.stats.errors_5xx += 1
                    self.stats.errors_5xx_by["ws handshake"] += 1
                await self._backoff()
                continue
            except (TimeoutError, OSError, websockets.exceptions.WebSocketException) as exc:
                self.stats.handshake_failures[type(exc).__name__] += 1
                await self._backoff()
                continue
            self.stats.connects += 1
            self.ws = ws
            self.last_frame = now()
            hello_re = self.new_re()
            self.hello_re = hello_re
            pinger = asyncio.create_task(self._pinger(ws))
            try:
                hello = {"type": "hello", "role": self.role, "token": self.token, "re": hello_re}
                if self.patches:
                    hello["patches"] = True
                await ws.send(json.dumps(hello))
                async for raw in ws:
                    self.late = self.frozen is not None
                    if self.late:
                        await self.frozen.wait()  # asleep: frames queue up, read on waking
                    self.last_frame = now()
                    # orjson: the stdlib's decoder was a fifth of the harness's time (py-spy),
                    # and the harness's lag is in every ack it times
                    msg = self._whole(orjson.loads(raw))  # as live.js
                    if msg is not None:
                        self._receive(msg, ws)
            except websockets.exceptions.ConnectionClosed:
                pass
            finally:
                pinger.cancel()
            code = ws.close_code if ws.close_code is not None else 1006
            self.stats.close_codes[code] += 1
            self._closed()
            if code in (4401, 4403, 4404, 4410):
                self.stopped = True
                self.run.fatal.append((self.name, code))
                self.changed.set()
                return
            if not self.stopped:
                await self._backoff()

    async def _backoff(self) -> None:
        base = min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2**self.attempt)
        self.attempt += 1
        await asyncio.sleep(base * (0.5 + random.random() * 0.5))

    def _closed(self) -> None:
        self.ready = False
        self.ws = None
        for re, entry in list(self.pending.items()):
            if entry["sent"] and not entry["resend"]:
                del self.pending[re]
                if not entry["fut"].done():
                    entry["fut"].set_exception(Offline())
        self.changed.set()

    async def _pinger(self, ws) -> None:
        while True:
            await asyncio.sleep(PING_S)
            if self.frozen is not None:
                continue
            if now() - self.last_frame > DEAD_AFTER_S:
                self.abort()  # live.js drop(): a silent socket is dead
                return
            try:
                await ws.send('{"type":"ping"}')
            except websockets.exceptions.ConnectionClosed:
                return

    def abort(self) -> None:
        """Cut the socket without a closing handshake (a phone losing its network)."""
        ws = self.ws
        if ws is not None and ws.transport is not None:
            ws.transport.abort()

    async def _transmit(self, re: str) -> None:
        entry = self.pending.get(re)
        ws = self.ws
        if entry is None or ws is None or not self.ready:
            return
        if entry["sent_at"] is None:
            entry["sent_at"] = now()
        try:
            await ws.send(json.dumps(entry["frame"]))
            entry["sent"] = True
        except websockets.exceptions.ConnectionClosed:
            return
        if self.drop_next_send and entry["frame"]["type"] == "act":
            self.drop_next_send = False
            self.stats.drops += 1
            self.abort()

    def request(self, frame: dict, *, resend: bool) -> tuple[str, asyncio.Future]:
        re = self.new_re()
        fut = asyncio.get_running_loop().create_future()
        self.pending[re] = {"frame": {**frame, "re": re}, "fut": fut, "resend": resend, "sent": False, "sent_at": None}
        if self.ready:
            asyncio.ensure_future(self._transmit(re))
        return re, fut

    async def act(self, action: dict, *, table: int | None = None, version: int | None = None) -> dict:
        """A table action, resent with the same `re` after a drop until answered."""
        frame = {"type": "act", "action": action}
        if table is not None:
            frame["table"] = table
        if version is not None:
            frame["version"] = version
        naps = self.naps
        re, fut = self.request(frame, resend=True)
        reply = await fut
        entry_sent = reply.pop("_sent_at")
        t_ok = now()
        if self.naps != naps:  # moved at the waking, before any frame is read again
            self.stats.acks_over_sleep.append(t_ok - entry_sent)
        else:
            self.stats.ack_s.append(t_ok - entry_sent)
            self.stats.ack_at.append(t_ok)
            self.stats.ack_detail.append((time.time(), t_ok - entry_sent, action["type"], self.run.index, self.name))
        tid = table if table is not None else self.my_table()
        self.stats.actions_by_type[action["type"]] += 1
        if reply.get("duplicate"):
            self.stats.duplicates += 1
        else:
            self.stats.sent_at.setdefault((tid, reply["version"]), entry_sent)
        self.run.acked.append((tid, re, reply["version"], bool(reply.get("duplicate")), self.name))
        return reply

    async def command(self, command: str, **args) -> dict:
        return await self.request({"type": "party", "command": command, **args}, resend=False)[1]

    # --- incoming ------------------------------------------------------------------------

    def _whole(self, msg: dict) -> dict | None:
        """As live.js: a `table` message merged (public + private), a patch applied to
        the copy of the version before; None for a patch of a version this screen does
        not hold (it resyncs, unless before its first snapshot or during a resync)."""
        if msg.get("type") != "table":
            return msg
        whole = self.copies.take(msg)
        if whole is None:
            self.stats.patch_misses += 1
            if self.snapshot is not None:
                self.resync("patch")  # one in flight at a time
        return whole

    def _receive(self, msg: dict, ws) -> None:
        kind = msg.get("type")
        if kind == "snapshot":
            self._take_snapshot(msg)
            if msg.get("re") == self.hello_re:
                self.ready = True
                self.attempt = 0
                for re in list(self.pending):
                    asyncio.ensure_future(self._transmit(re))
            self.changed.set()
        elif kind == "table":
            self._take_table(msg)
        elif kind == "party":
            # As live.js: of two broadcasts that crossed, the older changes nothing.
            if self.party is None or msg["party"].get("revision", 0) >= self.party.get("revision", 0):
                self.party = msg["party"]
                self.changed.set()
        elif kind == "relay":
            if self.party is not None:
                self.party["relay"] = msg["relay"]
            self.changed.set()
        elif kind == "pong":
            self._take_pong(msg)
        elif kind == "removed":
            self.stopped = True
        re = msg.get("re")
        if re is not None and kind in ("ok", "error", "snapshot"):
            entry = self.pending.pop(re, None)
            if kind == "error":
                self.stats.refused[msg.get("code")] += 1
                if len(self.stats.refused_samples) < 8:
                    sent = entry["frame"] if entry else {}
                    self.stats.refused_samples.append(
                        {
                            "screen": self.name,
                            "code": msg.get("code"),
                            "message": msg.get("message"),
                            "sent": sent.get("action") or sent.get("command") or sent.get("type"),
                        }
                    )
            if entry is not None and not entry["fut"].done():
                if kind == "error":
                    entry["fut"].set_exception(Refused(msg))
                else:
                    msg["_sent_at"] = entry["sent_at"] or now()
                    entry["fut"].set_result(msg)
        elif kind == "error":
            self.stats.refused[msg.get("code")] += 1

    def _take_snapshot(self, snap: dict) -> None:
        self.snapshot = snap
        self.party = snap["party"]
        self.views = {}  # as live.js: a snapshot replaces every stream
        self.copies.snapshot(snap)
        t = now()
        if snap["role"] == "guest":
            self.me = snap["me"]
            for key, payload in (("seat", snap.get("table")), ("public", snap.get("public"))):
                if payload:
                    self.views[(key, payload["table"]["id"])] = payload
                    self._arrived((key, payload["table"]["id"]), payload["version"], t)
        else:
            for payload in snap.get("tables", []):
                self.views[("public", payload["table"]["id"])] = payload

    def _take_table(self, msg: dict) -> None:
        key = ("seat" if "you" in msg["view"] else "public", msg["table"]["id"])
        have = self.views.get(key)
        if have is not None and msg["version"] < have["version"]:
            return
        self.views[key] = msg
        if (key[0] == "seat" or self.role == "host") and not self.late:
            self._arrived(key, msg["version"], now())
        if have is not None and msg["version"] > have["version"] + 1:
            self.stats.gaps += 1
            self.resync("gap")
        self.changed.set()

    def _arrived(self, key: tuple[str, int], version: int, t: float) -> None:
        """A version this screen shows for the first time (a broadcast's latency); the
        same version again (a snapshot, or the server's replay after one) is not."""
        if version > self.shown.get(key, -1):
            self.shown[key] = version
            self.stats.arrivals.append((key[1], version, t))

    def _take_pong(self, msg: dict) -> None:
        # The heartbeat carries the current versions of the tables this screen reads
        # (issue 8's safety net): a screen that missed broadcasts resyncs, as live.js
        # does, if it is still behind a moment later (the broadcast of an action
        # committed just before the pong is usually on its way).
        # Its party's revision too, as live.js: a screen whose seating news (the party's
        # `resubscribe`) was lost would otherwise wait for ever, unseated.
        tables = msg.get("tables")
        if not isinstance(tables, dict):
            tables = {}
        revision = msg.get("revision")
        if self._behind(tables, revision):
            asyncio.get_running_loop().call_later(PONG_GRACE_S, self._recheck_pong, tables, revision)

    def _behind(self, tables: dict, revision=None) -> str:
        """What the pong says this screen lacks: "revision", "table", or "" (nothing)."""
        shown = (self.party or {}).get("revision")
        if isinstance(revision, int) and isinstance(shown, int) and revision > shown:
            return "revision"
        for tid, version in tables.items():
            mine = [v["version"] for kind in ("seat", "public") if (v := self.views.get((kind, int(tid)))) is not None]
            if isinstance(version, int) and (not mine or min(mine) < version):
                return "table"
        return ""

    def _recheck_pong(self, tables: dict, revision=None) -> None:
        if self.ws is not None and (why := self._behind(tables, revision)):
            self.resync(why)

    def resync(self, why: str) -> None:
        # As live.js: one resync in flight at a time; its snapshot answers the rest.
        if self.resyncing is not None and not self.resyncing.done():
            return
        self.stats.resyncs += 1
        self.stats.resyncs_by[f"{why} {self.run.stage()}"] += 1
        _, fut = self.request({"type": "resync"}, resend=True)
        fut.add_done_callback(lambda f: f.exception())
        self.resyncing = fut

    def reload(self) -> None:
        """A person reloading a frozen page: a new socket, a new hello."""
        self.stats.reloads += 1
        self.abort()

    # --- what the screen shows -----------------------------------------------------------

    def my_table(self) -> int | None:
        for kind, tid in self.views:
            if kind == "seat":
                return tid
        return None

    def seat_view(self) -> dict | None:
        tid = self.my_table()
        return self.views[("seat", tid)] if tid is not None else None

    async def stop(self) -> None:
        self.stopped = True
        self.wake.set()
        if self.frozen is not None:
            self.frozen.set()
        ws = self.ws
        if ws is not None:
            try:
                await asyncio.wait_for(ws.close(), 2)
            except Exception:
                ws.transport.abort()
        if self.task is not None:
            try:
                await asyncio.wait_for(self.task, 3)
            except Exception:
                self.task.cancel()


# ------------------------------------------------------------------------ one party


class PartyRun:
    def __init__(self, bench: Rehearsal, index: int):
        self.bench = bench
        self.index = index
        self.stats = bench.stats
        self.pace = bench.pace
        self.r = random.Random(bench.args.seed * 1000 + index)
        self.code: str | None = None
        self.host_token: str | None = None
        self.host: Phone | None = None
        self.guests: dict[int, Phone] = {}  # guest id -> phone
        self.acked: list[tuple[int, str, int, bool, str]] = []
        self.fatal: list = []
        self.phase_t: dict[str, float] = {}
        self.busy: set = set()  # intents in flight or done, per phone
        self.done = asyncio.Event()
        self.fault_done = False
        self.fault_started = False
        self.tables: list[int] = []
        self.csv_rows: int | None = None

    def mark(self, phase: str) -> None:
        self.phase_t.setdefault(phase, now())

    def stage(self) -> str:
        """The last phase this party reached (`mark`), to say when something happened."""
        return max(self.phase_t, key=self.phase_t.__getitem__, default="start")

    def socket_servers(self, page_server: DaphneServer) -> list[DaphneServer]:
        """The daphnes a screen's socket tries, in order. `--route party` (default, as
        deploy/nginx.conf routes /ws/party/<code>/): the one the party's code hashes to,
        so a table's acts and updates stay in one process. `spread`: the one its page
        came from (the HTTP upstreams' least_conn)."""
        servers = self.bench.servers
        first = party_server(servers, self.code) if self.bench.args.route == "party" else page_server
        return [first, *(s for s in servers if s is not first)]

    def log(self, *parts) -> None:
        log(f"[party {self.index}{' ' + self.code if self.code else ''}]", *parts)

    async def play(self) -> None:
        b = self.bench
        http = b.http
        srv0 = b.servers[0]
        self.mark("start")
        # --- create -----------------------------------------------------------------------
        await http.request(srv0.port, "GET", "/")
        for _attempt in range(5):
            status, body = await http.request(
                srv0.port,
                "POST",
                "/api/parties",
                {
                    "name": f"Rehearsal {self.index + 1}",
                    "budget": "$20",
                    "vault_size": 1,
                    # Quiet guests: the host's shortest clock, and the server plays for them.
                    **({"step_clock": 60, "step_clock_server": True} if b.args.quiet else {}),
                },
            )
            if status == 201:
                break
            await asyncio.sleep(self.pace.retry())
        else:
            raise RuntimeError(f"could not create a party: {status} {body!r}")
        self.code, self.host_token = body["code"], body["host_token"]
        await http.request(srv0.port, "GET", f"/host/{self.code}/")
        await http.request(srv0.port, "GET", f"/qr/{self.code}.svg")
        self.host = Phone(
            self, role="host", token=self.host_token, servers=self.socket_servers(srv0), source=HOST, name="host"
        )
        self.host.start()
        self.mark("created")
        # --- the join burst ---------------------------------------------------------------
        window = self.pace.join_window()
        joins = [self._join(i, self.r.uniform(0, window)) for i in range(b.args.guests)]
        await asyncio.gather(*joins)
        await self._until(
            lambda: all(p.ready for p in self.guests.values()) and self.host.ready, "every phone connected", 60
        )
        self.mark("joined")
        # --- the vault and seating --------------------------------------------------------
        tables = max(1, math.ceil(len(self.guests) / 10))
        for n in range(tables):
            await asyncio.sleep(self.pace.duty() / 4)
            await self._host_command("add_vault_gift", contributor="Host", description=f"vault gift {n + 1}")
        self.mark("vault")
        await asyncio.sleep(self.pace.duty())
        await self._host_command("seat")
        await self._until(
            lambda: (
                all(p.seat_view() is not None or p.stopped for p in self.guests.values())
                and len(self.host.views) >= tables
            ),
            "every screen seated",
            60,
        )
        self.tables = sorted(tid for _, tid in self.host.views)
        self.mark("seated")
        self.log(f"{len(self.guests)} guests seated at {len(self.tables)} tables")
        if b.args.quiet:
            await self._go_quiet()
        # --- play -------------------------------------------------------------------------
        brains = [asyncio.create_task(self._guest_brain(p)) for p in self.guests.values()]
        brains.append(asyncio.create_task(self._host_brain()))
        brains.append(asyncio.create_task(self._watchdog()))
        if b.args.pace == "human":
            brains.append(asyncio.create_task(self._sleepers()))
        fault = asyncio.create_task(self._fault()) if b.args.fault != "none" else None
        try:
            await self.done.wait()
            if fault is not None and self.fault_started:
                # the fault is in, or its convergence is being measured: let it finish
                await asyncio.wait_for(asyncio.shield(fault), 180)
            elif fault is not None and b.args.fault != "drop-phones":
                # a run that asked for a fault and had none proves nothing about it
                b.harness_errors.append(f"party {self.index}: the game ended before the fault struck")
        finally:
            if fault is not None:
                brains.append(fault)
            for t in brains:
                t.cancel()
            await asyncio.gather(*brains, return_exceptions=True)
        # --- the result -------------------------------------------------------------------
        status, body = await http.request(
            srv0.port,
            "GET",
            f"/api/parties/{self.code}/result.csv",
            headers={"Authorization": f"Bearer {self.host_token}"},
        )
        if status == 200 and isinstance(body, bytes):
            self.csv_rows = len(body.decode().strip().splitlines()) - 1
        self.mark("result")

    async def _join(self, i: int, delay: float) -> None:
        await asyncio.sleep(delay)
        b = self.bench
        srv = b.servers[i % len(b.servers)]
        source = b.next_source()
        http = b.http
        await http.request(srv.port, "GET", f"/j/{self.code}/", source=source)
        for attempt in range(6):  # a person taps Join again after an error
            status, body = await http.request(
                srv.port,
                "POST",
                f"/api/parties/{self.code}/guests",
                {"name": f"Guest {i + 1}", "description": f"wrapped gift {self.index + 1}.{i + 1}"},
                source=source,
            )
            if status == 201:
                break
            await asyncio.sleep(self.pace.retry() + attempt)
        else:
            self.log(f"guest {i + 1} could not join: {status} {body!r}")
            return
        await http.request(srv.port, "GET", f"/p/{self.code}/", source=source)
        phone = Phone(
            self,
            role="guest",
            token=body["token"],
            servers=self.socket_servers(srv),
            source=source,
            name=f"guest {i + 1}",
        )
        self.guests[body["guest"]] = phone
        phone.start()

    async def _until(self, pred, what: str, timeout: float) -> None:
        end = now() + timeout
        while not pred():
            if now() > end:
                raise TimeoutError(f"party {self.code}: timed out waiting for {what}")
            await asyncio.sleep(0.05)

    async def _host_command(self, command: str, **args) -> dict | None:
        """The host taps until the command is answered (a dropped reply: tap again)."""
        for _attempt in range(20):
            try:
                return await asyncio.wait_for(self.host.command(command, **args), 30)
            except (TimeoutError, Offline):
                await asyncio.sleep(self.pace.retry())
            except Refused as exc:
                self.log(f"host {command}: refused {exc.code}: {exc.msg.get('message')}")
                return None
        raise RuntimeError(f"host {command}: no answer after 20 taps")

    # --- the guests -----------------------------------------------------------------------

    async def _go_quiet(self) -> None:
        """--quiet: that many guests (never a captain: the gate has no clock, it waits
        for the host and the captains) stop answering for good; the step clock, played
        by the server, carries their tables on (docs/RULES.md)."""
        b = self.bench
        others = [p for p in self.guests.values() if not (p.me or {}).get("captain")]
        for p in self.r.sample(others, b.args.quiet):
            p.quiet = True
        if b.args.quiet_clock != 60:
            await asyncio.to_thread(b.db_quiet_clock, self.code, b.args.quiet_clock)
        self.log(f"{b.args.quiet} guests went quiet; step clock {b.args.quiet_clock} s, played by the server")

    async def _guest_brain(self, p: Phone) -> None:
        while not p.stopped:
            await p.changed.wait()
            p.changed.clear()
            if not p.ready or p.frozen is not None:
                continue
            self._decide(p)

    def _decide(self, p: Phone) -> None:
        payload = p.seat_view()
        if payload is None or p.quiet:
            return
        v = payload["view"]
        tid = payload["table"]["id"]
        phase = v["phase"]
        you = v["you"]
        if phase == "action" and v["active"] == you:
            self._spawn(p, ("turn", tid, v["version"]), self._turn(p, tid, v["version"]))
        elif phase == "reaction" and v["asked"]:
            self._spawn(p, ("react", tid, v["window"]["version"]), self._react(p, tid, v["window"]["version"]))
        elif phase == "trim" and v["must_trim"]:
            self._spawn(p, ("trim", tid, v["version"]), self._trim(p, tid, v["version"]))
        if p.me and p.me.get("captain"):
            if phase == "reveal":
                self._spawn(p, ("reveal", tid, v["version"]), self._duty(p, tid, {"type": "confirm_reveal"}, "reveal"))
            relay = (p.party or {}).get("relay") or {}
            if phase == "gate" and v["relay_seat"] is None and relay.get("status") == "open":
                self._spawn(p, ("draw", tid), self._duty(p, tid, {"type": "draw_relay_seat"}, "gate"))
            if phase == "gate" and self.bench.args.quiet and arrival_awaited(relay, payload["table"]["letter"]):
                # --quiet: a quiet carrier never taps "delivered"; the gift still arrives,
                # and the receiving captain confirms it once the walk's time is up.
                self._spawn(p, ("arrival", tid), self._arrival(p, tid))
        if phase == "gate":
            to_table = carrier_walk((p.party or {}).get("relay"), payload["table"]["letter"], you)
            if to_table is not None:
                self._spawn(p, ("deliver", tid), self._deliver(p, to_table))

    def _spawn(self, p: Phone, key: tuple, coro) -> None:
        key = (p.name, *key)
        if key in self.busy:
            coro.close()
            return
        self.busy.add(key)

        async def run():
            try:
                await coro
            except Refused as exc:
                # The screen was out of date (`stale`: a snapshot follows) or the tap
                # too late: the person looks at the screen again.
                if exc.code == "stale":
                    self.busy.discard(key)
                p.changed.set()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.bench.harness_errors.append(f"{p.name} {key}: {exc!r}")
                self.busy.discard(key)

        asyncio.ensure_future(run())

    def _still(self, p: Phone, check) -> bool:
        payload = p.seat_view()
        return payload is not None and check(payload["view"])

    async def _turn(self, p: Phone, tid: int, version: int) -> None:
        await asyncio.sleep(self.pace.think())
        payload = p.seat_view()
        if payload is None or payload["version"] != version:
            p.changed.set()
            return  # the screen changed under the thumb: look again
        for attempt in range(4):
            action = choose_turn(payload["view"], self.r if attempt < 3 else random.Random(0))
            if attempt == 3:
                action = {"type": "regroup", "cards": []}  # a pass is always legal
            try:
                await p.act(action, version=version)
                return
            except Refused as exc:
                if not exc.code.startswith("illegal."):
                    raise
                self.bench.harness_errors.append(f"{p.name}: {action} refused {exc.code}: {exc.msg.get('message')}")

    async def _react(self, p: Phone, tid: int, window: int) -> None:
        await asyncio.sleep(self.pace.react())
        payload = p.seat_view()
        blocks = [c["id"] for c in (payload or {}).get("view", {}).get("hand", []) if c["kind"] == "REACTION"]
        card = self.r.choice(blocks) if blocks and self.r.random() < 0.4 else None
        await p.act({"type": "react", "card": card, "window": window})

    async def _trim(self, p: Phone, tid: int, version: int) -> None:
        await asyncio.sleep(self.pace.trim())
        payload = p.seat_view()
        if payload is None:
            return
        v = payload["view"]
        if v["phase"] != "trim" or not v["must_trim"]:
            p.changed.set()
            return
        await p.act({"type": "trim", "cards": self.r.sample([c["id"] for c in v["hand"]], v["must_trim"])})

    async def _deliver(self, p: Phone, to_table: int) -> None:
        """The carrier walks the relay gift to the next table, then says so on the phone
        (a tap whose reply was lost: tap again; a second confirmation changes nothing)."""
        await asyncio.sleep(self.pace.walk())
        for _attempt in range(20):
            try:
                await asyncio.wait_for(p.command("confirm_delivery", table=to_table), 30)
                return
            except (TimeoutError, Offline):
                await asyncio.sleep(self.pace.retry())
        raise RuntimeError(f"{p.name}: no answer to confirm_delivery after 20 taps")

    async def _arrival(self, p: Phone, tid: int) -> None:
        """The receiving captain confirms the relay gift put down at the table: after the
        longest walk, so a carrier who answers is the one who confirms (docs/RULES.md)."""
        await asyncio.sleep(self.pace._s(25.0) + self.pace.duty() + 1)  # 25 s: walk()'s longest
        for _attempt in range(20):
            try:
                await asyncio.wait_for(p.command("confirm_delivery", table=tid), 30)
                return
            except (TimeoutError, Offline):
                await asyncio.sleep(self.pace.retry())
        raise RuntimeError(f"{p.name}: no answer to confirm_delivery after 20 taps")

    async def _duty(self, p: Phone, tid: int, action: dict, phase: str) -> None:
        await asyncio.sleep(self.pace.duty())
        await p.act(action)

    # --- the host -------------------------------------------------------------------------

    async def _host_brain(self) -> None:
        h = self.host
        multi = len(self.tables) > 1
        while True:
            await h.changed.wait()
            h.changed.clear()
            if not h.ready:
                continue
            views = [h.views.get(("public", t)) for t in self.tables]
            if any(v is None for v in views):
                continue
            phases = [v["view"]["phase"] for v in views]
            if "reveal" in phases:
                self.mark("first_reveal")
            if all(ph == "over" for ph in phases):
                self.mark("over")
                self.done.set()
                return
            if not multi:
                continue
            relay = (h.party or {}).get("relay") or {}
            if all(ph == "gate" for ph in phases):
                self.mark("at_gate")
                if not relay:
                    await asyncio.sleep(self.pace.duty())
                    ok = await self._host_command("open_relay")
                    if ok is not None:
                        self.mark("relay_open")
                        h.changed.set()
                    continue
                if relay.get("status") == "open" and all(v["view"]["relay_seat"] is not None for v in views):
                    await asyncio.sleep(self.pace.duty())
                    ok = await self._host_command("run_relay")
                    if ok is not None:
                        self.mark("relay_done")
                    continue
            if any(v["view"]["relayed"] for v in views):
                self.mark("relay_done")
            if all(v["view"]["relayed"] for v in views):
                self.mark("walk_over")

    # --- trouble --------------------------------------------------------------------------

    async def _sleepers(self) -> None:
        """10 % of the phones fall asleep once (screen off in a pocket)."""
        phones = list(self.guests.values())
        sleepy = self.r.sample(phones, max(1, len(phones) // 10))
        await asyncio.gather(
            *(
                self._sleep(
                    p, self.r.uniform(10, 180) * self.pace.scale, self.r.uniform(5, 20) * self.pace.scale, i % 2 == 0
                )
                for i, p in enumerate(sleepy)
            )
        )

    async def _sleep(self, p: Phone, after: float, length: float, lose_socket: bool) -> None:
        await asyncio.sleep(after)
        self.stats.sleeps += 1
        p.naps += 1
        try:
            await self._nap(p, length, lose_socket)
        finally:
            p.naps += 1

    async def _nap(self, p: Phone, length: float, lose_socket: bool) -> None:
        if lose_socket:
            p.wake.clear()
            p.abort()
            try:
                await asyncio.sleep(length)
            finally:
                p.wake.set()  # waking: live.js reconnects at once on visibilitychange
        else:
            p.frozen = asyncio.Event()
            try:
                await asyncio.sleep(length)
            finally:
                frozen, p.frozen = p.frozen, None
                frozen.set()
                p.changed.set()

    async def _fault(self) -> None:
        """Once, in round 2: when a reaction window is open, or at the round's end."""
        fault = self.bench.args.fault
        if fault == "drop-phones":
            await self._until(lambda: self._rounds() and min(self._rounds()) >= 1, "round 1", 3600)
            for p in self.r.sample(list(self.guests.values()), max(1, len(self.guests) * 3 // 10)):
                p.drop_next_send = True
            self.stats.faults.append(
                {"fault": fault, "party": self.index, "armed_phones": max(1, len(self.guests) * 3 // 10)}
            )
            return
        await self._until(lambda: self._rounds() and min(self._rounds()) >= 2, "round 2", 3600)
        end = now() + 30 * (self.pace.scale if self.pace.human else 0.2)
        while now() < end:
            phases = [v["view"]["phase"] for v in self.host.views.values()]
            if "reaction" in phases:
                break
            await asyncio.sleep(0.05)
        await self.bench.inject(fault, self)

    def _rounds(self) -> list[int]:
        return [v["view"]["round"] for k, v in self.host.views.items() if k[0] == "public"]

    async def _watchdog(self) -> None:
        """A table that has not moved for a while: its screens that are behind the
        database reload (a person with a frozen page does), so the run goes on and the
        stall is reported."""
        # Far longer than a heartbeat (PING_S), so the safety net riding on pings has time.
        stall_after = 60 * self.pace.scale if self.pace.human else 30
        if self.bench.args.quiet:  # a quiet guest's step waits its whole clock, by design
            stall_after = max(stall_after, self.bench.args.quiet_clock + 30)
        seen: dict[int, tuple[int, float]] = {}
        while True:
            await asyncio.sleep(2)
            if self.bench.faulting:
                seen.clear()  # a server stopped or restarting on purpose: its pause is no stall
                continue
            db = await asyncio.to_thread(self.bench.db_tables, self.tables)
            t = now()
            for tid, (version, phase) in db.items():
                if phase in ("over", "gate"):
                    seen.pop(tid, None)
                    continue
                last = seen.get(tid)
                if last is None or last[0] != version:
                    seen[tid] = (version, t)
                    continue
                if t - last[1] < stall_after:
                    continue
                seen[tid] = (version, t)
                behind = [
                    p
                    for p in [*self.guests.values(), self.host]
                    if any(k[1] == tid and v["version"] < version for k, v in p.views.items())
                ]
                last_action = await asyncio.to_thread(self.bench.db_last_action, tid)
                self.stats.stalls.append(
                    {
                        "party": self.index,
                        "table": tid,
                        "version": version,
                        "phase": phase,
                        "behind": [p.name for p in behind],
                        "last_action": last_action,
                    }
                )
                self.log(
                    f"stall: table {tid} at version {version} ({phase}) for {stall_after:.0f}s; {len(behind)} screens behind"
                )
                for p in behind:
                    p.reload()
                # also let every screen of the table look again
                for p in self.guests.values():
                    if p.my_table() == tid:
                        self.busy = {k for k in self.busy if k[0] != p.name}
                        p.changed.set()


# ------------------------------------------------------------------------ the run


class Rehearsal:
    def __init__(
        self, args, servers: list[DaphneServer], redis: RedisServer | None, db_name: str | None, pg_port: int = 5432
    ):
        self.args = args
        self.pg_port = pg_port
        self.servers = servers
        self.redis = redis
        self.db_name = db_name
        self.stats = Stats()
        self.http = Http(self.stats)
        self.pace = Pace(args.pace, args.think_scale, random.Random(args.seed))
        self.parties: list[PartyRun] = []
        self.harness_errors: list[str] = []
        self._source = 1
        self.pg_max = 0
        self.pg_root: Path | None = None  # set with --postgres private: its processes count as the server's
        self.memory: dict = {}
        self.lag: list[tuple[float, float]] = []  # (when, how late the harness loop woke) in s
        self.pauses = GcPauses()
        self.gc_pauses: dict = {}
        self.cpu: list[tuple[float, float, float]] = []  # (when, harness cores, daphne cores)
        self.fsyncs: list[tuple[float, float]] = []  # (when, ms) of bench/disk.py's flushes
        self.fault_lock = None
        self.faulting = False  # a fault in progress: the watchdog does not count the time
        self.pg: PostgresServer | None = None  # the private cluster (--postgres private)

    def next_source(self) -> str:
        """A loopback address of its own for each phone (127.0.0.2, ...)."""
        self._source += 1
        n = self._source
        return f"127.0.{n // 250}.{n % 250 + 2}" if n >= 250 else f"127.0.0.{n}"

    def db_tables(self, table_ids: list[int]) -> dict[int, tuple[int, str]]:
        from django.db import connection

        from tables.models import Table

        try:
            return {
                pk: (version, state.get("phase"))
                for pk, version, state in Table.objects.filter(pk__in=table_ids).values_list("pk", "version", "state")
            }
        finally:
            connection.close()

    def db_quiet_clock(self, code: str, seconds: int) -> None:
        """--quiet-clock below the host's 60 s: written to the party's table rows, and
        each table's step waiting now restarts its clock (the bench's time scale)."""
        from datetime import timedelta

        from django.db import connection
        from django.utils import timezone

        from tables.models import Table

        try:
            Table.objects.filter(party__code=code, step_due_at__isnull=False).update(
                step_clock=seconds, step_due_at=timezone.now() + timedelta(seconds=seconds)
            )
            Table.objects.filter(party__code=code).update(step_clock=seconds)
        finally:
            connection.close()

    def db_last_action(self, table_id: int) -> dict | None:
        from django.db import connection

        from tables.models import TableAction

        try:
            row = (
                TableAction.objects.filter(table_id=table_id)
                .order_by("-version")
                .values("version", "actor", "action", "created_at")
                .first()
            )
            if row:
                row["created_at"] = row["created_at"].strftime("%H:%M:%S.%f")[:-3]
                row["action"] = row["action"].get("type")
            return row
        finally:
            connection.close()

    async def progress(self) -> None:
        """A line every 30 s: each party's tables as round/phase, from the host's screen."""
        while True:
            await asyncio.sleep(30)
            for party in self.parties:
                if party.host is None:
                    continue
                views = sorted(party.host.views.items())
                party.log(
                    " ".join(f"{v['table']['letter']}:r{v['view']['round']}/{v['view']['phase']}" for _, v in views)
                    or "lobby"
                )

    async def inject(self, fault: str, party: PartyRun) -> None:
        async with self.fault_lock:
            party.fault_started = True
            self.faulting = True
            try:
                entry = await self._inject(fault, party)
            finally:
                self.faulting = False
            self.stats.faults.append(entry)
            party.log(f"{fault}: back after {entry['down_s']}s")
            entry["converge_s"] = round(await self._converged(party), 2)
            party.log(f"{fault}: every screen converged {entry['converge_s']}s later")

    async def _converged(self, party: PartyRun, timeout: float = 120) -> float:
        """Seconds until every screen of the party is connected and shows the database's
        version (read just before) of every table it reads; `timeout` if never."""
        t = now()
        phones = [p for p in [party.host, *party.guests.values()] if p is not None]
        while now() - t < timeout:
            db = await asyncio.to_thread(self.db_tables, party.tables)
            behind = [
                p
                for p in phones
                if not p.stopped
                and (
                    not p.ready
                    or any(
                        (kind, tid) in p.views and p.views[(kind, tid)]["version"] < db[tid][0]
                        for kind, tid in list(p.views)
                        if tid in db
                    )
                )
            ]
            if not behind:
                return now() - t
            if int((now() - t) * 10) % 50 == 0:
                party.log(f"behind the database: {[p.name + (' (connecting)' if not p.ready else '') for p in behind]}")
            await asyncio.sleep(0.1)
        return timeout

    async def _inject(self, fault: str, party: PartyRun) -> dict:
        t = now()
        # where the tables were when it struck (a fault test checks it was mid-round)
        extra: dict = {
            "tables_at": sorted(f"r{v['view']['round']}/{v['view']['phase']}" for v in party.host.views.values())
        }
        victim = party.socket_servers(self.servers[-1])[0]
        if fault == "restart-postgres":
            party.log(f"restart PostgreSQL :{self.pg.port} (fast shutdown)")
            await asyncio.to_thread(self.pg.restart, 2)  # down 2 s, as the other restarts
        elif fault == "sleep-laptop":
            party.log(f"SIGSTOP daphne :{victim.port} for {self.args.sleep:.0f}s")
            victim.suspend()
            try:
                await asyncio.sleep(self.args.sleep)
            finally:
                victim.resume()
        elif fault == "ctrl-c":
            party.log(f"SIGINT daphne :{victim.port}")
            extra["exit_status"] = await asyncio.to_thread(victim.interrupt)
            extra["stopped_s"] = round(now() - t, 1)
            await asyncio.to_thread(victim.start, START_TIMEOUT_S)
        elif fault == "kill-daphne":
            # the daphne holding this party's sockets (the second, when they are spread)
            party.log(f"kill -9 daphne :{victim.port}")
            victim.kill9()
            await asyncio.sleep(2)
            await asyncio.to_thread(victim.start, START_TIMEOUT_S)
        elif fault == "restart-redis":
            party.log(f"kill -9 redis-server :{self.redis.port}")
            self.redis.kill9()
            await asyncio.sleep(2)
            await asyncio.to_thread(self.redis.start)
        return {
            "fault": fault,
            "party": party.index,
            "at_s": round(t - self.t0, 1),
            "down_s": round(now() - t, 1),
            "at": time.strftime("%H:%M:%S", time.gmtime(time.time() - (now() - t))),
            **extra,
        }

    async def run(self) -> None:
        # The harness's own collector pauses, reported beside its loop lag: they are
        # not the server's latency. (Turning the collector off for the run, as
        # bench/live.py does while it times, did not shorten the lag: one run at
        # 16:25 UTC had a p99 lag of 90-110 ms per window with no collection at all.)
        self.pauses.take()
        try:
            await self._run()
        finally:
            self.gc_pauses = self.pauses.take()

    async def _run(self) -> None:
        self.t0 = now()
        self.fault_lock = asyncio.Lock()
        self.parties = [PartyRun(self, i) for i in range(self.args.parties)]
        tasks = [asyncio.create_task(p.play()) for p in self.parties]
        sampler = asyncio.create_task(self._sample_pg())
        # The disk under the database, probed as its commits use it (bench/disk.py).
        self.disk = DiskProbe(str(self.pg_root or tempfile.gettempdir())).start()
        memory = asyncio.create_task(self._sample_memory())
        load = asyncio.create_task(self._sample_load())
        progress = asyncio.create_task(self.progress())
        try:
            done, pending = await asyncio.wait(tasks, timeout=self.args.time, return_when=asyncio.FIRST_EXCEPTION)
            for t in pending:
                t.cancel()
            for t in done:
                if t.exception() is not None:
                    self.harness_errors.append(f"party: {t.exception()!r}")
            if pending:
                self.harness_errors.append(f"time limit {self.args.time}s reached with {len(pending)} parties playing")
            await asyncio.gather(*pending, return_exceptions=True)
            await self._settle()
        finally:
            self.fsyncs = self.disk.stop()
            sampler.cancel()
            memory.cancel()
            load.cancel()
            progress.cancel()
            for party in self.parties:
                await asyncio.gather(
                    *(p.stop() for p in [party.host, *party.guests.values()] if p), return_exceptions=True
                )

    async def _settle(self, timeout: float = 15) -> None:
        """Let replies, broadcasts and resyncs in flight arrive: every screen connected,
        nothing pending, nothing received for a second."""
        phones = [p for party in self.parties for p in [party.host, *party.guests.values()] if p and not p.stopped]
        end = now() + timeout
        while now() < end:
            quiet = all(p.ready and not p.pending and now() - p.last_frame > 1.0 for p in phones)
            if quiet:
                return
            await asyncio.sleep(0.2)

    def sockets_open(self) -> int:
        return sum(1 for party in self.parties for p in [party.host, *party.guests.values()] if p and p.ws is not None)

    async def _sample_memory(self) -> None:
        """Every second: each server process's memory (daphnes, the private Redis and
        PostgreSQL, whose backends share memory: PSS, so shared pages count once) and the
        sockets open. The peak total is the issue's "resident memory of all server
        processes"; per socket is the daphnes' growth from idle over the sockets then open."""
        servers = [s.proc.pid for s in self.servers if s.proc]
        self.memory["daphne_idle_mb"] = round(sum(_rss_kb(pid) for pid in servers) / 1024, 1)
        while True:
            daphnes = [s.proc.pid for s in self.servers if s.proc and s.proc.poll() is None]
            others = [self.redis.proc.pid] if self.redis and self.redis.proc else []
            if self.pg_root is not None:
                others += _postgres_pids(self.pg_port)
            daphne_kb = sum(_rss_kb(pid) for pid in daphnes)
            total_kb = sum(_pss_kb(pid) for pid in daphnes + others)
            sockets = self.sockets_open()
            m = self.memory
            if total_kb / 1024 > m.get("total_peak_mb", 0):
                m["total_peak_mb"] = round(total_kb / 1024, 1)
            if daphne_kb / 1024 > m.get("daphne_peak_mb", 0):
                m["daphne_peak_mb"] = round(daphne_kb / 1024, 1)
                m["sockets_at_daphne_peak"] = sockets
            m["sockets_peak"] = max(m.get("sockets_peak", 0), sockets)
            await asyncio.sleep(1)

    async def _sample_load(self) -> None:
        """Whether a slow ack was the server or this harness: the harness's own event loop
        lag (how late a 20 ms sleep wakes), and each second the CPU of the harness and of
        the daphnes, so that `load_by_30s` sets them beside `ack_by_30s`."""
        tick = 0.02
        daphnes = [s.proc.pid for s in self.servers if s.proc]

        def cpu_s(pids):
            return sum(sum(proc_cpu_s(pid) or ()) for pid in pids)  # a process gone counts 0

        last_t, last_self, last_daphne = now(), time.process_time(), cpu_s(daphnes)
        last_freeze = now()
        while True:
            t = now()
            await asyncio.sleep(tick)
            woke = now()
            self.lag.append((woke, woke - t - tick))
            if woke - last_freeze >= FREEZE_EVERY_S:
                # What the run has kept so far (phones, their views, every figure) leaves
                # the collector's walks: its full collections had paused this loop for up
                # to 812 ms (p99 109 ms), and each pause is in every ack in flight. The
                # few cycles frozen with it are never freed, which a run can afford.
                gc.freeze()
                last_freeze = woke
            if woke - last_t >= 1.0:
                span = woke - last_t
                me, daphne = time.process_time(), cpu_s(daphnes)
                self.cpu.append((woke, (me - last_self) / span, (daphne - last_daphne) / span))
                last_t, last_self, last_daphne = woke, me, daphne

    async def _sample_pg(self) -> None:
        if self.db_name is None:
            return
        import psycopg

        conn = await asyncio.to_thread(
            psycopg.connect, host=HOST, port=self.pg_port, user="postgres", dbname="postgres", autocommit=True
        )
        try:
            while True:
                row = await asyncio.to_thread(
                    lambda: conn.execute(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (self.db_name,)
                    ).fetchone()
                )
                self.pg_max = max(self.pg_max, row[0])
                await asyncio.sleep(1)
        finally:
            conn.close()


def _proc_kb(pid: int, path: str, field: str) -> int:
    try:
        with open(f"/proc/{pid}/{path}") as f:
            for line in f:
                if line.startswith(field):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _rss_kb(pid: int) -> int:
    return _proc_kb(pid, "status", "VmRSS:")


def _pss_kb(pid: int) -> int:
    return _proc_kb(pid, "smaps_rollup", "Pss:")


def _postgres_pids(port: int) -> list[int]:
    """The private cluster's postmaster and backends (their command lines name the port
    only on the postmaster: its children are found by parent)."""
    pids, parents = [], {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ")
        except OSError:
            continue
        parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
        if b"postgres" in cmd and f"-p {port}".encode() in cmd:
            pids.append(int(entry))
    return sorted({*pids, *(pid for pid, parent in parents.items() if parent in pids)})


# ------------------------------------------------------------------------ the checks


def check_lost(party: PartyRun) -> tuple[int, list]:
    """Acknowledged actions missing from the action log (by `re` and version)."""
    from tables.models import TableAction

    rows = {
        (t, cid): v
        for t, cid, v in TableAction.objects.filter(table_id__in=party.tables).values_list(
            "table_id", "client_id", "version"
        )
    }
    lost = [a for a in party.acked if rows.get((a[0], a[1])) != a[2]]
    return len(lost), lost[:5]


def check_twice(party: PartyRun) -> tuple[int, int]:
    """(actions in the log more than once, by their `re`; actions in the log with an `re`
    no screen saw acknowledged): after a fault, a resent action must be acknowledged as a
    duplicate, never applied again, and an action applied while its reply was lost must
    still reach its screen as acknowledged."""
    from tables.models import TableAction

    ids = collections.Counter(
        (t, cid)
        for t, cid in TableAction.objects.filter(table_id__in=party.tables)
        .exclude(client_id="")
        .values_list("table_id", "client_id")
    )
    acked = {(a[0], a[1]) for a in party.acked}
    return sum(n - 1 for n in ids.values()), sum(1 for key in ids if key not in acked)


def check_stale(party: PartyRun) -> tuple[int, int, list]:
    """Screens whose last view (version and content) is not the database's, compared
    with a fresh snapshot from the selector the server uses."""
    from events.models import Guest, Party
    from events.party.roles import Actor, Role
    from events.party.selectors import guest_actor, snapshot_for

    def norm(x):
        return json.loads(json.dumps(x))

    stale, checked, samples = 0, 0, []
    pobj = Party.objects.get(code=party.code)
    host_snap = norm(snapshot_for(Actor(Role.HOST, pobj.pk)))
    screens = [(party.host, host_snap, [("public", t["table"]["id"], t) for t in host_snap["tables"]])]
    for gid, phone in party.guests.items():
        guest = Guest.objects.get(pk=gid)
        snap = norm(snapshot_for(guest_actor(guest)))
        want = []
        for kind, key in (("seat", "table"), ("public", "public")):
            if snap.get(key):
                want.append((kind, snap[key]["table"]["id"], snap[key]))
        screens.append((phone, snap, want))
    for phone, snap, want in screens:
        checked += 1
        bad = []
        for kind, tid, payload in want:
            have = phone.views.get((kind, tid))
            if have is None:
                bad.append((kind, tid, None, payload["version"]))
            elif have["version"] != payload["version"] or norm(have["view"]) != payload["view"]:
                bad.append((kind, tid, have["version"], payload["version"]))
        if bad:
            stale += 1
            if len(samples) < 5:
                samples.append({"screen": phone.name, "ready": phone.ready, "streams": bad})
    return stale, checked, samples


def broadcast_latencies(stats: Stats) -> list[float]:
    out = []
    for tid, version, t in stats.arrivals:
        t0 = stats.sent_at.get((tid, version))
        if t0 is not None and t >= t0:
            out.append(t - t0)
    return out


# ------------------------------------------------------------------------ main


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


def clock_passes(bench: Rehearsal) -> dict:
    """The steps the server played for quiet guests, by kind, and how many request ids
    were used twice (none: each fires once, whichever daphne's sweep claimed it)."""
    from tables.models import TableAction

    codes = [p.code for p in bench.parties if p.code]
    rows = list(
        TableAction.objects.filter(table__party__code__in=codes, actor="clock").values_list(
            "table_id", "client_id", "action"
        )
    )
    kinds: collections.Counter[str] = collections.Counter()
    for _, _, action in rows:
        kind = action["type"]
        if kind == "timeout_pass":
            kind = "reaction" if "window" in action else "turn_or_trim"
        kinds[kind] += 1
    ids = collections.Counter((t, c) for t, c, _ in rows)
    return {"total": len(rows), "by_kind": dict(kinds), "ids_used_twice": sum(1 for n in ids.values() if n > 1)}


def report(bench: Rehearsal) -> dict:
    from tables.models import Table

    s = bench.stats
    tables = finished = 0
    lost = stale = screens = twice = unacked = 0
    lost_samples, stale_samples, csv = [], [], []
    phases: dict[str, list[float]] = collections.defaultdict(list)
    order = [
        "start",
        "created",
        "joined",
        "vault",
        "seated",
        "first_reveal",
        "at_gate",
        "relay_open",
        "relay_done",
        "walk_over",
        "over",
        "result",
    ]
    names = {
        "created": "create",
        "joined": "join_burst",
        "vault": "vault_gifts",
        "seated": "seating",
        "first_reveal": "round_1",
        "at_gate": "reveal_round_2_to_gate",
        "relay_open": "gate_to_relay_open",
        "relay_done": "relay",
        "walk_over": "relay_walk",
        "over": "rounds_3_4",
        "result": "result_csv",
    }
    for party in bench.parties:
        if party.code is None:
            continue
        rows = list(Table.objects.filter(party__code=party.code).values_list("state", flat=True))
        tables += len(rows) if rows else math.ceil(bench.args.guests / 10) if bench.args.guests > 10 else 1
        finished += sum(1 for st in rows if st.get("phase") == "over")
        if party.tables:
            n, sample = check_lost(party)
            lost += n
            lost_samples += sample
            n, m = check_twice(party)
            twice += n
            unacked += m
            n, checked, sample = check_stale(party)
            stale += n
            screens += checked
            stale_samples += sample
        csv.append(party.csv_rows)
        marks = party.phase_t
        prev = marks.get("start")
        for key in order[1:]:
            if key in marks and prev is not None:
                phases[names[key]].append(marks[key] - prev)
                prev = marks[key]
    if not tables:
        tables = bench.args.parties * (math.ceil(bench.args.guests / 10) if bench.args.guests > 10 else 1)
    acked = [a for party in bench.parties for a in party.acked]
    return {
        "tables": tables,
        "tables_finished": finished,
        "actions": sum(1 for a in acked if not a[3]),
        "quiet_guests": bench.args.quiet * len(bench.parties),
        "clock_passes": clock_passes(bench),
        "lost": lost,
        "applied_twice": twice,
        "applied_unacked": unacked,
        "phones_stale": stale,
        "errors_5xx": s.errors_5xx,
        "busy_503": s.busy,
        "refused_by_code": dict(s.refused.most_common()),
        "refused_samples": s.refused_samples,
        "phases_s": {k: round(max(v), 1) for k, v in phases.items()},
        "latency_ms": {
            "ack": percentiles(s.ack_s),
            "ack_over_sleep": percentiles(s.acks_over_sleep),
            "broadcast": percentiles(broadcast_latencies(s)),
            "http": percentiles(s.http_s),
        },
        "ack_by_30s": ack_by_window(s.ack_at, s.ack_s, 30.0),
        # The slowest acks, each with its wall-clock time (beside the daphnes' logs).
        "slowest_acks": [
            {"at": round(at, 3), "ms": round(1000 * lat, 1), "type": kind, "party": party, "screen": screen}
            for at, lat, kind, party, screen in sorted(s.ack_detail, key=lambda a: -a[1])[:40]
        ],
        "load_by_30s": load_by_window(s.ack_at, bench.lag, bench.cpu, 30.0, bench.fsyncs),
        "disk_fsync_ms": disk_summary(bench.fsyncs),
        "harness_gc_pauses_ms": bench.gc_pauses,
        "harness_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "screens_checked": screens,
        "result_csv_rows": csv,
        "duplicates": s.duplicates,
        "actions_by_type": dict(s.actions_by_type),
        "errors_5xx_by": dict(s.errors_5xx_by),
        "http_status": {str(k): v for k, v in sorted(s.http_status.items())},
        "http_failures": dict(s.http_failures),
        "ws_connects": s.connects,
        "ws_close_codes": {str(k): v for k, v in sorted(s.close_codes.items())},
        "ws_handshake_failures": {str(k): v for k, v in s.handshake_failures.items()},
        "gaps": s.gaps,
        "patch_misses": s.patch_misses,
        "resyncs": s.resyncs,
        "resyncs_by": dict(s.resyncs_by.most_common()),  # why (gap, table, revision) and when
        "drops": s.drops,
        "sleeps": s.sleeps,
        "stalls": len(s.stalls),
        "stall_samples": s.stalls[:5],
        "reloads": s.reloads,
        "faults": s.faults,
        "pg_connections_max": bench.pg_max if bench.db_name else None,
        "memory": {
            **bench.memory,
            "daphne_kb_per_socket": round(
                (bench.memory.get("daphne_peak_mb", 0) - bench.memory.get("daphne_idle_mb", 0))
                * 1024
                / max(1, bench.memory.get("sockets_at_daphne_peak", 0)),
                1,
            ),
        },
        "lost_samples": lost_samples[:5],
        "stale_samples": stale_samples[:5],
        "harness_errors": len(bench.harness_errors),
        "harness_error_samples": bench.harness_errors[:5],
    }


if __name__ == "__main__":
    sys.exit(main())
