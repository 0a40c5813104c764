"""Royal Heist at the rehearsal (bench/party.py; bench/rehearsal/game.py
`RehearsalGame`): what its guests' phones and its host do with what their screens show.

The host creates the party with `"game": "royal"` (no budget, no vault: the game has no
gifts), guests join with their name only, the host seats everyone (tables of up to 8),
and every seat still inside decides at once and in secret, `{"type": "decide",
"press_on": ...}` with the version its screen shows, as the game's phone sends it (a
decision is for the room the phone saw), once per step: only when its view's `can_decide` says so and the
view shows its last decision applied. With several tables each stops at the gate
(phase "gate"); once every table is at the gate or over, the host sends the party
command `open_gate`, and the tables play their second half. A fault strikes at heist 2
(every table held there, or at the gate, until it has struck).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping, Sequence
from typing import Any

from bench.rehearsal.game import Copies, RehearsalGame, Room, Screen, plain_private_copies
from bench.rehearsal.hosting import GATE_PHASES, GateKeeper, every_table_held, gates_opened, hold_for_fault
from games.royal.definition import DEFINITION

Json = dict[str, Any]


def press_on(view: Json, rng: random.Random) -> bool:
    """Press on or get out, from what the seat's screen shows: bold while the satchel is
    small and few danger ranks are out (a second card of one of them catches everybody
    inside), more careful as both grow; never quite certain either way."""
    satchel: int = view["seats"][view["you"]]["satchel"]
    dangers = len(view["dangers"])
    risk = 0.16 * dangers + 0.012 * satchel
    return rng.random() < min(0.95, max(0.05, 0.92 - risk))


class RoyalParty:
    """Royal Heist's bots at one party."""

    def __init__(self, room: Room) -> None:
        self.room = room
        # A seat with a decision in flight, and the table version from which it may
        # decide again (its last decision's, once acknowledged): as the phone keeps its
        # buttons locked until the view moves past what it sent.
        self.deciding: set[str] = set()
        self.decided_at: dict[str, int] = {}
        self.gate = GateKeeper(room)

    async def before_seating(self, tables: int) -> None:
        return None  # no gifts, no vault

    def figures(self) -> Json:
        return self.gate.figures()

    def look(self, p: Screen) -> None:
        """A seat still inside decides, once per step, from its view (`can_decide`);
        every seat at once, each in secret."""
        room = self.room
        payload = p.seat_view()
        if payload is None or p.quiet:
            return
        v = payload["view"]
        if hold_for_fault(room, p, payload):
            return
        if v["phase"] != "decide" or not v["can_decide"]:
            return
        if p.name in self.deciding or v["version"] < self.decided_at.get(p.name, 0):
            return  # a decision on its way, or the view not yet showing the one sent
        self.deciding.add(p.name)
        room.spawn(p, ("decide", payload["table"]["id"], v["version"]), self._decide(p))

    async def _decide(self, p: Screen) -> None:
        room = self.room
        try:
            await asyncio.sleep(room.pace.decide())
            payload = p.seat_view()
            if payload is None or not payload["view"]["can_decide"] or room.holding_for_fault(payload["view"]):
                return  # the heist ended under the thumb (caught, or the others got out)
            # The version on the screen, as the game's phone sends it: another seat's
            # decision on the same room does not refuse it, a room that changed under the
            # thumb does (the definition's Clock.since, games/definition.py is_stale).
            view = payload["view"]
            reply = await p.act({"type": "decide", "press_on": press_on(view, room.r)}, version=view["version"])
            self.decided_at[p.name] = reply["version"]
        finally:
            self.deciding.discard(p.name)
            p.changed.set()  # look at the screen again

    async def host(self) -> None:
        """With several tables each stops at the gate, and once every table is at the gate
        or over, the host opens it for all. The party ends when every table is over."""
        await self.gate.host()

    async def fault_moment(self) -> None:
        """Every table held at heist 2 (or at the gate, or over): strike while their
        guests' decisions are all to come; released once the server is down."""
        await every_table_held(self.room, "heist 2")


class RoyalRehearsal:
    phases: Mapping[str, str] = GATE_PHASES

    def party_fields(self, index: int) -> Json:
        # No gifts, so no budget and no vault (the definition's Features).
        return {"name": f"Rehearsal {index + 1}", "game": DEFINITION.name}

    def join_fields(self, party: int, guest: int) -> Json:
        return {}  # a game without gifts asks for no description

    def table_copies(self) -> Copies:
        return plain_private_copies(DEFINITION.private_keys())

    def stage(self, view: Json) -> int:
        reached: int = view["heist"]
        return reached

    def where(self, view: Json) -> str:
        return f"h{view['heist']}/{view['phase']}"

    def holds_for_fault(self, view: Json) -> bool:
        return bool(view["heist"] >= 2 or view["phase"] == "gate")

    def bots(self, room: Room) -> RoyalParty:
        return RoyalParty(room)

    def report(self, tables: Sequence[int], parties: Sequence[Json]) -> Json:
        return {"gates_opened": gates_opened(tables, parties)}


REHEARSAL: RehearsalGame = RoyalRehearsal()
