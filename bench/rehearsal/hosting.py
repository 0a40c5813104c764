"""What the host's dashboard and the guests' phones do the same way at every game's
rehearsal (bench/rehearsal/game.py `Room`): the games' bots call these rather than write
them again. Watching until every table is over, opening the gate for all once every table
waits at it, a phone's wait while its table is held for the run's fault, and the fault's
moment once every table is held."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from .game import Room, Screen

Json = dict[str, Any]


def hold_for_fault(room: Room, p: Screen, payload: Json) -> bool:
    """True when the table of `payload` (screen `p`'s seat message) waits for the run's
    fault to strike: the phone answers nothing and looks at its screen again once the
    fault struck (once per table version)."""
    view = payload["view"]
    if not room.holding_for_fault(view):
        return False
    room.spawn(p, ("hold", payload["table"]["id"], view["version"]), _look_again_after_fault(room, p))
    return True


async def _look_again_after_fault(room: Room, p: Screen) -> None:
    await room.fault_struck.wait()
    p.changed.set()


async def every_table_held(room: Room, what: str) -> None:
    """Return once every table the host's screen shows is held for the fault (or over):
    the fault strikes while their guests' answers are all to come. `what` names the
    moment in a timeout's message."""
    h = room.host
    assert h is not None

    def held() -> bool:
        public = [v["view"] for k, v in h.views.items() if k[0] == "public"]
        return bool(public) and all(room.holding_for_fault(v) or v["phase"] == "over" for v in public)

    await room.until(held, what, 3600)


async def every_table_shown(room: Room) -> dict[int, Json]:
    """The host's screen's next change at which it is connected and shows every table's
    public message: table id -> that message."""
    h = room.host
    assert h is not None
    while True:
        await h.changed.wait()
        h.changed.clear()
        if not h.ready:
            continue
        got = {t: h.views.get(("public", t)) for t in room.tables}
        views = {t: v for t, v in got.items() if v is not None}
        if len(views) == len(got):
            return views


def ended_when_over(room: Room, views: dict[int, Json]) -> bool:
    """The party ends (`Room.over`, its "over" mark) when every table in `views` is over."""
    if not all(v["view"]["phase"] == "over" for v in views.values()):
        return False
    room.mark("over")
    room.over()
    return True


async def watch_until_over(room: Room) -> None:
    """The host's dashboard of a game it has nothing to do in: watching until every
    table is over."""
    while True:
        if ended_when_over(room, await every_table_shown(room)):
            return


# The phases (RehearsalGame.phases) of a party whose host is a GateKeeper: its marks and
# the host's "seated", each with the name of the span it ends.
GATE_PHASES: Mapping[str, str] = {
    "seated": "seating",
    "at_gate": "first_half",  # seated until every table is at the gate (or over)
    "gate_open": "gate",  # the host's open_gate
    "over": "second_half",
}


class GateKeeper:
    """The host's dashboard of a game whose tables stop at the gate (phase "gate"): once
    every table is at the gate or over, the host opens it for all (the party command
    open_gate, as the dashboard does); the party ends when every table is over. Marks
    "at_gate" when it is about to open, "gate_open" once opened."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.opened = 0  # the host's open_gate commands answered ok

    async def host(self) -> None:
        room = self.room
        h = room.host
        assert h is not None
        opened: dict[int, int] = {}  # table -> its version when the host's last open_gate was answered
        while True:
            views = await every_table_shown(room)
            if ended_when_over(room, views):
                return
            phases = [v["view"]["phase"] for v in views.values()]
            at_gate = [t for t, v in views.items() if v["view"]["phase"] == "gate"]
            if not at_gate or not all(ph in ("gate", "over") for ph in phases):
                continue
            # A gate the host opened already shows until its table's update arrives.
            if any(views[t]["version"] <= opened.get(t, -1) for t in at_gate):
                continue
            if any(room.holding_for_fault(v["view"]) for v in views.values()):
                await room.fault_struck.wait()  # held for the fault, as the guests are
                h.changed.set()
                continue
            room.mark("at_gate")
            await asyncio.sleep(room.pace.duty())
            ok = await room.host_command("open_gate")
            if ok is not None:
                self.opened += 1
                room.mark("gate_open")
                opened.update({t: views[t]["version"] for t in at_gate})
            h.changed.set()

    def figures(self) -> Json:
        """This party's figure for `gates_opened` (PartyBots.figures)."""
        return {"gate_commands": self.opened}


def gates_opened(tables: Sequence[int], parties: Sequence[Json]) -> Json:
    """The report's figure of a game with a GateKeeper: the host's open_gate commands
    answered (each party's `GateKeeper.figures`), and the tables whose action log has the
    gate's opening (each table at the gate, once per open_gate)."""
    from tables.models import TableAction

    return {
        "commands": sum(p["gate_commands"] for p in parties),
        "tables": TableAction.objects.filter(table_id__in=list(tables), action__type="open_gate").count(),
    }
