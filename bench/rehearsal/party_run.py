"""One party, played as it happens in a room: the host's machinery (the party's creation,
the join burst, seating, the sleepers, the fault, the watchdog) around the game's own
bots (bench/rehearsal/game.py, the game's `REHEARSAL`: what its guests and its host do
with what their screens show)."""

from __future__ import annotations

import asyncio
import collections
import random
from typing import TYPE_CHECKING

from bench.rehearsal.clock import log, now
from bench.rehearsal.game import Offline, Refused, rehearsal_of, tables_for
from bench.rehearsal.phone import Phone
from bench.stack import HOST, DaphneServer, party_server

# A person whose tap is refused tries again this many times in all before giving up.
REFUSALS_PER_INTENT = 3

if TYPE_CHECKING:
    from bench.rehearsal.rehearsal import Rehearsal


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
        self.refusals: collections.Counter = collections.Counter()  # refused tries, per intent
        self.done = asyncio.Event()
        self.fault_done = False
        self.fault_started = False
        # Set once the fault has struck. Until then a table at the game's moment for it
        # (`RehearsalGame.holds_for_fault`: e.g. a reaction window of round 2) holds: its guests look at
        # the screen and do not answer yet. Without it a fast machine played the game to
        # its end between two looks of the fault's task, and the run proved nothing about
        # the fault (CI, 2026-12-03).
        self.fault_struck = asyncio.Event()
        self.tables: list[int] = []
        self.csv_rows: int | None = None
        self.game: str = bench.args.game
        rehearsal = rehearsal_of(self.game)
        if rehearsal is None:
            raise LookupError(f"the game {self.game!r} has no rehearsal bots")
        self.rehearsal = rehearsal
        self.quiet: int = bench.args.quiet
        self.bots = rehearsal.bots(self)  # the game's bots at this party

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
        fields = self.rehearsal.party_fields(self.index)
        # Quiet guests: the host's shortest clock, and the server plays for them.
        if b.args.quiet:
            fields.update(step_clock=60, step_clock_server=True)
        for _attempt in range(5):
            status, body = await http.request(srv0.port, "POST", "/api/parties", fields)
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
        tables = tables_for(self.game, len(self.guests))
        await self.bots.before_seating(tables)
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
        brains.append(asyncio.create_task(self.bots.host()))
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
            joining = {"name": f"Guest {i + 1}", **self.rehearsal.join_fields(self.index, i)}
            status, body = await http.request(
                srv.port, "POST", f"/api/parties/{self.code}/guests", joining, source=source
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
            self.bots.look(p)

    # --- what the game's bots use of the party (bench/rehearsal/game.py `Room`) ---------

    def holding_for_fault(self, view: dict) -> bool:
        """A fault that strikes mid-game (every one but drop-phones) has not struck yet,
        and this table has reached the game's moment for it (or its gate)."""
        fault = self.bench.args.fault
        if fault in ("none", "drop-phones") or self.fault_struck.is_set() or view["phase"] == "over":
            return False
        return self.rehearsal.holds_for_fault(view)

    def spawn(self, p: Phone, key: tuple, coro) -> None:
        self._spawn(p, key, coro)

    async def host_command(self, command: str, **args) -> dict | None:
        return await self._host_command(command, **args)

    async def until(self, pred, what: str, timeout: float) -> None:
        await self._until(pred, what, timeout)

    def over(self) -> None:
        self.done.set()

    def harness_error(self, text: str) -> None:
        self.bench.harness_errors.append(text)

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
                # too late: the person looks at the screen again. Refused otherwise,
                # they tap again if the screen still asks them to, as a person at a
                # party does (play.js leaves the buttons live after an error); after
                # REFUSALS_PER_INTENT refusals of one intent they give up, and the
                # watchdog reports the table as stalled.
                self.refusals[key] += 1
                if exc.code == "stale" or self.refusals[key] < REFUSALS_PER_INTENT:
                    self.busy.discard(key)
                p.changed.set()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.bench.harness_errors.append(f"{p.name} {key}: {exc!r}")
                self.busy.discard(key)

        asyncio.ensure_future(run())

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
        """Once, mid-game: drop-phones from the first stage on; any other when the game's
        bots say every table is at the fault's moment (its guests held there)."""
        fault = self.bench.args.fault
        if fault == "drop-phones":
            await self._until(lambda: self._rounds() and min(self._rounds()) >= 1, "the first stage", 3600)
            for p in self.r.sample(list(self.guests.values()), max(1, len(self.guests) * 3 // 10)):
                p.drop_next_send = True
            self.stats.faults.append(
                {"fault": fault, "party": self.index, "armed_phones": max(1, len(self.guests) * 3 // 10)}
            )
            return
        await self.bots.fault_moment()  # the game's moment: every table mid-game
        await self.bench.inject(fault, self)

    def _rounds(self) -> list[int]:
        """How far each table is (the game's stage: a round, a heist), from the host's screen."""
        return [self.rehearsal.stage(v["view"]) for k, v in self.host.views.items() if k[0] == "public"]

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
            if self.bench.faulting or any(
                self.holding_for_fault(v["view"]) for k, v in self.host.views.items() if k[0] == "public"
            ):
                # a server stopped or restarting on purpose, or a table held for the fault
                # to strike: its pause is no stall
                seen.clear()
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
