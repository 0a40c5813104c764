"""Rooms expire seven days after creation: a Celery beat task removes them; an expired
code gets a clear message (HTTP 410 / WebSocket `expired` + close 4410) until it is
removed, and is unknown (404 / `no_party` + close 4404) afterwards."""

import json
from datetime import timedelta

import pytest
from celery.result import EagerResult
from celery.schedules import crontab
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import AsyncClient
from django.utils import timezone

from config.celery import app as celery_app
from events.models import Guest, Party, VaultGift
from events.tasks import expire_parties
from tables.models import Table, TableAction
from tests.live.clients import Phone
from tests.live.tables import connect, drive, seated

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


@database_sync_to_async
def expire(party_id: int, ago: timedelta = timedelta(seconds=1)) -> None:
    Party.objects.filter(pk=party_id).update(expires_at=timezone.now() - ago)


@database_sync_to_async
def counts(party_id: int) -> dict:
    return {
        "party": Party.objects.filter(pk=party_id).count(),
        "guests": Guest.objects.filter(party_id=party_id).count(),
        "vault": VaultGift.objects.filter(party_id=party_id).count(),
        "tables": Table.objects.filter(party_id=party_id).count(),
        "actions": TableAction.objects.filter(table__party_id=party_id).count(),
    }


def test_the_task_is_discovered_and_scheduled_hourly():
    celery_app.loader.import_default_modules()  # what a worker does at start: autodiscovery
    assert "events.tasks.expire_parties" in celery_app.tasks
    entry = celery_app.conf.beat_schedule["expire-parties"]
    assert entry == settings.CELERY_BEAT_SCHEDULE["expire-parties"]
    assert entry["task"] == "events.tasks.expire_parties"
    schedule = entry["schedule"]
    assert isinstance(schedule, crontab) and schedule.minute == {17} and len(schedule.hour) == 24


async def test_expire_parties_deletes_only_expired_parties_with_everything_in_them():
    old = await seated(4, seed=81, vault_size=1)
    await drive(old.table_id, lambda g: g.version >= 6)  # a played table with an action log
    soon = await seated(3, seed=82)  # expires in a minute: kept
    fresh = await seated(2, seed=83)
    await expire(old.party_id)
    await database_sync_to_async(Party.objects.filter(pk=soon.party_id).update)(
        expires_at=timezone.now() + timedelta(minutes=1)
    )
    before = await counts(old.party_id)
    assert before["guests"] == 4 and before["vault"] == 1 and before["tables"] == 1 and before["actions"] >= 5
    kept = {p.party_id: await counts(p.party_id) for p in (soon, fresh)}

    result = await database_sync_to_async(lambda: expire_parties.delay())()
    assert settings.CELERY_TASK_ALWAYS_EAGER and isinstance(result, EagerResult)
    assert result.get() == 1
    assert await counts(old.party_id) == {"party": 0, "guests": 0, "vault": 0, "tables": 0, "actions": 0}
    for pid, c in kept.items():
        assert await counts(pid) == c
    # a second sweep finds nothing
    assert (await database_sync_to_async(lambda: expire_parties.delay().get())()) == 0


async def test_an_expired_party_is_refused_clearly_until_deleted_then_unknown():
    s = await seated(3, seed=91)
    await expire(s.party_id)
    client = AsyncClient()

    # WebSocket: error `expired`, then close 4410 (before any hello).
    p = await Phone(s.code).connect()
    err = await p.recv()
    assert err["type"] == "error" and err["code"] == "expired" and "seven days" in err["message"], err
    assert await p.closed() == 4410
    await p.close()
    # HTTP: joining says 410 with a message; the pages say so too.
    body = json.dumps({"name": "Late", "description": "a gift"})
    res = await client.post(f"/api/parties/{s.code}/guests", body, content_type="application/json")
    assert res.status_code == 410
    assert res.json() == {"error": "expired", "message": "this party has expired (parties last seven days)"}
    page = await client.get(f"/j/{s.code}/")
    assert page.status_code == 410 and b"expired" in page.content

    assert (await database_sync_to_async(lambda: expire_parties.delay().get())()) == 1
    res = await client.post(f"/api/parties/{s.code}/guests", body, content_type="application/json")
    assert res.status_code == 404 and res.json()["error"] == "no_party", res.content
    assert (await client.get(f"/j/{s.code}/")).status_code == 404
    p = await Phone(s.code).connect()
    err = await p.recv()
    assert err["type"] == "error" and err["code"] == "no_party", err
    assert await p.closed() == 4404
    await p.close()


async def test_open_sockets_of_a_deleted_party_get_nothing_done():
    """Screens still connected when the sweep runs get clear refusals, not a crashed
    consumer: acts and commands are refused, a resync says the party is gone and closes."""
    s = await connect(await seated(3, seed=92))
    try:
        await expire(s.party_id)
        assert (await database_sync_to_async(lambda: expire_parties.delay().get())()) == 1
        err = await s.phones[0].act({"type": "regroup", "cards": []})
        assert err["type"] == "error" and err["code"] == "no_table", err
        err = await s.host.command("close_registration")
        assert err["type"] == "error" and err["code"] == "no_party", err
        await s.phones[1].send({"type": "ping"})
        # a captain's phone may first hear who is connected at its table (presence)
        answer = await s.phones[1].until(lambda m: m["type"] != "presence")
        assert answer["type"] == "pong", answer
        for p in s.all():
            await p.send({"type": "resync", "re": "r"})
            err = await p.reply("r")
            assert err["type"] == "error" and err["code"] == "no_party", err
            assert await p.closed() == 4404
    finally:
        await s.close()
