"""A Royal Heist decision is the seat's own: neither the captain's tablet nor the
captain may decide for a guest (games/royal/definition.py `role_of`: a `decide` is
Role.SEAT). Through the command registry, as an `act` frame runs, on a seated party."""

from __future__ import annotations

import pytest

from events.models import Guest, Tablet
from events.party import services, tablets
from events.party.commands import table_act
from events.party.selectors import guest_actor, tablet_actor
from games.royal import ROYAL
from tables.errors import Forbidden
from tables.models import Table
from tests import shorthand

pytestmark = pytest.mark.django_db


def _royal_table() -> tuple[Table, Guest, Guest, Tablet]:
    """One seated Royal table waiting for every seat's decision: its captain, a guest
    who is not, and a tablet paired to it."""
    party, _ = shorthand.party_create(name="Royal rights", game="royal", games=1)
    for i in range(5):
        shorthand.guest_join(code=party.code, name=f"R{i}", description="")
    services.party_seat(party_id=party.pk)
    (table,) = Table.objects.filter(party=party)
    captain = Guest.objects.get(table=table, is_captain=True)
    guest = Guest.objects.filter(table=table, is_captain=False).order_by("seat").first()
    assert guest is not None
    start = tablets.tablet_pair_start(party_id=party.pk, table_id=table.pk).data
    paired = tablets.tablet_pair(code=party.code, pairing=start["pairing"]).data
    tablet = Tablet.objects.get(pk=paired["tablet"])
    assert guest.seat in ROYAL.waiting_for(ROYAL.from_dict(table.state))
    return table, captain, guest, tablet


def test_a_royal_tablet_or_captain_may_not_decide_for_a_seat_and_the_seat_may():
    table, captain, guest, tablet = _royal_table()
    version = table.version
    decide = {"type": "decide", "seat": guest.seat, "press_on": True}
    assert ROYAL.parse_action(decide) is not None  # a well-formed decision: only the sender is wrong
    for actor in (tablet_actor(tablet, game="royal"), guest_actor(captain, game="royal")):
        with pytest.raises(Forbidden):
            table_act(actor=actor, table_id=table.pk, action=decide, expected_version=version)
        table.refresh_from_db()
        assert table.version == version  # nothing written
    # The seat itself may: the refusal above was the sender's, not the action's.
    table_act(actor=guest_actor(guest, game="royal"), table_id=table.pk, action=decide, expected_version=version)
    table.refresh_from_db()
    assert table.version == version + 1
    assert guest.seat not in ROYAL.waiting_for(ROYAL.from_dict(table.state))
