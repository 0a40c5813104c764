"""The relay is a walk (issue 28.5, docs/RULES.md): running it moves no gift; each
carrier walks their gift to the next table, and a table's exchange and round 3 begin
only once its incoming gift has arrived and its own carrier has delivered. Who may
confirm a delivery (the carrier, the receiving table's captain or tablet, the host),
exactly once, also when two confirmations race (PostgreSQL)."""

from __future__ import annotations

import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from events.models import Guest, Party
from events.party import services
from events.party.commands import PARTY_COMMANDS, dispatch, table_act
from events.party.roles import Actor, Role
from events.party.selectors import guest_actor, party_result
from games.yankee import Game, Phase, gift_label
from games.yankee.party.story.inputs import story_replay
from relay.models import Relay
from relay.services import delivery_confirm, relay_open, relay_run
from tables.errors import Forbidden, ServiceError
from tables.models import Table, TableAction
from tables.selectors import table_game, table_meta
from tests.story.record import carrier_of, party_lobby, party_play, party_record

pytestmark = [pytest.mark.django_db(transaction=True)]


def party_walking(guests: int, *, seed: int) -> Party:
    """A party of `guests` at the gate, its relay opened, drawn and run: the walk."""
    party, _, _ = party_lobby(guests, name="Walk")
    Party.objects.filter(pk=party.pk).update(seed=seed)
    services.party_seat(party_id=party.pk)
    party_play(party, seed=seed, until=Phase.GATE)
    relay_open(party_id=party.pk)
    host = Actor(Role.HOST, party.pk)
    for t in Table.objects.filter(party=party):
        table_act(actor=host, table_id=t.pk, action={"type": "draw_relay_seat"})
    relay_run(party_id=party.pk)
    return party


def games(party: Party) -> dict[str, Game]:
    return {t.letter: Game.from_dict(t.state) for t in Table.objects.filter(party=party)}


def table_id(party: Party, letter: str) -> int:
    return Table.objects.get(party=party, letter=letter).pk


def entry(party: Party, letter: str) -> dict:
    return next(e for e in Relay.objects.get(party=party).result if e["table"] == letter)


def confirm(actor: Actor, party: Party, letter: str):
    """The `confirm_delivery` frame for the gift walking into table `letter`."""
    return dispatch(actor, {"type": "party", "command": "confirm_delivery", "table": table_id(party, letter)})


def captain_of(party: Party, letter: str) -> Guest:
    return Guest.objects.get(table__party=party, table__letter=letter, is_captain=True)


def a_guest_of(party: Party, letter: str, *, besides: set[int]) -> Guest:
    return Guest.objects.filter(table__party=party, table__letter=letter).exclude(pk__in=besides).first()


def test_each_tables_update_says_the_seat_its_captain_drew_and_its_gift():
    """The host's party bar counts and lists the draws from the table's `relay_draw`
    (tables/selectors.py), never from where one game's view keeps them."""
    party, _, _ = party_lobby(25, name="Draws")
    services.party_seat(party_id=party.pk)
    party_play(party, seed=3, until=Phase.GATE)
    relay_open(party_id=party.pk)
    tables = list(Table.objects.filter(party=party).order_by("letter"))
    assert [table_meta(t, table_game(t))["relay_draw"] for t in tables] == [None, None, None]
    host = Actor(Role.HOST, party.pk)
    table_act(actor=host, table_id=tables[1].pk, action={"type": "draw_relay_seat"})
    draws = {}
    for t in Table.objects.filter(party=party).order_by("letter"):
        draws[t.letter] = table_meta(t, table_game(t))["relay_draw"]
    b = games(party)["B"]
    assert b.relay_seat is not None
    gift = b.gifts[b.relay_seat]
    assert draws == {"A": None, "B": {"seat": b.relay_seat, "gift": gift, "label": gift_label(gift)}, "C": None}


def test_running_the_relay_moves_no_gift_and_starts_no_round():
    party = party_walking(25, seed=6)
    relay = Relay.objects.get(party=party)
    assert relay.status == "walk" and [e["table"] for e in relay.result] == ["A", "B", "C"]
    for letter, g in games(party).items():
        e = entry(party, letter)
        # Still at the gate, the drawn seat still holding the gift it sends.
        assert g.phase is Phase.GATE and not g.relayed and g.round == 2
        assert g.gifts[g.relay_seat] == e["sent_id"]
        assert (e["arrived_by"], e["playing"]) == (None, False)
        assert e["guest"] == carrier_of(party, letter).name
    assert not TableAction.objects.filter(table__party=party, actor="relay").exists()
    # Nobody at a waiting table is asked anything: no action is legal there.
    b = games(party)["B"]
    seat0 = Guest.objects.get(table__party=party, table__letter="B", seat=0)
    with pytest.raises(ServiceError) as refused:
        table_act(
            actor=guest_actor(seat0),
            table_id=table_id(party, "B"),
            action={"type": "regroup", "cards": []},
            expected_version=b.version,
        )
    assert refused.value.code.startswith("illegal")
    assert games(party)["B"].version == b.version


def test_a_delivery_is_confirmed_by_its_carrier_the_receiving_captain_or_tablet_or_the_host_only():
    party = party_walking(25, seed=6)
    command = PARTY_COMMANDS["confirm_delivery"]
    frame = {"type": "party", "command": "confirm_delivery", "table": table_id(party, "B")}
    carrier = carrier_of(party, "A")  # the gift walking into B comes from A
    b_captain = captain_of(party, "B")
    allowed = {
        "the carrier": guest_actor(carrier),
        "B's captain": guest_actor(b_captain),
        "B's tablet": Actor(Role.TABLET, party.pk, table_id=table_id(party, "B"), tablet_id=1),
        "the host": Actor(Role.HOST, party.pk),
    }
    refused = {
        "A's captain": guest_actor(captain_of(party, "A")),
        "C's captain": guest_actor(captain_of(party, "C")),
        "a guest at B": guest_actor(a_guest_of(party, "B", besides={b_captain.pk})),
        "a guest at A": guest_actor(a_guest_of(party, "A", besides={carrier.pk, captain_of(party, "A").pk})),
        "B's own carrier": guest_actor(carrier_of(party, "B")),
        "A's tablet": Actor(Role.TABLET, party.pk, table_id=table_id(party, "A"), tablet_id=2),
        "a spectator": Actor(Role.SPECTATOR, party.pk),
    }
    # A captain who is also drawn is two people: such a seed would not test these two.
    assert captain_of(party, "A").pk != carrier.pk and carrier_of(party, "B").pk != b_captain.pk
    for who, actor in allowed.items():
        command.check(actor, frame)  # no Forbidden
        assert command.parse(actor, frame)["confirmed_by"] == who.split()[-1], who
    for who, actor in refused.items():
        with pytest.raises(Forbidden):
            command.check(actor, frame)
            pytest.fail(f"{who} may confirm")
        with pytest.raises(Forbidden):
            dispatch(actor, frame)
    assert entry(party, "B")["arrived_by"] is None  # the refusals changed nothing
    assert confirm(guest_actor(carrier), party, "B").data == {"duplicate": False}
    assert entry(party, "B")["arrived_by"] == "carrier"


def test_a_table_starts_round_3_once_its_gift_arrived_and_its_own_carrier_delivered():
    party = party_walking(25, seed=6)
    before = games(party)
    drawn = {letter: g.relay_seat for letter, g in before.items()}

    # A's carrier delivers to B: B has its gift, but B's own carrier is still walking;
    # A's own gift (from C) has not arrived.
    confirm(guest_actor(carrier_of(party, "A")), party, "B")
    now = games(party)
    assert all(g.phase is Phase.GATE and not g.relayed for g in now.values())
    assert Relay.objects.get(party=party).status == "walk"

    # C's captain sees B's carrier arrive: B is complete and plays round 3 with A's gift.
    confirm(guest_actor(captain_of(party, "C")), party, "C")
    now = games(party)
    assert now["B"].relayed and now["B"].round == 3 and now["B"].phase is Phase.ACTION
    assert now["B"].gifts[drawn["B"]] == before["A"].gifts[drawn["A"]]
    assert now["A"].phase is Phase.GATE and now["C"].phase is Phase.GATE
    assert entry(party, "B")["playing"] and not entry(party, "C")["playing"]

    # A second confirmation of the same gift (C's tablet, late) changes nothing.
    version = now["B"].version
    again = confirm(Actor(Role.TABLET, party.pk, table_id=table_id(party, "C"), tablet_id=9), party, "C")
    assert again.data == {"duplicate": True} and again.messages == []
    assert entry(party, "C")["arrived_by"] == "captain"

    # The host confirms the last walk (C's gift into A): A and C start; the relay is done.
    confirm(Actor(Role.HOST, party.pk), party, "A")
    after = games(party)
    assert after["B"].version == version  # B was not touched again
    ring = ["A", "B", "C"]
    for i, letter in enumerate(ring):
        prev = ring[i - 1]
        assert after[letter].relayed and after[letter].round == 3
        assert after[letter].gifts[drawn[letter]] == before[prev].gifts[drawn[prev]]
    assert Relay.objects.get(party=party).status == "done"
    assert TableAction.objects.filter(table__party=party, actor="relay").count() == 3


def test_confirming_before_the_relay_ran_is_refused():
    party, _, _ = party_lobby(12, name="Early")
    services.party_seat(party_id=party.pk)
    with pytest.raises(ServiceError) as refused:
        confirm(Actor(Role.HOST, party.pk), party, "B")
    assert refused.value.code == "relay_not_run"
    guest = Guest.objects.filter(table__party=party, table__letter="A").first()
    with pytest.raises(ServiceError) as refused:
        confirm(guest_actor(guest), party, "B")
    assert refused.value.code == "relay_not_run"


@pytest.mark.slow
def test_ten_tables_each_receives_from_the_table_before_it_in_the_ring():
    """With two tables the ring reads the same both ways; with ten it does not."""
    party = party_walking(100, seed=8)
    before = games(party)
    drawn = {letter: g.relay_seat for letter, g in before.items()}
    ring = Relay.objects.get(party=party).ring
    assert ring == list("ABCDEFGHIJ")
    # J's captain confirms the gift from I; I's carrier has walked, but J's own has not.
    confirm(guest_actor(captain_of(party, "J")), party, "J")
    assert all(g.phase is Phase.GATE for g in games(party).values())
    # J's carrier delivers to A: J starts; A waits for its own carrier, still walking to B.
    confirm(guest_actor(carrier_of(party, "J")), party, "A")
    now = games(party)
    assert now["J"].round == 3 and now["J"].gifts[drawn["J"]] == before["I"].gifts[drawn["I"]]
    assert [letter for letter, g in now.items() if g.relayed] == ["J"]
    # The host's override for all the rest: one transaction, every table plays on.
    host = Actor(Role.HOST, party.pk)
    done = dispatch(host, {"type": "party", "command": "confirm_all_deliveries"})
    assert done.data == {"duplicate": False}
    after = games(party)
    for i, letter in enumerate(ring):
        prev = ring[i - 1]
        assert after[letter].relayed and after[letter].round == 3, letter
        assert after[letter].gifts[drawn[letter]] == before[prev].gifts[drawn[prev]], letter
    result = Relay.objects.get(party=party).result
    assert [e["arrived_by"] for e in result] == ["carrier"] + ["host"] * 8 + ["captain"]
    assert dispatch(host, {"type": "party", "command": "confirm_all_deliveries"}).data == {"duplicate": True}
    # Gifts conserved: one each, none lost or doubled across the room.
    seen = [gift for g in after.values() for gift in g.gifts]
    assert sorted(seen) == sorted(gift for g in before.values() for gift in g.gifts)
    # Only the host may confirm them all.
    with pytest.raises(Forbidden):
        dispatch(guest_actor(captain_of(party, "A")), {"type": "party", "command": "confirm_all_deliveries"})


@pytest.mark.stack
async def test_two_confirmations_at_once_make_one_arrival_and_one_exchange():
    """PostgreSQL: the carrier and the receiving table's captain tap at the same moment.
    The party's row lock serialises them: one arrives, the other is its duplicate."""
    party = await sync_to_async(party_walking)(25, seed=3)
    # B's own carrier has delivered already: B's arrival starts its round 3.
    await sync_to_async(lambda: confirm(guest_actor(carrier_of(party, "B")), party, "C"))()
    to_b = await sync_to_async(table_id)(party, "B")
    carrier = await sync_to_async(carrier_of)(party, "A")
    captain = await sync_to_async(captain_of)(party, "B")
    start = threading.Barrier(2)
    results: dict[str, object] = {}

    def tap(who: str, actor: Actor, kind: str):
        try:
            start.wait(5)
            results[who] = delivery_confirm(party_id=party.pk, table_id=to_b, confirmed_by=kind, actor_label=who)
        except Exception as exc:  # reported below
            results[who] = exc
        finally:
            connection.close()  # this thread's own connection

    threads = [
        threading.Thread(target=tap, args=("carrier", guest_actor(carrier), "carrier")),
        threading.Thread(target=tap, args=("captain", guest_actor(captain), "captain")),
    ]
    for t in threads:
        t.start()
    for t in threads:
        await sync_to_async(t.join, thread_sensitive=False)(20)
    duplicates = sorted(r.data["duplicate"] for r in results.values())  # type: ignore[union-attr]
    assert duplicates == [False, True], results
    rows = await sync_to_async(list)(TableAction.objects.filter(table_id=to_b, actor="relay"))
    assert len(rows) == 1 and rows[0].action["type"] == "relay_exchange"
    b = await sync_to_async(lambda: entry(party, "B"))()
    winner = next(who for who, r in results.items() if not r.data["duplicate"])  # type: ignore[union-attr]
    assert b["arrived_by"] == winner and b["playing"]


@pytest.mark.slow
def test_the_story_and_the_result_read_a_walked_relay_as_one_exchange_per_table():
    """Tables start round 3 one by one as their walks end (here each carrier confirms in
    ring order); the story still replays every table's log and shows the relay as the
    ring's exchange, and the result (the CSV's rows) keeps one gift per guest."""
    party = party_record(25, seed=6)
    assert party.status == Party.Status.OVER
    relay = Relay.objects.get(party=party)
    assert relay.status == "done" and {e["arrived_by"] for e in relay.result} == {"carrier"}
    story = story_replay(party)  # raises ReplayMismatch unless each log replays to its table
    flows = {(f["from_table"], f["to_table"]): f["gift"] for f in story["relay"]}
    assert flows == {(e["received_from"], e["table"]): e["received"] for e in relay.result}
    assert set(flows) == {("A", "B"), ("B", "C"), ("C", "A")}
    result = party_result(party)
    assert len(result["keeps"]) == 25
    assert sorted(k["gift"] for k in result["keeps"]) == sorted(str(n) for n in range(1, 26))
