"""A join's lobby broadcast is read after its commit, once for the joins that commit
while the one before it is being read (events/party/lobbycast.py)."""

import threading
import time

import pytest
from django.db import connections

from events.models import Guest
from events.party import lobbycast
from tests import shorthand

pytestmark = pytest.mark.django_db(transaction=True)


def test_joins_during_a_broadcast_share_the_next_one(monkeypatch):
    party, _ = shorthand.party_create(name="Burst")
    reads: list[int] = []  # guests on the host's roster, per broadcast read
    release = threading.Event()
    first_reading = threading.Event()
    real_read = lobbycast._read

    def read(party_id):
        if not reads and not first_reading.is_set():
            first_reading.set()
            assert release.wait(10)  # the first broadcast is slow: the others queue
        messages = real_read(party_id)
        reads.append(len(next(p for _, p in messages if p.get("role") == "host")["party"]["guests"]))
        return messages

    monkeypatch.setattr(lobbycast, "_read", read)
    returned: list[int] = []

    def join(i):
        try:
            outcome = shorthand.guest_join(code=party.code, name=f"G{i}", description="socks")[2]
            lobbycast.lobby_announce(outcome.data["party"])
            returned.append(i)
        finally:
            connections.close_all()  # a thread's pooled connection goes back, as a request's does

    first = threading.Thread(target=join, args=(0,))
    first.start()
    assert first_reading.wait(10)
    rest = [threading.Thread(target=join, args=(i,)) for i in range(1, 6)]
    for t in rest:
        t.start()
    # All five committed and wait in the one flight queued behind the first: none may
    # return before a broadcast that includes it.
    for _ in range(100):
        queued = lobbycast._flights.get(party.pk)
        if queued is not None and not queued.started and Guest.objects.filter(party=party).count() == 6:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the five joins did not commit and queue within 5 s")
    assert returned == []
    release.set()
    for t in [first, *rest]:
        t.join(10)
    assert sorted(returned) == list(range(6))
    assert reads == [6, 6]  # two broadcasts for six joins, the last with everyone
    assert lobbycast._flights == {}


def test_the_join_api_answers_after_the_broadcast_that_lists_the_guest(client, monkeypatch):
    party, _ = shorthand.party_create(name="Api")
    rosters = []
    real_read = lobbycast._read

    def read(party_id):
        messages = real_read(party_id)
        rosters.append([g["name"] for _, p in messages if p.get("role") == "host" for g in p["party"]["guests"]])
        return messages

    monkeypatch.setattr(lobbycast, "_read", read)
    response = client.post(
        f"/api/parties/{party.code}/guests",
        {"name": "Ann", "description": "a book"},
        content_type="application/json",
    )
    assert response.status_code == 201
    assert "party" not in response.json()  # the id is the server's, not the phone's
    assert rosters == [["Ann"]]


def test_a_lobbys_public_view_is_one_read_and_says_what_the_full_one_would(django_assert_num_queries):
    """Before seating there are no tables, captains, tablets or relay: the public view
    of a lobby is read in one query (every hello and join broadcast reads it), and
    after seating the full reads give the same fields."""
    from events.party import services
    from events.party.selectors import party_public

    party, _ = shorthand.party_create(name="Lobby")
    for name in ("Cy", "Ann", "Bo"):
        shorthand.guest_join(code=party.code, name=name, description="socks")
    Guest.objects.filter(name="Bo").update(removed_at=party.created_at)
    party.refresh_from_db()
    with django_assert_num_queries(1):
        lobby = party_public(party)
    assert lobby["names"] == ["Cy", "Ann"] and lobby["guest_count"] == 2
    assert (lobby["tables"], lobby["relay"], lobby["gate"]) == ([], None, {"tables": 0, "at_gate": 0, "open": False})
    Guest.objects.filter(name="Bo").update(removed_at=None)
    services.party_seat(party_id=party.pk)
    party.refresh_from_db()
    seated = party_public(party)
    assert set(seated) == set(lobby) - {"names"}
    assert seated["guest_count"] == 3 and len(seated["tables"]) == 1 and seated["tables"][0]["captain"] is not None
