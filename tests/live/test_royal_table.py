"""A Royal Heist party, end to end through the real socket: the host creates it with
game="royal", guests join, the host seats them, and every seat's phone decides from its
own view until the game is over. The table host speaks to the game only through its
definition (games/royal/definition.py), and no seat ever sees another seat's pending
decision."""

import random

import pytest
from asgiref.sync import sync_to_async

from events.models import Party
from games.royal.views import PRIVATE_KEYS
from tables.models import Table
from tables.seating import table_sizes
from tests.live.seated_party import MergedPhone, seated_party

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]

PUBLIC_SEAT_KEYS = {"seat", "inside", "satchel", "bank", "total", "decided"}  # nothing of a choice not yet revealed


def _seen_by_seat(phone: MergedPhone, seat: int) -> int:
    """Everything this seat's socket was sent names no other seat's choice before the
    reveal. Returns how many of its own choices it was told of."""
    own = 0
    for raw in phone.raw_tables:
        for entry in raw["view"]["seats"]:
            assert set(entry) == PUBLIC_SEAT_KEYS, entry
        private = raw.get("private")
        if private is None:
            continue
        assert private["you"] == seat
        assert set(private) - {"events"} == set(PRIVATE_KEYS)
        for event in [*private.get("events", ()), *raw.get("events", ())]:
            if "press_on" in event:
                assert event["seat"] == seat, (seat, event)
                own += 1
    return own


async def _seated_party(guests: int) -> tuple[Party, MergedPhone, list[MergedPhone]]:
    """A Royal Heist party of `guests`, each on their own socket, seated by the host. A
    seat's update is the public view plus its own private part (what
    GameDefinition.seat_private adds), merged as a screen would."""
    party, _, host, phones = await seated_party(guests, description="-", name="Royal night", game="royal")
    assert party.game == "royal"
    return party, host, phones


@pytest.mark.parametrize("guests", [3, 8])
async def test_a_royal_heist_table_plays_to_the_end_through_the_socket(guests):
    party, host, phones = await _seated_party(guests)
    table = await sync_to_async(Table.objects.get)(party=party)
    assert table.game == "royal" and len(table.roster) == guests  # one table for 3 to 8
    for phone in phones:
        snap = await phone.until(lambda m: m.get("type") == "snapshot" and m.get("table"))
        assert snap["table"]["view"]["you"] == snap["me"]["seat"]
    seat_of = {id(p): p.snapshot["me"]["seat"] for p in phones}

    r = random.Random(guests)
    actions = 0
    while phones[0].table["view"]["phase"] != "over":
        deciders = [p for p in phones if p.table["view"]["can_decide"]]
        assert deciders, phones[0].table["view"]
        phone = r.choice(deciders)
        # A seat acts for itself: the frame names no seat, the server fills in the sender's.
        res = await phone.act({"type": "decide", "press_on": r.random() < 0.7})
        assert res["type"] == "ok", res
        actions += 1
        for p in phones:
            await p.at_version(res["version"])
        assert actions < 2000
    assert actions >= guests
    told = 0
    for phone in phones:
        told += _seen_by_seat(phone, seat_of[id(phone)])
        assert phone.table["view"]["winners"]  # every seat sees the result
    assert told >= actions  # each decision was told to its own seat (and, the loop says, to no other)

    # The last action ended the party: the host's screen gets the result, standings and all.
    over = await host.until(lambda m: m.get("type") == "party" and m["party"].get("status") == "over")
    (standings,) = over["party"]["result"]["tables"]
    assert sorted(s["seat"] for s in standings["standings"]) == list(range(guests))
    assert (await sync_to_async(Party.objects.get)(pk=party.pk)).status == Party.Status.OVER
    # A seat's own action is refused for another seat, with the role table's code.
    res = await phones[0].act({"type": "decide", "seat": (seat_of[id(phones[0])] + 1) % guests, "press_on": True})
    assert res["type"] == "error" and res["code"] == "forbidden", res
    for p in [*phones, host]:
        await p.close()


def test_royal_heist_seats_one_table_of_3_to_8_and_tables_of_5_to_8_from_11_guests():
    # The seating rule with Royal Heist's sizes (its definition's table_max and min_players).
    assert [table_sizes(n, table_max=8, min_players=3) for n in (3, 8)] == [[3], [8]]
    for n in range(11, 101):
        sizes = table_sizes(n, table_max=8, min_players=3)
        assert len(sizes) == -(-n // 8) and sum(sizes) == n and 5 <= min(sizes) <= max(sizes) <= 8, (n, sizes)
    with pytest.raises(ValueError):
        table_sizes(2, table_max=8, min_players=3)


async def _play(phones: list[MergedPhone], r: random.Random, *, until: set[str]) -> None:
    """Seats decide at random until every table is in one of the phases `until`."""
    for _ in range(4000):
        deciders = [p for p in phones if p.table["view"]["phase"] not in until and p.table["view"]["can_decide"]]
        if not deciders:
            return
        phone = r.choice(deciders)
        res = await phone.act({"type": "decide", "press_on": r.random() < 0.7})
        assert res["type"] == "ok", res
        for p in phones:
            if p.table["table"]["id"] == phone.table["table"]["id"]:
                await p.at_version(res["version"])
    raise AssertionError("the tables did not get there")


async def test_a_royal_party_of_several_tables_meets_at_the_gate_and_the_host_opens_it():
    # 11 guests sit at two tables (6 and 5). Each stops half-way at the gate; the host
    # opens it once both are there (not before), and both play on to the party's result.
    guests = 11
    party, host, phones = await _seated_party(guests)
    tables = await sync_to_async(lambda: sorted(len(t.roster) for t in Table.objects.filter(party=party)))()
    assert tables == [5, 6]
    for phone in phones:
        await phone.until(lambda m: m.get("type") == "snapshot" and m.get("table"))
    early = await host.command("open_gate")
    assert early["type"] == "error" and early["code"] == "gate_closed", early
    r = random.Random(guests)
    first = [p for p in phones if p.table["table"]["id"] == phones[0].table["table"]["id"]]
    await _play(first, r, until={"gate"})  # one table at the gate, the other still playing
    assert {p.table["view"]["phase"] for p in first} == {"gate"}
    refused = await host.command("open_gate")
    assert refused["type"] == "error" and refused["code"] == "gate_closed", refused
    for phone in phones:  # no guest's phone, a captain's included, opens a table's gate
        tried = await phone.act({"type": "open_gate"})
        assert tried["type"] == "error" and tried["code"] == "forbidden", tried
    await _play(phones, r, until={"gate"})
    assert {p.table["view"]["phase"] for p in phones} == {"gate"}
    opened = await host.command("open_gate")
    assert opened["type"] == "ok" and opened["opened"] == 2, opened
    for p in phones:
        await p.until(lambda m, p=p: p.table["view"]["phase"] != "gate")
    await _play(phones, r, until={"over"})
    assert {p.table["view"]["phase"] for p in phones} == {"over"}
    over = await host.until(lambda m: m.get("type") == "party" and m["party"].get("status") == "over")
    assert sorted(len(t["standings"]) for t in over["party"]["result"]["tables"]) == [5, 6]
    for p in [*phones, host]:
        await p.close()
