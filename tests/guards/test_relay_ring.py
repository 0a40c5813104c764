"""The relay's ring with three tables, where it does not read the same both ways: each
table sends to the next and receives from the one before, and a table plays round 3
only once its incoming gift arrived and its own carrier delivered. And the relay's
guards: two tables at least, every table at the gate, every seat drawn, run once."""

from __future__ import annotations

import pytest

from events.models import Guest, Party
from events.party import services
from events.party.commands import dispatch, table_act
from events.party.roles import Actor, Role
from events.party.selectors import guest_actor
from games.yankee import Game, Phase
from relay.models import Relay
from relay.services import relay_open, relay_run
from tables.errors import Forbidden, ServiceError
from tables.models import Table
from tests.story.record import party_lobby, party_play

pytestmark = pytest.mark.django_db

GUESTS = 21  # three tables (7, 7, 7)


def party_at_gate(guests: int, *, seed: int) -> Party:
    party, _, _ = party_lobby(guests, name="Ring")
    Party.objects.filter(pk=party.pk).update(seed=seed)
    services.party_seat(party_id=party.pk)
    refused("gate_closed", relay_open, party_id=party.pk)  # every table must be at the gate
    party_play(party, seed=seed, until=Phase.GATE)
    return party


def games(party: Party) -> dict[str, Game]:
    return {t.letter: Game.from_dict(t.state) for t in Table.objects.filter(party=party)}


def refused(expected: str, call, **kwargs) -> None:
    with pytest.raises(ServiceError) as err:
        call(**kwargs)
    assert err.value.code == expected, err.value


def test_three_tables_send_to_the_next_and_start_as_their_walks_end():
    party = party_at_gate(GUESTS, seed=5)
    host = Actor(Role.HOST, party.pk)
    refused("relay_not_open", relay_run, party_id=party.pk)
    # A screen with no seat (a spectator) confirms no delivery, walk or no walk.
    with pytest.raises(Forbidden):
        dispatch(Actor(Role.SPECTATOR, party.pk), {"type": "party", "command": "confirm_delivery", "table": 1})
    assert relay_open(party_id=party.pk).messages
    assert relay_open(party_id=party.pk).messages == []  # once only
    assert Relay.objects.filter(party=party).count() == 1
    table_act(actor=host, table_id=Table.objects.get(party=party, letter="A").pk, action={"type": "draw_relay_seat"})
    refused("not_drawn", relay_run, party_id=party.pk)
    for t in Table.objects.filter(party=party).exclude(letter="A"):
        table_act(actor=host, table_id=t.pk, action={"type": "draw_relay_seat"})
    before = games(party)
    relay_run(party_id=party.pk)
    relay = Relay.objects.get(party=party)
    assert relay.ring == ["A", "B", "C"]
    by = {e["table"]: e for e in relay.result}
    assert [(by[t]["received_from"], by[t]["sent_to"]) for t in "ABC"] == [("C", "B"), ("A", "C"), ("B", "A")]
    assert relay_run(party_id=party.pk).messages == []  # once only
    ids = {t.letter: t.pk for t in Table.objects.filter(party=party)}
    # A table no gift walks to: the host is told what is wrong with the table, anyone
    # else only that no gift walks there (the registry decides before the service).
    nowhere = {"type": "party", "command": "confirm_delivery", "table": max(ids.values()) + 1000}
    with pytest.raises(ServiceError) as err:
        dispatch(host, nowhere)
    assert err.value.code == "invalid"
    captain = Guest.objects.get(table_id=ids["A"], is_captain=True)
    with pytest.raises(ServiceError) as err:
        dispatch(guest_actor(captain), nowhere)
    assert err.value.code == "relay_not_run"

    def arrive(letter: str) -> None:
        dispatch(host, {"type": "party", "command": "confirm_delivery", "table": ids[letter]})

    arrive("B")  # A's gift reached B: B's own (to C) still walks, A's incoming too
    assert {k: g.round for k, g in games(party).items()} == {"A": 2, "B": 2, "C": 2}
    arrive("C")  # B's gift reached C: B's walks are both over; C's own (to A) still walks
    now = games(party)
    assert (now["A"].phase, now["B"].round, now["C"].phase) == (Phase.GATE, 3, Phase.GATE)
    arrive("A")
    after = games(party)
    assert all(g.round == 3 and g.relayed for g in after.values())
    for letter, source in (("A", "C"), ("B", "A"), ("C", "B")):
        seat, src_seat = before[letter].relay_seat, before[source].relay_seat
        assert seat is not None and src_seat is not None
        assert after[letter].gifts[seat] == before[source].gifts[src_seat], letter
    assert Relay.objects.get(party=party).status == Relay.Status.DONE


def test_one_table_has_no_relay():
    party, _, _ = party_lobby(5, name="One table")
    services.party_seat(party_id=party.pk)
    refused("no_relay", relay_open, party_id=party.pk)


def test_two_tables_are_enough_for_a_relay():
    party = party_at_gate(12, seed=2)  # two tables of six
    assert Table.objects.filter(party=party).count() == 2
    assert relay_open(party_id=party.pk).messages
    assert Relay.objects.get(party=party).ring == ["A", "B"]
