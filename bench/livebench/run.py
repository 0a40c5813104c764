"""One run of both phases: the sockets connected, turns then windows timed, CPU and leaks read."""

from __future__ import annotations

import asyncio
import collections
import json
import math
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import orjson

from bench.disk import DiskProbe
from bench.disk import summary as disk_summary
from bench.livebench.clients import GameRun, Move, Sock, Table, Window
from bench.livebench.database import create_game, replay_check
from bench.livebench.measures import DB_PROCS, GcPauses, ms, now, procs_cpu_delta, procs_cpu_s, self_cpu_s, stats
from bench.livebench.servers import HOST
from bench.stack import party_server


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
