"""Who may see and do what. The one place that says it; consumers and services ask here.

| role      | who                                   | sees                                   | may do |
|-----------|---------------------------------------|----------------------------------------|--------|
| host      | holds the party's host secret         | lobby roster (names, labels, online), every table's public view, vault contributors | run the lobby (rename/remove/replace guests, vault gifts, captains, close registration, seat), set the step clock, every captain duty at every table, open and run the relay, confirm any relay delivery (or all), end the party |
| captain   | a seated guest the host made captain  | their own seat view + their table's public view | the game's duties (its definition's DUTY actions: a quiet guest's step once its clock ran out, or a rule's own wait; a reveal's go-ahead, a relay's draw...), confirm the relay gift arriving at their table, hand a seat to a substitute — at their own table only |
| tablet    | holds a tablet secret the host paired to one table | that table's public view only (never a hand) | the captain's duties at that table, whoever is captain |
| guest     | holds a seat secret                   | their own seat view (own hand, own peeks, own answers) | their own seat's actions (the game's SEAT actions); as the relay's carrier, confirm their own delivery |
| spectator | knows the join code (a projector)     | every table's public view               | nothing |

Nobody's view ever contains another seat's hand, answer, or an unrevealed description
(each game's views build them, in its package; the conformance suite checks every
game's, tests/games/conformance/test_views.py). Which table actions a seat, a captain
or only the server may send is the game's own call: its definition's `role_of` and
`seat_of` (games/definition.py), asked once the action is parsed (`check_action_role`).
A game that names its wire types by role (games/definition.py `NamesWireTypes`) has a
frame its sender may never send refused before it is parsed (`check_table_action`).
The "sees" column is `groups_for` (the channel groups a socket joins); the "may do"
column is the sets and checks below, which the command registry (events/party/commands.py)
applies to every wire command before its service runs.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from django.utils.translation import gettext

from events.broadcast import groups
from games.definition import Role as GameRole
from games.registry import DEFAULT_GAME
from tables.errors import Forbidden
from tables.models import Table


class Role(enum.Enum):
    HOST = "host"
    GUEST = "guest"
    SPECTATOR = "spectator"
    TABLET = "tablet"  # a captain's tablet, paired by the host to one table


@dataclass(frozen=True)
class Actor:
    role: Role
    party_id: int
    guest_id: int | None = None
    table_id: int | None = None
    seat: int | None = None
    captain: bool = False
    tablet_id: int | None = None
    game: str = DEFAULT_GAME  # the party's game (games/registry.py): its tables' definition

    @property
    def label(self) -> str:
        if self.role is Role.HOST:
            return "host"
        if self.role is Role.GUEST:
            return f"seat:{self.seat}" if self.seat is not None else f"guest:{self.guest_id}"
        if self.role is Role.TABLET:
            return f"tablet:{self.tablet_id}"
        return "spectator"

    def label_for(self, seat_action: bool) -> str:
        """Who the action log says acted: a captain's duty is logged as the captain's."""
        if self.role is Role.GUEST and self.captain and not seat_action:
            return f"captain:{self.guest_id}"
        return self.label


# Party commands (events/party/services.py) by who may send them.
HOST_COMMANDS = frozenset(
    {
        "rename_guest",
        "remove_guest",
        "set_group",
        "add_vault_gift",
        "remove_vault_gift",
        "close_registration",
        "reopen_registration",
        "seat",
        "set_captain",
        "open_relay",
        "run_relay",
        "open_gate",
        "end",
        "pair_tablet",
        "revoke_tablet",
        "confirm_all_deliveries",
        "set_clock",
        "seat_late_guest",
    }
)
CAPTAIN_COMMANDS = frozenset({"hand_over_seat"})
# The relay's walk: a delivery is confirmed by its carrier, the receiving table's
# captain or tablet, or the host (delivery_confirmer).
DELIVERY_COMMANDS = frozenset({"confirm_delivery"})
# A seated guest's commands about their own seat: consent to a hand-over.
SEAT_COMMANDS = frozenset({"offer_seat"})


def check_table_action(actor: Actor, table_id: int, role: GameRole | None) -> None:
    """Raise Forbidden unless `actor` may send to table `table_id` an action its game
    says, by its wire type alone, is `role`'s (None: the game has no such action)."""
    if role is GameRole.SEAT:
        if actor.role is not Role.GUEST or actor.table_id != table_id or actor.seat is None:
            raise Forbidden(gettext("only the player in that seat can do that"))
        return
    if role is GameRole.DUTY:
        check_captains_duty(actor, table_id)
        return
    raise Forbidden(gettext("that action is not available to players"))


def check_action_role(actor: Actor, table_id: int, role: GameRole, seat: int | None) -> None:
    """Raise Forbidden unless `actor` may send a parsed action the game says is `role`'s
    (its definition's `role_of`), for `seat` (`seat_of`), to table `table_id`."""
    if role is GameRole.SEAT:
        if actor.role is not Role.GUEST or actor.table_id != table_id or actor.seat is None:
            raise Forbidden(gettext("only the player in that seat can do that"))
        if seat != actor.seat:
            raise Forbidden(gettext("you can only act for your own seat"))
        return
    if role is GameRole.DUTY:
        check_captains_duty(actor, table_id)
        return
    raise Forbidden(gettext("that action is not available to players"))


def check_own_seat(actor: Actor, action: dict[str, object], role: GameRole | None) -> None:
    """A seat action names no seat or the sender's own: nobody acts for another seat."""
    if role is GameRole.SEAT and "seat" in action and action["seat"] != actor.seat:
        raise Forbidden(gettext("you can only act for your own seat"))


def check_captains_duty(actor: Actor, table_id: int | None) -> None:
    """A captain's duty (a table action or a party command) at table `table_id`: the
    host anywhere, that table's captain or its paired tablet; Forbidden otherwise."""
    if actor.role is Role.HOST or (actor.role is Role.GUEST and actor.captain and actor.table_id == table_id):
        return
    if is_tablet_of(actor, table_id):
        return
    raise Forbidden(gettext("only the host or this table's captain can do that"))


def is_tablet_of(actor: Actor, table_id: int | None) -> bool:
    """A paired tablet does the captain's duties at its own table, and nowhere else."""
    return actor.role is Role.TABLET and table_id is not None and actor.table_id == table_id


def check_party_command(actor: Actor, command: str, table_id: int | None = None) -> None:
    if command in HOST_COMMANDS:
        if actor.role is Role.HOST:
            return
        raise Forbidden(gettext("only the host can do that"))
    if command in CAPTAIN_COMMANDS:
        check_captains_duty(actor, table_id)
        return
    if command in SEAT_COMMANDS:
        if actor.role is Role.GUEST and actor.table_id is not None:
            return
        raise Forbidden(gettext("only a seated guest can offer their own seat"))
    raise Forbidden(gettext("unknown command %(command)r") % {"command": command})


def delivery_confirmer(actor: Actor, *, to_table_id: int, from_table_id: int, carrier_seat: int) -> str:
    """Who `actor` is for the relay gift walking from table `from_table_id` (carried by
    the guest in seat `carrier_seat` there) to table `to_table_id`: "host", "carrier",
    "captain" or "tablet" (of the receiving table). Anyone else, a captain of another
    table included, is refused."""
    if actor.role is Role.HOST:
        return "host"
    if actor.role is Role.GUEST and actor.table_id == from_table_id and actor.seat == carrier_seat:
        return "carrier"
    if actor.role is Role.GUEST and actor.captain and actor.table_id == to_table_id:
        return "captain"
    if is_tablet_of(actor, to_table_id):
        return "tablet"
    raise Forbidden(
        gettext("only its carrier, the receiving table's captain or tablet, or the host can confirm this gift")
    )


def check_own_guest(actor: Actor, guest_id: object) -> None:
    """A guest's command about their own seat names no guest or themselves."""
    if guest_id != actor.guest_id:
        raise Forbidden(gettext("you can only offer your own seat"))


def groups_for(actor: Actor) -> set[str]:
    """The channel groups a socket of `actor` joins: what the "sees" column allows."""
    out = {groups.party_group(actor.party_id)}
    if actor.role is Role.HOST:
        out.add(groups.host_group(actor.party_id))
        out |= {
            groups.table_group(t) for t in Table.objects.filter(party_id=actor.party_id).values_list("pk", flat=True)
        }
    elif actor.role is Role.SPECTATOR:
        out |= {
            groups.table_group(t) for t in Table.objects.filter(party_id=actor.party_id).values_list("pk", flat=True)
        }
    elif actor.role is Role.TABLET:
        # Its table's public view and its own group (for `removed`): no seat group, ever.
        assert actor.table_id is not None and actor.tablet_id is not None  # a tablet is paired to one table
        out |= {groups.table_group(actor.table_id), groups.tablet_group(actor.tablet_id)}
    else:
        assert actor.guest_id is not None  # a guest's actor always names the guest
        out.add(groups.guest_group(actor.guest_id))
        if actor.table_id is not None:
            assert actor.seat is not None  # seated at a table means a seat there
            out.add(groups.seat_group(actor.table_id, actor.seat))
            if actor.captain:
                out.add(groups.table_group(actor.table_id))
    return out
