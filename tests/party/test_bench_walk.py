"""The rehearsal's bots read the relay's walk from the party copy a screen holds, as
play.js and tablet.js do (games/yankee/party/choose.py): the carrier's errand, and the receiving
captain's gift still on its way. A ring of three tables, so the direction matters."""

from __future__ import annotations

from games.yankee.party.choose import arrival_awaited, carrier_walk


def _relay(status: str, arrived: set[str]) -> dict:
    ring = {"A": "B", "B": "C", "C": "A"}
    return {
        "status": status,
        "result": [
            {
                "table": t,
                "table_id": 10 + i,
                "seat": i,
                "sent_to": ring[t],
                "arrived_by": "carrier" if t in arrived else None,
            }
            for i, t in enumerate("ABC")
        ],
    }


def test_the_carrier_walks_to_the_next_table_until_it_is_confirmed_there():
    walk = _relay("walk", arrived=set())
    assert carrier_walk(walk, "A", 0) == 11  # A's seat 0 carries to B (id 11)
    assert carrier_walk(walk, "C", 2) == 10  # C's carries round the ring to A
    assert carrier_walk(walk, "A", 1) is None  # not A's carrier
    assert carrier_walk(_relay("walk", arrived={"B"}), "A", 0) is None  # B has its gift
    assert carrier_walk(_relay("open", arrived=set()), "A", 0) is None  # nothing to carry yet


def test_a_captain_awaits_only_their_own_tables_gift_and_only_during_the_walk():
    assert arrival_awaited(_relay("walk", arrived=set()), "B") == 11
    assert arrival_awaited(_relay("walk", arrived={"B"}), "B") is None
    assert arrival_awaited(_relay("walk", arrived={"B"}), "C") == 12
    assert arrival_awaited(_relay("done", arrived=set()), "B") is None
    assert arrival_awaited(_relay("open", arrived=set()), "B") is None
    assert arrival_awaited(None, "B") is None
