"""The versions a `pong` carries come from one database read per party at a time
(events/live/heartbeat.py): every phone pings every 2 s, and a read per ping saturated the
database thread under load (pongs late, phones reconnecting, a whole party stopped)."""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from events.live import heartbeat
from events.models import Party
from events.party import services
from events.party.roles import Actor, Role
from tests import shorthand


@pytest.fixture
def reads(monkeypatch):
    """Count the database reads behind the pongs."""
    count = {"n": 0}
    real = heartbeat._read_party

    def counting(party_id):
        count["n"] += 1
        return real(party_id)

    monkeypatch.setattr(heartbeat, "_read_party", counting)
    monkeypatch.setattr(heartbeat, "_versions", {})
    return count


@pytest.mark.django_db(transaction=True)
async def test_the_pings_of_a_party_share_one_read_and_never_lag_past_the_ttl(reads, monkeypatch):
    party, _ = await sync_to_async(shorthand.party_create)(name="Beat")
    guest = Actor(Role.GUEST, party.pk, guest_id=1)
    host = Actor(Role.HOST, party.pk)
    # Fifty phones ping at once: one read answers them all.
    answers = await asyncio.gather(*(heartbeat.versions_for(guest) for _ in range(50)))
    assert reads["n"] == 1
    assert {a["revision"] for a in answers} == {party.revision} and answers[0]["tables"] == {}
    # Within the TTL a change is not read again...
    await sync_to_async(Party.objects.filter(pk=party.pk).update)(revision=party.revision + 5)
    assert (await heartbeat.versions_for(host))["revision"] == party.revision and reads["n"] == 1
    # ...and once it is older than the TTL the next pong reads it.
    at, data = heartbeat._versions[party.pk]
    heartbeat._versions[party.pk] = (at - heartbeat.PARTY_TTL, data)
    assert (await heartbeat.versions_for(host))["revision"] == party.revision + 5 and reads["n"] == 2


@pytest.mark.django_db(transaction=True)
async def test_a_guest_reads_its_own_table_and_a_gone_party_gives_no_versions(reads):
    party, table, seated = await _seated_party()
    mine = await heartbeat.versions_for(seated)
    assert mine["tables"] == {str(table.pk): table.version}
    await sync_to_async(Party.objects.filter(pk=party.pk).delete)()
    heartbeat._versions.clear()
    with pytest.raises(Party.DoesNotExist):
        await heartbeat.versions_for(seated)


@pytest.mark.django_db(transaction=True)
async def test_a_fresh_read_answers_a_ping_at_once_and_a_stale_one_does_not(reads):
    """heartbeat.fresh_versions, the pong's path with no task: the process's read of the
    party while it is younger than the TTL (a seated guest: its own table only), else
    None, and the pong waits for a read (versions_within)."""
    party, table, seated = await _seated_party()
    host = Actor(Role.HOST, party.pk)
    assert heartbeat.fresh_versions(host) is None and reads["n"] == 0  # nothing read yet
    read = await heartbeat.versions_within(host)
    assert heartbeat.fresh_versions(host) == read and reads["n"] == 1
    assert heartbeat.fresh_versions(seated) == {"revision": read["revision"], "tables": {str(table.pk): table.version}}
    at, data = heartbeat._versions[party.pk]
    heartbeat._versions[party.pk] = (at - heartbeat.PARTY_TTL, data)
    assert heartbeat.fresh_versions(seated) is None and reads["n"] == 1


async def _seated_party():
    """A seated party of three: (party, its table, seat 0's actor)."""
    party, _ = await sync_to_async(shorthand.party_create)(name="Beat")
    for name in ("Ada", "Bo", "Cy"):
        await sync_to_async(shorthand.guest_join)(code=party.code, name=name, description="a scarf")
    await sync_to_async(services.party_seat)(party_id=party.pk)
    table = await sync_to_async(lambda: party.tables.get())()
    return party, table, Actor(Role.GUEST, party.pk, guest_id=1, table_id=table.pk, seat=0)
