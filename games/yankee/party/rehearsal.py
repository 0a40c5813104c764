"""Yankee Heist at the rehearsal (bench/party.py; bench/rehearsal/game.py
`RehearsalGame`): what its guests' phones, its captains and its host do with what their
screens show, as people at the party do.

A party is created with a budget and a vault of 1 gift per table; every guest joins
with a wrapped gift's description; the host adds the vault gifts and seats everyone;
each table plays round 1, its captain confirms the reveal, round 2; at the gate
(several tables) the host opens the relay, captains draw seats, the host runs it; each
drawn guest walks their gift to the next table and taps "I delivered it" (a table plays
round 3 once its gift is in and its own carrier has delivered); rounds 3 and 4.
A guest decides only from the seat view it holds (`hand`, `playable`, `can_swipe`,
`can_use_vault`, `asked`, `must_trim`), as the game's phone does (choose.py).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping, Sequence
from typing import Any

from bench.rehearsal.clock import now
from bench.rehearsal.game import Offline, Refused, RehearsalGame, Room, Screen
from bench.rehearsal.hosting import ended_when_over, every_table_shown, hold_for_fault
from games.yankee.views import TableCopies

from .choose import arrival_awaited, carrier_walk, choose_turn

Json = dict[str, Any]

# The longest walk across the room (Pace.walk): a receiving captain waits it out.
LONGEST_WALK_S = 25.0


class YankeeParty:
    """Yankee Heist's bots at one party."""

    def __init__(self, room: Room) -> None:
        self.room = room

    async def before_seating(self, tables: int) -> None:
        room = self.room
        for n in range(tables):  # the vault: one gift per table
            await asyncio.sleep(room.pace.duty() / 4)
            await room.host_command("add_vault_gift", contributor="Host", description=f"vault gift {n + 1}")
        room.mark("vault")

    def figures(self) -> Json:
        return {}

    # --- the guests ------------------------------------------------------------------------

    def look(self, p: Screen) -> None:
        room = self.room
        payload = p.seat_view()
        if payload is None or p.quiet:
            return
        v = payload["view"]
        tid = payload["table"]["id"]
        phase = v["phase"]
        you = v["you"]
        if hold_for_fault(room, p, payload):
            return
        if phase == "action" and v["active"] == you:
            room.spawn(p, ("turn", tid, v["version"]), self._turn(p, v["version"]))
        elif phase == "reaction" and v["asked"]:
            room.spawn(p, ("react", tid, v["window"]["version"]), self._react(p, v["window"]["version"]))
        elif phase == "trim" and v["must_trim"]:
            room.spawn(p, ("trim", tid, v["version"]), self._trim(p))
        if p.me and p.me.get("captain"):
            if phase == "reveal":
                room.spawn(p, ("reveal", tid, v["version"]), self._duty(p, {"type": "confirm_reveal"}, v["version"]))
            relay = (p.party or {}).get("relay") or {}
            if phase == "gate" and v["relay_seat"] is None and relay.get("status") == "open":
                room.spawn(p, ("draw", tid), self._duty(p, {"type": "draw_relay_seat"}, v["version"]))
            if phase == "gate" and room.quiet and arrival_awaited(relay, payload["table"]["letter"]):
                # --quiet: a quiet carrier never taps "delivered"; the gift still arrives,
                # and the receiving captain confirms it once the walk's time is up.
                room.spawn(p, ("arrival", tid), self._arrival(p, tid))
        if phase == "gate":
            to_table = carrier_walk((p.party or {}).get("relay"), payload["table"]["letter"], you)
            if to_table is not None:
                room.spawn(p, ("deliver", tid), self._deliver(p, to_table))

    async def _turn(self, p: Screen, version: int) -> None:
        room = self.room
        await asyncio.sleep(room.pace.think())
        payload = p.seat_view()
        if payload is None or payload["version"] != version:
            p.changed.set()
            return  # the screen changed under the thumb: look again
        for attempt in range(4):
            action = choose_turn(payload["view"], room.r if attempt < 3 else random.Random(0))
            if attempt == 3:
                action = {"type": "regroup", "cards": []}  # a pass is always legal
            try:
                await p.act(action, version=version)
                return
            except Refused as exc:
                if not exc.code.startswith("illegal."):
                    raise
                room.harness_error(f"{p.name}: {action} refused {exc.code}: {exc.msg.get('message')}")

    async def _react(self, p: Screen, window: int) -> None:
        room = self.room
        await asyncio.sleep(room.pace.react())
        payload = p.seat_view()
        blocks = [c["id"] for c in (payload or {}).get("view", {}).get("hand", []) if c["kind"] == "REACTION"]
        card = room.r.choice(blocks) if blocks and room.r.random() < 0.4 else None
        # The version the screen shows, as every act carries (the window names its own moment).
        version = payload["version"] if payload else window
        await p.act({"type": "react", "card": card, "window": window}, version=version)

    async def _trim(self, p: Screen) -> None:
        room = self.room
        await asyncio.sleep(room.pace.trim())
        payload = p.seat_view()
        if payload is None:
            return
        v = payload["view"]
        if v["phase"] != "trim" or not v["must_trim"]:
            p.changed.set()
            return
        cards = room.r.sample([c["id"] for c in v["hand"]], v["must_trim"])
        await p.act({"type": "trim", "cards": cards}, version=payload["version"])

    async def _confirm_delivery(self, p: Screen, table: int) -> None:
        """Tap "delivered" until answered (a tap whose reply was lost: tap again; a
        second confirmation changes nothing)."""
        for _attempt in range(20):
            try:
                await asyncio.wait_for(p.command("confirm_delivery", table=table), 30)
                return
            except (TimeoutError, Offline):
                await asyncio.sleep(self.room.pace.retry())
        raise RuntimeError(f"{p.name}: no answer to confirm_delivery after 20 taps")

    async def _deliver(self, p: Screen, to_table: int) -> None:
        """The carrier walks the relay gift to the next table, then says so on the phone."""
        await asyncio.sleep(self.room.pace.walk())
        await self._confirm_delivery(p, to_table)

    async def _arrival(self, p: Screen, tid: int) -> None:
        """The receiving captain confirms the relay gift put down at the table: after the
        longest walk, so a carrier who answers is the one who confirms (docs/RULES.md)."""
        pace = self.room.pace
        await asyncio.sleep(pace.seconds(LONGEST_WALK_S) + pace.duty() + 1)
        await self._confirm_delivery(p, tid)

    async def _duty(self, p: Screen, action: Json, version: int) -> None:
        await asyncio.sleep(self.room.pace.duty())
        await p.act(action, version=version)

    # --- the host ----------------------------------------------------------------------

    async def host(self) -> None:
        room = self.room
        h = room.host
        assert h is not None
        multi = len(room.tables) > 1
        while True:
            shown = await every_table_shown(room)
            views = list(shown.values())
            phases = [v["view"]["phase"] for v in views]
            if "reveal" in phases:
                room.mark("first_reveal")
            if ended_when_over(room, shown):
                return
            if not multi:
                continue
            relay = (h.party or {}).get("relay") or {}
            if all(ph == "gate" for ph in phases):
                room.mark("at_gate")
                if not relay:
                    await asyncio.sleep(room.pace.duty())
                    ok = await room.host_command("open_relay")
                    if ok is not None:
                        room.mark("relay_open")
                        h.changed.set()
                    continue
                if relay.get("status") == "open" and all(v["view"]["relay_seat"] is not None for v in views):
                    await asyncio.sleep(room.pace.duty())
                    ok = await room.host_command("run_relay")
                    if ok is not None:
                        room.mark("relay_done")
                    continue
            if any(v["view"]["relayed"] for v in views):
                room.mark("relay_done")
            if all(v["view"]["relayed"] for v in views):
                room.mark("walk_over")

    async def fault_moment(self) -> None:
        """In round 2: when a reaction window is open, or at the latest by the round's end."""
        room = self.room
        h = room.host
        assert h is not None

        def stages() -> list[int]:
            return [REHEARSAL.stage(v["view"]) for k, v in h.views.items() if k[0] == "public"]

        await room.until(lambda: bool(stages()) and min(stages()) >= 2, "round 2", 3600)
        end = now() + 30 * (room.pace.scale if room.pace.human else 0.2)
        while now() < end:
            if "reaction" in [v["view"]["phase"] for v in h.views.values()]:
                break
            await asyncio.sleep(0.05)


class YankeeRehearsal:
    phases: Mapping[str, str] = {
        "vault": "vault_gifts",
        "seated": "seating",
        "first_reveal": "round_1",
        "at_gate": "reveal_round_2_to_gate",
        "relay_open": "gate_to_relay_open",
        "relay_done": "relay",
        "walk_over": "relay_walk",
        "over": "rounds_3_4",
    }

    def party_fields(self, index: int) -> Json:
        return {"name": f"Rehearsal {index + 1}", "budget": "$20", "vault_size": 1}

    def join_fields(self, party: int, guest: int) -> Json:
        return {"description": f"wrapped gift {party + 1}.{guest + 1}"}

    def table_copies(self) -> TableCopies:
        return TableCopies()

    def stage(self, view: Json) -> int:
        reached: int = view["round"]
        return reached

    def where(self, view: Json) -> str:
        return f"r{view['round']}/{view['phase']}"

    def holds_for_fault(self, view: Json) -> bool:
        return bool(view["round"] > 2 or (view["round"] == 2 and view["phase"] == "reaction"))

    def bots(self, room: Room) -> YankeeParty:
        return YankeeParty(room)

    def report(self, tables: Sequence[int], parties: Sequence[Json]) -> Json:
        return {}


REHEARSAL: RehearsalGame = YankeeRehearsal()
