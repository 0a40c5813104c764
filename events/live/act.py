"""A socket's table action, from its `act` frame to its commit: the road the consumer
(events/live/consumers.py) takes with one call, `socket_act`.

1. From the event loop: the registry checks and parses the frame into an `ActRequest`
   (events/party/commands.py `act_request`, no database), and the party's service writes it
   if the table's writers allow it there (events/party/play.py `table_act_on_loop` ->
   tables/services.py `table_writers`). Most acts end here.
2. Otherwise on the acts' own threads (events/live/lanes.py), never behind other sockets'
   hellos: for a guest whose seat the socket has not re-read, `_seat_then_act`;
   for anyone else the registry's `dispatch`.

A guest's act carries its seat check (`seat_held`) in the write's own statement on
either road, so the seat cannot change between the check and the write.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from events.live import fastread, lanes
from events.models import Guest
from events.party import play
from events.party.commands import Frame, act_request, dispatch
from events.party.roles import Actor, Role
from tables import write
from tables.errors import ServiceError
from tables.outcome import Outcome


@dataclass(frozen=True)
class Acted:
    """An act done: its outcome, and where it was written (for events/live/acttiming.py)."""

    outcome: Outcome
    path: Literal["loop", "threads"]


async def socket_act(
    actor: Actor, frame: Frame, *, secret: str | None, seat_checked: bool, origin: str
) -> Acted | None:
    """One `act` frame of a socket whose hello proved `actor` (and, for a guest or a
    tablet, `secret`). `seat_checked`: a guest's act whose seat check (as
    socket/standing.py `seat_revoked`) is to run in the same database call, just before
    the action. Raises ServiceError (the reply). None: the guest's seat or its rights
    changed; the socket looks again (closes, or refreshes its rights and acts again)."""
    outcome = await _on_loop(actor, frame, secret)
    if outcome is not None:
        return Acted(outcome, "loop")
    if seat_checked:
        outcome = await lanes.run_in("acts", _seat_then_act)(actor, secret, frame, origin)
        if outcome is None:
            return None
    else:  # a host's, captain tablet's or spectator's, or a guest's whose seat was re-read
        outcome = await lanes.run_in("acts", dispatch)(actor, frame, origin=origin)
    return Acted(outcome, "threads")


async def _on_loop(actor: Actor, frame: Frame, secret: str | None) -> Outcome | None:
    """The act written from the event loop in one statement with no thread (a guest's
    with its seat check in it). None: nothing was done (a refusal included: the
    threads decide it again, on the row)."""
    only_if = None
    if actor.role is Role.GUEST:
        if secret is None:
            return None
        only_if = seat_held(actor, secret)
    try:
        request = act_request(actor, frame, only_if=only_if)
    except ServiceError:
        return None
    return await play.table_act_on_loop(request)


def _seat_then_act(actor: Actor, secret: str | None, frame: Frame, origin: str) -> Outcome | None:
    """A guest's act frame: the seat check of socket/standing.py `seat_revoked` and, when
    the seat is still this socket's with the same rights, the action, in one database
    call. None: the seat was handed over or the guest's table, seat or captaincy
    changed (the socket then closes or refreshes its rights, and acts, as for any other
    frame).

    First in one statement: the optimistic write, applied only if the guest's row
    still says what this socket holds (`seat_held`). Otherwise (no hot copy, a
    conflict, a refusal, or a changed seat) the seat is read first, as it always was,
    and the action decided the usual way."""
    if secret is not None:
        try:
            outcome = play.table_act(act_request(actor, frame, only_if=seat_held(actor, secret)))
        except ServiceError:
            outcome = None
        if outcome is not None:
            return outcome
    row = fastread.seat_row(actor.guest_id) if actor.guest_id is not None else None
    if row is not None:
        if row["token_hash"] != secret or row["removed_at"] is not None:
            return None
        fresh = Actor(
            Role.GUEST,
            actor.party_id,
            guest_id=actor.guest_id,
            table_id=row["table_id"],
            seat=row["seat"],
            captain=row["is_captain"],
            game=actor.game,
        )
        if fresh != actor:
            return None
    return dispatch(actor, frame, origin=origin)


def seat_held(actor: Actor, secret: str) -> write.Condition:
    """SQL true while the guest's row says what `actor` and `secret` say: the same
    secret, not removed, the same table, seat and captaincy (as `_seat_then_act`
    compares them)."""
    return write.Condition(
        f"EXISTS (SELECT 1 FROM {Guest._meta.db_table} WHERE id = %s AND token_hash = %s AND removed_at IS NULL"
        " AND table_id = %s AND seat = %s AND is_captain = %s)",
        (actor.guest_id, secret, actor.table_id, actor.seat, actor.captain),
    )
