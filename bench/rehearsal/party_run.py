"""One party, played as it happens in a room: the host's and the guests' bots, the sleepers,
the fault's moment and the watchdog."""

from __future__ import annotations

import asyncio
import collections
import random
from typing import TYPE_CHECKING

from bench.choose import arrival_awaited, carrier_walk, choose_turn
from bench.rehearsal.clock import log, now
from bench.rehearsal.options import tables_for
from bench.rehearsal.phone import Offline, Phone, Refused
from bench.rehearsal.royal import press_on, stage
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
        # Set once the fault has struck. Until then a table in round 2's reaction window (or
        # past it) holds: its guests look at the window and do not answer yet. Without
        # it a fast machine played round 2 to the game's end between two looks of the
        # fault's task, and the run proved nothing about the fault (CI, 2026-12-03).
        self.fault_struck = asyncio.Event()
        self.tables: list[int] = []
        self.csv_rows: int | None = None
        self.game: str = bench.args.game
        # Royal Heist: a seat with a decision in flight, and the table version from which
        # it may decide again (its last decision's, once acknowledged): as play.js keeps
        # its buttons locked until the view moves past what it sent.
        self.deciding: set[str] = set()
        self.decided_at: dict[str, int] = {}
        self.gates_opened = 0  # the host's open_gate commands answered ok

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
        if self.game == "royal":
            # No gifts, so no budget and no vault (the Royal definition's Features).
            fields: dict = {"name": f"Rehearsal {self.index + 1}", "game": "royal"}
        else:
            fields = {"name": f"Rehearsal {self.index + 1}", "budget": "$20", "vault_size": 1}
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
        if self.game == "yankee":  # Royal Heist has no vault
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
        brains.append(asyncio.create_task(self._host_brain() if self.game == "yankee" else self._royal_host()))
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
            joining = {"name": f"Guest {i + 1}"}
            if self.game == "yankee":  # a game without gifts asks for no description
                joining["description"] = f"wrapped gift {self.index + 1}.{i + 1}"
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
            if self.game == "royal":
                self._decide_royal(p)
            else:
                self._decide(p)

    def _decide_royal(self, p: Phone) -> None:
        """Royal Heist: a seat still inside decides, once per step, from its view
        (`can_decide`); every seat at once, each in secret."""
        payload = p.seat_view()
        if payload is None or p.quiet:
            return
        v = payload["view"]
        if self._holding_for_fault(v):
            self._spawn(p, ("hold", payload["table"]["id"], v["version"]), self._hold(p))
            return
        if v["phase"] != "decide" or not v["can_decide"]:
            return
        if p.name in self.deciding or v["version"] < self.decided_at.get(p.name, 0):
            return  # a decision on its way, or the view not yet showing the one sent
        self.deciding.add(p.name)
        self._spawn(p, ("decide", payload["table"]["id"], v["version"]), self._royal_decide(p, v["version"]))

    async def _royal_decide(self, p: Phone, version: int) -> None:
        try:
            await asyncio.sleep(self.pace.decide())
            payload = p.seat_view()
            if payload is None or not payload["view"]["can_decide"] or self._holding_for_fault(payload["view"]):
                return  # the heist ended under the thumb (caught, or the others got out)
            # The version on the screen, as royal/play.js: another seat's decision on the
            # same room does not refuse it, a room that changed under the thumb does.
            view = payload["view"]
            reply = await p.act({"type": "decide", "press_on": press_on(view, self.r)}, version=view["version"])
            self.decided_at[p.name] = reply["version"]
        finally:
            self.deciding.discard(p.name)
            p.changed.set()  # look at the screen again

    def _decide(self, p: Phone) -> None:
        payload = p.seat_view()
        if payload is None or p.quiet:
            return
        v = payload["view"]
        tid = payload["table"]["id"]
        phase = v["phase"]
        you = v["you"]
        if self._holding_for_fault(v):
            self._spawn(p, ("hold", tid, v["version"]), self._hold(p))
            return
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

    def _holding_for_fault(self, view: dict) -> bool:
        """A fault that strikes mid-game (every one but drop-phones) has not struck yet,
        and this table is at Yankee Heist's round 2 reaction window or later, or at Royal
        Heist's heist 2 or later, or at its gate."""
        fault = self.bench.args.fault
        if fault in ("none", "drop-phones") or self.fault_struck.is_set() or view["phase"] == "over":
            return False
        if self.game == "royal":
            return view["heist"] >= 2 or view["phase"] == "gate"
        return view["round"] > 2 or (view["round"] == 2 and view["phase"] == "reaction")

    async def _hold(self, p: Phone) -> None:
        await self.fault_struck.wait()
        p.changed.set()  # look at the screen again

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

    async def _royal_host(self) -> None:
        """Royal Heist's host: with several tables each stops at the gate, and once every
        table is at the gate or over, the host opens it for all (open_gate, as host.js
        royalGate). The party ends when every table is over."""
        h = self.host
        opened: dict[int, int] = {}  # table -> its version when the host's last open_gate was answered
        while True:
            await h.changed.wait()
            h.changed.clear()
            if not h.ready:
                continue
            views = {t: h.views.get(("public", t)) for t in self.tables}
            if any(v is None for v in views.values()):
                continue
            phases = [v["view"]["phase"] for v in views.values()]
            if all(ph == "over" for ph in phases):
                self.mark("over")
                self.done.set()
                return
            at_gate = [t for t, v in views.items() if v["view"]["phase"] == "gate"]
            if not at_gate or not all(ph in ("gate", "over") for ph in phases):
                continue
            # A gate the host opened already shows until its table's update arrives.
            if any(views[t]["version"] <= opened.get(t, -1) for t in at_gate):
                continue
            if any(self._holding_for_fault(v["view"]) for v in views.values()):
                await self.fault_struck.wait()  # held for the fault, as the guests are
                h.changed.set()
                continue
            self.mark("at_gate")
            await asyncio.sleep(self.pace.duty())
            ok = await self._host_command("open_gate")
            if ok is not None:
                self.gates_opened += 1
                self.mark("gate_open")
                opened.update({t: views[t]["version"] for t in at_gate})
            h.changed.set()

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
        if self.game == "royal":
            # Every table held at heist 2 (or at the gate, or over): strike while their
            # guests' decisions are all to come; released once the server is down.
            await self._until(
                lambda: (
                    self._rounds()
                    and all(
                        self._holding_for_fault(v["view"]) or v["view"]["phase"] == "over"
                        for k, v in self.host.views.items()
                        if k[0] == "public"
                    )
                ),
                "heist 2",
                3600,
            )
            await self.bench.inject(fault, self)
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
        """Each table's round (Yankee Heist) or heist (Royal Heist), from the host's screen."""
        return [stage(self.game, v["view"]) for k, v in self.host.views.items() if k[0] == "public"]

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
                self._holding_for_fault(v["view"]) for k, v in self.host.views.items() if k[0] == "public"
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
