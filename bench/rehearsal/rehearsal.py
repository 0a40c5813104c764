"""The run: the servers of the stack, the parties at once, the faults injected into them,
and the samples of memory, load and PostgreSQL connections taken along."""

from __future__ import annotations

import asyncio
import gc
import random
import tempfile
import time
from pathlib import Path

from bench.disk import DiskProbe
from bench.live import GcPauses, proc_cpu_s
from bench.rehearsal.clock import now
from bench.rehearsal.http_client import Http
from bench.rehearsal.pace import Pace
from bench.rehearsal.party_run import PartyRun
from bench.rehearsal.phone import PING_S, PONG_GRACE_S
from bench.rehearsal.procfs import postgres_pids, pss_kb, rss_kb
from bench.rehearsal.stats import Stats
from bench.stack import HOST, DaphneServer, PostgresServer, RedisServer

# A daphne's start, first or after a fault: on a 2-core machine shared with other jobs
# (load 15) importing Django and the apps took over the old 30 s.
START_TIMEOUT_S = 120
FREEZE_EVERY_S = 10  # the harness's collector: see _sample_load
# Quiet at the end: a ping, its pong, and the grace before a resync it asks for (phone.py).
SETTLE_S = PING_S + PONG_GRACE_S + 0.3


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
        """A line every 30 s: where each party's tables are, from the host's screen."""
        while True:
            await asyncio.sleep(30)
            for party in self.parties:
                if party.host is None:
                    continue
                views = sorted(party.host.views.items())
                party.log(
                    " ".join(f"{v['table']['letter']}:{party.rehearsal.where(v['view'])}" for _, v in views) or "lobby"
                )

    async def inject(self, fault: str, party: PartyRun) -> None:
        async with self.fault_lock:
            party.fault_started = True
            self.faulting = True
            # Each branch of _inject releases the held guests (PartyRun.fault_struck) once
            # the server is down, so that their answers meet the fault: resent, not lost.
            try:
                entry = await self._inject(fault, party)
            finally:
                self.faulting = False
                party.fault_struck.set()  # the held guests answer, whatever happened
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
        extra: dict = {"tables_at": sorted(party.rehearsal.where(v["view"]) for v in party.host.views.values())}
        victim = party.socket_servers(self.servers[-1])[0]
        if fault == "restart-postgres":
            party.log(f"restart PostgreSQL :{self.pg.port} (fast shutdown)")
            await asyncio.to_thread(self.pg.shut_down)
            party.fault_struck.set()
            await asyncio.sleep(2)  # down 2 s, as the other restarts
            await asyncio.to_thread(self.pg.start)
        elif fault == "sleep-laptop":
            party.log(f"SIGSTOP daphne :{victim.port} for {self.args.sleep:.0f}s")
            victim.suspend()
            party.fault_struck.set()
            try:
                await asyncio.sleep(self.args.sleep)
            finally:
                victim.resume()
        elif fault == "ctrl-c":
            party.log(f"SIGINT daphne :{victim.port}")
            extra["exit_status"] = await asyncio.to_thread(victim.interrupt)
            party.fault_struck.set()
            extra["stopped_s"] = round(now() - t, 1)
            await asyncio.to_thread(victim.start, START_TIMEOUT_S)
        elif fault == "kill-daphne":
            # the daphne holding this party's sockets (the second, when they are spread)
            party.log(f"kill -9 daphne :{victim.port}")
            victim.kill9()
            party.fault_struck.set()
            await asyncio.sleep(2)
            await asyncio.to_thread(victim.start, START_TIMEOUT_S)
        elif fault == "restart-redis":
            party.log(f"kill -9 redis-server :{self.redis.port}")
            self.redis.kill9()
            party.fault_struck.set()
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
        nothing pending, and no news (a frame other than a pong) for SETTLE_S: long enough
        for each screen's next pong, and the resync it may start, to come."""
        phones = [p for party in self.parties for p in [party.host, *party.guests.values()] if p and not p.stopped]
        end = now() + timeout
        while now() < end:
            # Not last_frame: each screen's pong every PING_S kept all of them from being
            # quiet at once, so every run waited the whole timeout here.
            quiet = all(p.ready and not p.pending and now() - p.last_news > SETTLE_S for p in phones)
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
        self.memory["daphne_idle_mb"] = round(sum(rss_kb(pid) for pid in servers) / 1024, 1)
        while True:
            daphnes = [s.proc.pid for s in self.servers if s.proc and s.proc.poll() is None]
            others = [self.redis.proc.pid] if self.redis and self.redis.proc else []
            if self.pg_root is not None:
                others += postgres_pids(self.pg_port)
            daphne_kb = sum(rss_kb(pid) for pid in daphnes)
            total_kb = sum(pss_kb(pid) for pid in daphnes + others)
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
