"""Reads: what each audience's screen gets for a table. Views come from the table's
game definition only (games/definition.py), decorated with names and labels."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

import orjson
from django.utils import timezone

from games.definition import gifts_of, relay_of
from games.event import Event

from .models import Table

# The screens' `reaction_timeout` (docs/PROTOCOL.md): what a screen counts a step the
# rules let be passed down from. The server's own pass reads the definition's
# `Clock.rules_pass` (tables/clock.py); a game whose rules pass one after other seconds
# would send its own here.
REACTION_TIMEOUT_SECONDS = 60


def roster_tag(roster: list[Any]) -> str:
    """A short name for this roster: a patch (tables/broadcast.py) leaves the roster out
    and carries its tag, so a screen that missed a new roster knows it and resyncs."""
    return format(zlib.crc32(orjson.dumps(roster)), "08x")


def step_for_screens(table: Table, game: Any) -> dict[str, Any] | None:
    """The step `game` waits on, as the screens' stand-in buttons read it (static/heist/
    standin.js): its name (the game's own: its page texts are keyed by it), the seats it
    waits for, the clock's stand-in action for the first of them (`seat` set to each
    seat's own for the others) and the rules' own pass (seconds from the window's
    opening, or None). None: the game waits for nobody (the gate, the end)."""
    definition = table.definition
    clock = definition.clock(game, {})
    if clock is None:
        return None
    return {
        "name": clock.step,
        "waiting": list(clock.waiting),
        "stand_in": definition.action_to_dict(clock.stand_in),
        "rules_pass": clock.rules_pass,
    }


def relay_draw_for_screens(table: Table, game: Any) -> dict[str, Any] | None:
    """The seat this table's captain drew to carry a gift in the party's relay and the
    gift in front of it now (`{seat, gift, label}`: the gift's id and the label on its
    tag), from the game's relay and gifts parts (games/definition.py RelaysGifts,
    HoldsGifts): the host's party bar counts and lists the draws without knowing where a
    game's view keeps them or how it labels a gift. None before the draw, and for a game
    without the relay."""
    definition = table.definition
    if not definition.features.relay:
        return None
    seat = relay_of(definition).relay_seat(game)
    if seat is None:
        return None
    gifts = gifts_of(definition)
    gift = gifts.seat_gifts(game)[seat]
    return {"seat": seat, "gift": gift, "label": gifts.gift_label(gift)}


def table_meta(table: Table, game: Any) -> dict[str, Any]:
    opened = table.window_opened_at
    return {
        "id": table.pk,
        "letter": table.letter,
        "roster": table.roster,
        "roster_tag": roster_tag(table.roster),
        "window_opened_at": opened.timestamp() if opened else None,
        "reaction_timeout": REACTION_TIMEOUT_SECONDS,
        # The step clock (tables/clock.py): seconds per step (0: off), whether the
        # server plays the do-nothing choice itself, and when the step waiting now runs out.
        "step_clock": table.step_clock,
        "step_clock_server": table.step_clock_server,
        "step_due_at": table.step_due_at.timestamp() if table.step_due_at else None,
        "step": step_for_screens(table, game),
        "relay_draw": relay_draw_for_screens(table, game),
        "acted_at": table.updated_at.timestamp(),  # the last action: the host sees an idle table
        "server_time": timezone.now().timestamp(),
    }


def table_payload(
    table: Table, game: Any, seat: int | None, events: Sequence[Event] = (), meta: dict[str, Any] | None = None
) -> dict[str, Any]:
    """One socket's update: its view of the table at this version, and the events of
    the action that produced it that this audience may see. `meta` (table_meta) may be
    passed in when one action builds a payload for every seat."""
    definition = table.definition
    view = definition.seat_view(game, seat) if seat is not None else definition.public_view(game)
    seen = []
    for e in events:
        v = e.view(seat)
        if v is not None:
            seen.append(v)
    meta = meta if meta is not None else table_meta(table, game)
    return {"type": "table", "version": definition.version(game), "table": meta, "view": view, "events": seen}


def table_game(table: Table) -> Any:
    """The table's game state, as its definition reads the stored row."""
    return table.definition.from_dict(table.state)
