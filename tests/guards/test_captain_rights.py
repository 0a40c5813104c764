"""A captain's rights stop at their own table: with three tables, the captain (or the
tablet) of one table may not hand over a seat, confirm a reveal, pass a quiet guest
or draw the relay seat at another. Through the command registry, as a frame runs."""

from __future__ import annotations

import pytest

from events.models import Guest, Party
from events.party.commands import dispatch, table_act
from events.party.roles import Actor, Role
from events.party.selectors import guest_actor
from tables.errors import Forbidden, ServiceError
from tables.models import Table
from tests import shorthand

pytestmark = pytest.mark.django_db

GUESTS = 21  # three tables of seven


def three_tables() -> tuple[Party, dict[str, Table], dict[str, Guest]]:
    party, _, _ = shorthand.party_seated(name="Three", guests=GUESTS)
    tables = {t.letter: t for t in Table.objects.filter(party=party)}
    assert sorted(tables) == ["A", "B", "C"]
    captains = {t.letter: Guest.objects.get(table=t, is_captain=True) for t in tables.values()}
    return party, tables, captains


def a_player(table: Table) -> Guest:
    return Guest.objects.filter(table=table, is_captain=False).order_by("seat").first()


def hand_over(actor: Actor, guest: Guest):
    return dispatch(actor, {"type": "party", "command": "hand_over_seat", "guest": guest.pk})


def duty_refused(actor: Actor, table: Table, duty: str) -> bool:
    """Whether the duty is refused as forbidden (a refusal by the rules, say a reveal
    not awaited, means the right was granted)."""
    try:
        table_act(actor=actor, table_id=table.pk, action={"type": duty})
    except Forbidden:
        return True
    except ServiceError:
        return False
    return False


def test_a_captain_hands_over_seats_at_their_own_table_only():
    party, tables, captains = three_tables()
    Guest.objects.filter(party=party).update(last_seen=None)  # every seat offline: a captain may
    a = guest_actor(captains["A"])
    for letter in "BC":
        with pytest.raises(Forbidden):
            hand_over(a, a_player(tables[letter]))
    assert len(hand_over(a, a_player(tables["A"])).data["claim"]) == 8
    # Nor may a guest who is no captain, at their own table.
    with pytest.raises(Forbidden):
        hand_over(guest_actor(a_player(tables["B"])), captains["B"])


def test_a_tablet_hands_over_seats_at_its_own_table_only():
    party, tables, _ = three_tables()
    Guest.objects.filter(party=party).update(last_seen=None)
    tablet = Actor(Role.TABLET, party.pk, table_id=tables["B"].pk, tablet_id=1)
    for letter in "AC":
        with pytest.raises(Forbidden):
            hand_over(tablet, a_player(tables[letter]))
    assert hand_over(tablet, a_player(tables["B"])).data["minutes"] == 15


@pytest.mark.parametrize("duty", ["confirm_reveal", "timeout_pass", "draw_relay_seat"])
def test_a_captains_duties_stop_at_their_own_table(duty):
    _, tables, captains = three_tables()
    for letter, captain in captains.items():
        actor = guest_actor(captain)
        for other in tables:
            assert duty_refused(actor, tables[other], duty) is (other != letter), (letter, other)


@pytest.mark.parametrize("duty", ["confirm_reveal", "timeout_pass", "draw_relay_seat"])
def test_the_host_may_do_every_duty_at_every_table_and_a_player_none(duty):
    party, tables, _ = three_tables()
    host = Actor(Role.HOST, party.pk)
    for table in tables.values():
        assert not duty_refused(host, table, duty)
        assert duty_refused(guest_actor(a_player(table)), table, duty)


@pytest.mark.parametrize("action", ["play", "swipe", "regroup", "vault", "react", "trim"])
def test_a_players_seat_actions_stop_at_their_own_table(action):
    party, tables, _ = three_tables()
    player = guest_actor(a_player(tables["A"]))
    assert duty_refused(player, tables["B"], action)
    assert duty_refused(player, tables["C"], action)
    assert not duty_refused(player, tables["A"], action)  # refused by the rules there, if at all
    assert duty_refused(Actor(Role.HOST, party.pk), tables["A"], action)  # a host has no seat
