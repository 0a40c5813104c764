"""Every wire command in one place: who may send it, its arguments, its service.

A screen sends two kinds of command frame (docs/PROTOCOL.md):

  {"type": "act", "re": ..., "table": 3, "version": 12, "action": {"type": "play", ...}}
  {"type": "party", "re": ..., "command": "seat", ...arguments}

`dispatch` runs either the same way: find the command (a table action by its action
type, a party command by name), ask the role table whether this actor may send it
(events/party/roles.py), parse and type-check its arguments (here, and nowhere else; the
engine parses an action's own fields), call its service, and return the service's
Outcome. A table action's arguments are one `ActRequest` (tables/services.py), and
its service the party's `play.table_act`. Transports (the socket, and in-process
callers such as the tests) do nothing else: they authenticate, call `dispatch`, reply
with `Outcome.data` and send `Outcome.messages` after commit; the socket's act takes
`act_request` (the same checks and parsing, not run) to write it from the event loop
first (events/live/act.py). Every refusal is a ServiceError (tables/errors.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_noop

from events.models import Guest
from events.party import play, services, tablets
from events.party.roles import (
    Actor,
    Role,
    check_action_role,
    check_own_guest,
    check_own_seat,
    check_party_command,
    check_table_action,
    delivery_confirmer,
)
from games.definition import Definition, NamesWireTypes, checks_seen
from games.definition import Role as GameRole
from games.errors import IllegalActionError, MalformedActionError
from games.registry import game_named
from relay.selectors import delivery_leg
from relay.services import deliveries_confirm_all, delivery_confirm, relay_open, relay_run
from tables.errors import ErrorCode, Forbidden, Illegal, ServiceError, engine_rules
from tables.outcome import Outcome
from tables.services import ActRequest
from tables.write import Condition

Args = dict[str, Any]  # a command's parsed arguments, keyword arguments of its service call
Frame = dict[str, Any]  # a command frame as the socket parsed it (docs/PROTOCOL.md)


@dataclass(frozen=True)
class Command:
    name: str
    frame: str  # "act" (a table action) or "party" (a party command)
    check: Callable[[Actor, Frame], None]  # the role table's verdict on the frame; raises Forbidden
    parse: Callable[[Actor, Frame], Args]  # the frame's arguments, type-checked; raises ServiceError
    run: Callable[[Actor, Args], Outcome]  # the service


# --- argument parsers ------------------------------------------------------------------


def _an_id(value: object, question: str) -> int:
    """An id from a frame: an int, not "1", 1.5 or True (the ORM would coerce those)."""
    if type(value) is not int:
        raise ServiceError(ErrorCode.INVALID, gettext(question))
    return value


def _no_args(actor: Actor, frame: Frame) -> Args:
    return {}


def _guest(actor: Actor, frame: Frame) -> Args:
    return {"guest_id": _an_id(frame.get("guest"), gettext_noop("which guest?"))}


def _act_frame(actor: Actor, frame: Frame) -> tuple[str, Frame]:
    """An act frame's envelope: (the action's type, the frame with its table filled in)."""
    version = frame.get("version")
    if version is not None and type(version) is not int:
        raise ServiceError(ErrorCode.MALFORMED, gettext("version must be an integer"))
    table_id = frame.get("table", actor.table_id)
    if type(table_id) is not int:
        raise ServiceError(ErrorCode.MALFORMED, gettext("which table?"))
    action = frame.get("action")
    if not isinstance(action, dict):
        raise Illegal(MalformedActionError("an action must be a JSON object"))
    kind = action.get("type")
    if not isinstance(kind, str):
        raise Illegal(MalformedActionError("an action needs a type"))
    return kind, {**frame, "table": table_id}


def _check_action(actor: Actor, frame: Frame) -> None:
    """The refusal by wire type, before parsing, of a game that names its wire types
    (`NamesWireTypes`); every game's verdict on the parsed action is `_act_request`'s
    (`check_action_role`)."""
    definition = game_named(actor.game)
    if isinstance(definition, NamesWireTypes):
        action = frame["action"]
        role = definition.wire_roles().get(action["type"])
        check_table_action(actor, frame["table"], role)
        check_own_seat(actor, action, role)


def _parse_action(actor: Actor, frame: Frame) -> Args:
    return {"request": _act_request(actor, frame)}


def _parsed(definition: Definition, actor: Actor, action: dict[str, Any]) -> Any:
    """The action through the table's game definition. A guest's own action names no
    seat: the seat is the guest's (a seat acts for itself), when the game says the
    action so filled is a seat's; otherwise it is parsed as sent (a captain's pass
    names the seat it passes)."""
    with engine_rules(definition):
        if actor.role is Role.GUEST and actor.seat is not None and "seat" not in action:
            first: IllegalActionError | None
            try:
                mine = definition.parse_action({**action, "seat": actor.seat})
            except IllegalActionError as exc:
                mine, first = None, exc
            else:
                if definition.role_of(mine) is GameRole.SEAT:
                    return mine
                first = None
            try:
                return definition.parse_action(action)
            except IllegalActionError:
                if first is not None:
                    raise first from None  # the seat's own action's error says what is wrong
                raise
        return definition.parse_action(action)


def _act_request(actor: Actor, frame: Frame, only_if: Condition | None = None) -> ActRequest:
    action = frame["action"]
    definition = game_named(actor.game)
    engine_action = _parsed(definition, actor, action)
    role = definition.role_of(engine_action)
    check_action_role(actor, frame["table"], role, definition.seat_of(engine_action))
    if frame.get("version") is None and checks_seen(definition, engine_action):
        # Without it the action could never be found stale: a late tap would land on
        # whatever step the table has reached (games/definition.py `is_stale`).
        raise ServiceError(ErrorCode.MALFORMED, gettext("this action needs the version your screen showed"))
    return ActRequest(
        party_id=actor.party_id,
        table_id=frame["table"],
        action=engine_action,
        actor_label=actor.label_for(role is GameRole.SEAT),
        client_id=frame.get("re") or "",
        # The version the screen showed: the table's definition says which actions it
        # checks, and from which version on a screen saw the step the table waits on.
        expected_version=frame.get("version"),
        only_if=only_if,
        game=actor.game,
    )


def _run_action(actor: Actor, args: Args) -> Outcome:
    outcome = play.table_act(args["request"])
    assert outcome is not None  # a request without `only_if` is always written or refused
    return outcome


def _check_party(actor: Actor, frame: Frame) -> None:
    check_party_command(actor, frame["command"])


def _check_captain(actor: Actor, frame: Frame) -> None:
    """A captain acts only at their own table: the table of the guest named."""
    guest = frame.get("guest")
    table_id = None
    if type(guest) is int:
        table_id = Guest.objects.filter(pk=guest).values_list("table_id", flat=True).first()
    check_party_command(actor, frame["command"], table_id)


def _check_own_seat(actor: Actor, frame: Frame) -> None:
    check_party_command(actor, frame["command"])
    check_own_guest(actor, frame.get("guest", actor.guest_id))


def _delivery_confirmer(actor: Actor, frame: Frame) -> str:
    """Who the sender is for the relay gift walking into the table named (events/party/roles.py
    `delivery_confirmer`): only once the relay has run is there a carrier to know."""
    to_table = _an_id(frame.get("table"), gettext_noop("which table did the gift arrive at?"))
    if actor.role is Role.SPECTATOR or (actor.role is Role.GUEST and actor.table_id is None):
        raise Forbidden(
            gettext("only its carrier, the receiving table's captain or tablet, or the host can confirm this gift")
        )
    leg = delivery_leg(actor.party_id, to_table)
    if leg is None:
        if actor.role is Role.HOST:
            return "host"  # the service says what is wrong (no walk yet, no such table)
        raise ServiceError(ErrorCode.RELAY_NOT_RUN, gettext("no relay gift is walking to that table"))
    return delivery_confirmer(
        actor, to_table_id=leg.to_table_id, from_table_id=leg.from_table_id, carrier_seat=leg.carrier_seat
    )


def _group(actor: Actor, frame: Frame) -> Args:
    """A guest and the group (team) the host puts them in: its number, or None to draw."""
    group = frame.get("group")
    if group is not None and type(group) is not int:
        raise ServiceError(ErrorCode.INVALID, gettext("which team? (its number, or none to draw)"))
    return {**_guest(actor, frame), "group": group}


def _check_delivery(actor: Actor, frame: Frame) -> None:
    _delivery_confirmer(actor, frame)


def _delivery(actor: Actor, frame: Frame) -> Args:
    return {
        "table_id": frame["table"],
        "confirmed_by": _delivery_confirmer(actor, frame),
        "actor_label": actor.label,
    }


def _guest_id(actor: Actor) -> int:
    """The sender's own guest: a seat command comes only from a guest (events/party/roles.py)."""
    assert actor.guest_id is not None
    return actor.guest_id


def _requested_by(actor: Actor) -> str:
    """Who asked for a hand-over, as SeatHandOver records it."""
    return {Role.HOST: "host", Role.TABLET: f"tablet:{actor.tablet_id}"}.get(actor.role, f"captain:{actor.guest_id}")


# --- the registry -------------------------------------------------------------------------


def _action(name: str) -> Command:
    return Command(name, "act", _check_action, _parse_action, _run_action)


def _party(
    name: str,
    run: Callable[[Actor, Args], Outcome],
    parse: Callable[[Actor, Frame], Args] = _no_args,
    check: Callable[[Actor, Frame], None] = _check_party,
) -> Command:
    return Command(name, "party", check, parse, run)


# Every game's table actions: one command, its roles the definition's (`_check_action`,
# `_act_request`).
TABLE_ACTION = _action("act")

PARTY_COMMANDS: dict[str, Command] = {
    c.name: c
    for c in [
        _party(
            "rename_guest",
            lambda a, args: services.guest_rename(party_id=a.party_id, **args),
            lambda a, f: {"name": f.get("name"), **_guest(a, f)},
        ),
        _party("remove_guest", lambda a, args: services.guest_remove(party_id=a.party_id, **args), _guest),
        _party("set_group", lambda a, args: services.party_set_group(party_id=a.party_id, **args), _group),
        _party(
            "add_vault_gift",
            lambda a, args: services.vault_gift_add(party_id=a.party_id, **args),
            lambda a, f: {"contributor": f.get("contributor"), "description": f.get("description")},
        ),
        _party(
            "remove_vault_gift",
            lambda a, args: services.vault_gift_remove(party_id=a.party_id, **args),
            lambda a, f: {"number": _an_id(f.get("number"), gettext_noop("which vault gift?"))},
        ),
        _party("close_registration", lambda a, _: services.party_set_registration(party_id=a.party_id, open_=False)),
        _party("reopen_registration", lambda a, _: services.party_set_registration(party_id=a.party_id, open_=True)),
        _party("seat", lambda a, _: services.party_seat(party_id=a.party_id)),
        _party("set_captain", lambda a, args: services.party_set_captain(party_id=a.party_id, **args), _guest),
        _party("open_relay", lambda a, _: relay_open(party_id=a.party_id)),
        _party("run_relay", lambda a, _: relay_run(party_id=a.party_id)),
        _party("open_gate", lambda a, _: services.party_open_gate(party_id=a.party_id)),
        _party(
            "confirm_delivery",
            lambda a, args: delivery_confirm(party_id=a.party_id, **args),
            _delivery,
            _check_delivery,
        ),
        _party(
            "confirm_all_deliveries",
            lambda a, _: deliveries_confirm_all(party_id=a.party_id, actor_label=a.label),
        ),
        _party("end", lambda a, _: services.party_end(party_id=a.party_id)),
        _party(
            "pair_tablet",
            lambda a, args: tablets.tablet_pair_start(party_id=a.party_id, **args),
            lambda a, f: {
                "table_id": _an_id(f.get("table"), gettext_noop("which table?")),
                "origin": f.get("_origin", ""),
            },
        ),
        _party(
            "set_clock",
            lambda a, args: services.party_set_clock(party_id=a.party_id, **args),
            lambda a, f: {"step_clock": f.get("step_clock"), "step_clock_server": f.get("step_clock_server")},
        ),
        _party(
            "revoke_tablet",
            lambda a, args: tablets.tablet_revoke(party_id=a.party_id, **args),
            lambda a, f: {"tablet_id": _an_id(f.get("tablet"), gettext_noop("which tablet?"))},
        ),
        _party(
            "hand_over_seat",
            lambda a, args: services.seat_hand_over(party_id=a.party_id, requested_by=_requested_by(a), **args),
            _guest,
            _check_captain,
        ),
        _party(
            "seat_late_guest",
            lambda a, args: services.late_guest_seat(party_id=a.party_id, **args),
            lambda a, f: {
                "late_guest_id": _an_id(f.get("late_guest"), gettext_noop("which late arrival?")),
                "guest_id": _an_id(f.get("guest"), gettext_noop("in place of which guest?")),
            },
        ),
        _party(
            "offer_seat",
            lambda a, _: services.seat_offer(party_id=a.party_id, guest_id=_guest_id(a)),
            check=_check_own_seat,
        ),
    ]
}

# Every command the role table lists has an entry here, and every entry a role:
# tests/party/test_commands.py checks both ways.


def lookup(actor: Actor, frame: Frame) -> tuple[Command, Frame]:
    """The command a frame asks for, and the frame as its command reads it."""
    if frame["type"] == "act":
        _, frame = _act_frame(actor, frame)
        return TABLE_ACTION, frame
    if frame["type"] == "party":
        name = frame.get("command")
        if not isinstance(name, str):
            raise ServiceError(ErrorCode.MALFORMED, gettext("which command?"))
        command = PARTY_COMMANDS.get(name)
        if command is None:
            raise Forbidden(gettext("unknown command %(command)r") % {"command": name})
        return command, frame
    raise ServiceError(ErrorCode.MALFORMED, gettext("unknown frame type %(type)r") % {"type": frame["type"]})


def dispatch(actor: Actor, frame: Frame, *, origin: str = "") -> Outcome:
    """Run one command frame for an authenticated actor: look up, check, parse, call.
    `origin`: the page's origin, for the links a command makes (a tablet's QR code)."""
    command, frame = lookup(actor, frame)
    frame = {**frame, "_origin": origin}
    command.check(actor, frame)
    return command.run(actor, command.parse(actor, frame))


def act_request(actor: Actor, frame: Frame, *, only_if: Condition | None = None) -> ActRequest:
    """An `act` frame as `dispatch` checks and parses it, not run: the request the
    socket's own road sends on (events/live/act.py), written only if `only_if` holds too.
    Touches no database. Raises ServiceError as `dispatch` would (malformed: not an
    `act` frame)."""
    command, frame = lookup(actor, frame)
    if command.frame != "act":
        raise ServiceError(ErrorCode.MALFORMED, gettext("not a table action"))
    command.check(actor, frame)
    return _act_request(actor, frame, only_if)


def table_act(
    *, actor: Actor, table_id: int, action: dict[str, Any], client_id: str = "", expected_version: int | None = None
) -> Outcome:
    """One table action, in process, exactly as its `act` frame would run it."""
    frame: Frame = {"type": "act", "table": table_id, "action": action, "re": client_id or None}
    if expected_version is not None:
        frame["version"] = expected_version
    return dispatch(actor, frame)
