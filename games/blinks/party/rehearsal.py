"""Blinks Heist at the rehearsal (bench/party.py; bench/rehearsal/game.py
`RehearsalGame`): what its guests' phones and its host do with what their screens show.

The host creates the party with `"game": "blinks"` and a small vault (`options`: 3
Blinks a table, so a rehearsal's tables finish in minutes), guests join with their name
only, the host seats everyone (tables of up to 8, four teams drawn across them). The
throw is physical: the thrower's phone records it once its view says `your_turn` and no
record waits (`throw`, with the view's `next_throw`: a hit on a Blink still in the vault
one time in two, a touch on the way back one in twenty), and the captain's phone
settles the record its view shows waiting (`confirm`). A fault strikes once every table
has a claimed Blink (each held there until it struck). A quiet guest (`--quiet`, never a
captain) never records: once the step clock runs out the server passes their turn (the
definition's stand-in, `pass_turn`; the report's `clock_passes`), and the table goes on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from bench.rehearsal.game import Copies, RehearsalGame, Room, Screen, plain_private_copies
from bench.rehearsal.hosting import every_table_held, hold_for_fault, watch_until_over
from games.blinks.definition import DEFINITION

Json = dict[str, Any]

VAULT = 3  # Blinks a rehearsal table: 12 hits to empty it
HIT_RATE = 0.5
TOUCH_RATE = 0.05


class BlinksParty:
    """Blinks Heist's bots at one party."""

    def __init__(self, room: Room) -> None:
        self.room = room
        # A phone with a tap in flight, and the table version from which it may tap
        # again (its last tap's, once answered): the phone's buttons wait for its view.
        self.busy: set[str] = set()
        self.tapped_at: dict[str, int] = {}
        self.records = 0
        self.confirms = 0

    async def before_seating(self, tables: int) -> None:
        return None  # no gifts, no vault gifts: the vault is on the table

    def figures(self) -> Json:
        return {"records": self.records, "confirms": self.confirms}

    def look(self, p: Screen) -> None:
        """The thrower records their throw; the captain confirms the record waiting."""
        room = self.room
        payload = p.seat_view()
        if payload is None or p.quiet:
            return
        v = payload["view"]
        if v["phase"] == "over":
            return
        if hold_for_fault(room, p, payload):
            return
        if p.name in self.busy or v["version"] < self.tapped_at.get(p.name, 0):
            return
        captain = bool(p.me and p.me.get("captain"))
        if v["pending"] is not None and captain:
            self.busy.add(p.name)
            room.spawn(p, ("confirm", payload["table"]["id"], v["pending"]["throw"]), self._tap(p, "confirm"))
        elif v["your_turn"] and v["pending"] is None:
            self.busy.add(p.name)
            room.spawn(p, ("throw", payload["table"]["id"], v["next_throw"]), self._tap(p, "throw"))

    async def _tap(self, p: Screen, kind: str) -> None:
        room = self.room
        try:
            await asyncio.sleep(room.pace.duty() if kind == "confirm" else room.pace.think())
            payload = p.seat_view()
            if payload is None:
                return
            v = payload["view"]
            if room.holding_for_fault(v) or v["phase"] == "over":
                return
            if kind == "confirm":
                if v["pending"] is None:
                    return
                action: Json = {"type": "confirm", "throw": v["pending"]["throw"]}
            else:
                if not v["your_turn"] or v["pending"] is not None:
                    return
                left = [b["blink"] for b in v["vault"] if b["claimed_by"] is None]
                hit = room.r.choice(left) if room.r.random() < HIT_RATE else None
                action = {
                    "type": "throw",
                    "seat": v["you"],
                    "throw": v["next_throw"],
                    "hit": hit,
                    "touched": room.r.random() < TOUCH_RATE,
                }
            reply = await p.act(action, version=v["version"])
            self.tapped_at[p.name] = reply["version"]
            if kind == "confirm":
                self.confirms += 1
            else:
                self.records += 1
        finally:
            self.busy.discard(p.name)
            p.changed.set()

    async def host(self) -> None:
        """The host watches until every table's vault is empty."""
        await watch_until_over(self.room)

    async def fault_moment(self) -> None:
        """Every table held with a claimed Blink (or over): strike mid-game."""
        await every_table_held(self.room, "a claimed Blink at every table")


class BlinksRehearsal:
    phases: Mapping[str, str] = {"seated": "seating", "over": "play"}

    def party_fields(self, index: int) -> Json:
        return {"name": f"Rehearsal {index + 1}", "game": DEFINITION.name, "options": {"vault": VAULT}}

    def join_fields(self, party: int, guest: int) -> Json:
        return {}  # a game without gifts asks for no description

    def table_copies(self) -> Copies:
        return plain_private_copies(DEFINITION.private_keys())

    def stage(self, view: Json) -> int:
        claimed: int = len(view["vault"]) - view["left"]
        return claimed

    def where(self, view: Json) -> str:
        return f"t{view['next_throw']}/{view['left']}left/{view['phase']}"

    def holds_for_fault(self, view: Json) -> bool:
        return bool(view["left"] < len(view["vault"]) and view["phase"] != "over")

    def bots(self, room: Room) -> BlinksParty:
        return BlinksParty(room)

    def report(self, tables: Sequence[int], parties: Sequence[Json]) -> Json:
        """The throws recorded and confirmed by the phones, and the tables' settled throws
        in their action logs (a record that counted twice would show here)."""
        from tables.models import TableAction

        logged = TableAction.objects.filter(table_id__in=list(tables))
        return {
            "throws": {
                "recorded": sum(p["records"] for p in parties),
                "confirmed": sum(p["confirms"] for p in parties),
                "logged_records": logged.filter(action__type="throw").count(),
                "logged_confirms": logged.filter(action__type="confirm").count(),
            }
        }


REHEARSAL: RehearsalGame = BlinksRehearsal()
