"""Captain rights come from the database, never from what a socket cached (item 4 of
issue 8), and a captain cannot take a seat that is in use (item 5)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import timezone

from events.models import Guest, SeatHandOver
from events.party import services
from tables.models import Table
from tests import shorthand
from tests.live.clients import Phone

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


def _seated(n: int, name: str):
    party, host_token = shorthand.party_create(name=name)
    tokens = {}
    for i in range(n):
        g, t, _ = shorthand.guest_join(code=party.code, name=f"{name} {i}", description=f"gift {i}")
        tokens[g.pk] = t
    services.party_seat(party_id=party.pk)
    guests = list(Guest.objects.filter(party=party).order_by("seat"))
    return party, host_token, tokens, guests


async def _open(code, role, token):
    phone = await Phone(code).connect()
    snap = await phone.hello(role, token)
    assert snap["type"] == "snapshot", snap
    return phone


async def test_a_demoted_captain_loses_captain_rights_even_if_the_demotion_is_lost():
    party, _host_token, tokens, guests = await sync_to_async(_seated)(4, "Demote")
    captain = next(g for g in guests if g.is_captain)
    heir = next(g for g in guests if not g.is_captain)
    other = next(g for g in guests if not g.is_captain and g.pk != heir.pk)
    old = await _open(party.code, "guest", tokens[captain.pk])
    new = await _open(party.code, "guest", tokens[heir.pk])
    # The host makes someone else captain; its broadcasts (resubscribe) are lost.
    await sync_to_async(services.party_set_captain)(party_id=party.pk, guest_id=heir.pk)
    await sync_to_async(Guest.objects.filter(pk=other.pk).update)(last_seen=timezone.now() - timedelta(minutes=10))
    table = await sync_to_async(Table.objects.get)(party=party)
    refused = await old.command("hand_over_seat", guest=other.pk)
    assert refused["type"] == "error" and refused["code"] == "forbidden", refused
    passed = await old.act({"type": "timeout_pass"}, table=table.pk)
    assert passed["type"] == "error" and passed["code"] == "forbidden", passed
    assert not await sync_to_async(Guest.objects.filter(pk=other.pk).exclude(claim_hash="").exists)()
    # and the new captain's socket, opened before the promotion, has the rights now
    ok = await new.command("hand_over_seat", guest=other.pk)
    assert ok["type"] == "ok", ok
    for p in (old, new):
        await p.close()


def _claim(code, claim, name="Sub"):
    return Client().post(f"/api/parties/{code}/claim", json.dumps({"claim": claim, "name": name}), "application/json")


async def test_a_captain_cannot_take_a_seat_in_use_without_consent_offline_or_the_host():
    party, host_token, tokens, guests = await sync_to_async(_seated)(4, "Seat")
    captain = next(g for g in guests if g.is_captain)
    victim, away, third = [g for g in guests if not g.is_captain]
    cap = await _open(party.code, "guest", tokens[captain.pk])
    phone = await _open(party.code, "guest", tokens[victim.pk])
    watcher = await _open(party.code, "guest", tokens[third.pk])

    # The victim's phone is open: the captain is refused, with the reason, and nothing changes.
    refused = await cap.command("hand_over_seat", guest=victim.pk)
    assert refused["type"] == "error" and refused["code"] == "seat_in_use", refused
    assert "offer" in refused["message"] and "host" in refused["message"]
    assert not await sync_to_async(Guest.objects.filter(pk=victim.pk).exclude(claim_hash="").exists)()
    # Quiet for less than the offline time still counts as in use.
    await sync_to_async(Guest.objects.filter(pk=away.pk).update)(
        sockets=0, last_seen=timezone.now() - timedelta(seconds=60)
    )
    assert (await cap.command("hand_over_seat", guest=away.pk))["code"] == "seat_in_use"
    # Offline for longer than HANDOVER_OFFLINE: the captain may.
    await sync_to_async(Guest.objects.filter(pk=away.pk).update)(
        sockets=0, last_seen=timezone.now() - timedelta(minutes=3)
    )
    ok = await cap.command("hand_over_seat", guest=away.pk)
    assert ok["type"] == "ok", ok
    note = await watcher.until(lambda m: m.get("type") == "notice" and m.get("kind") == "handover")
    assert note["seat"] == away.seat and note["reason"] == "offline" and "hand" in note["message"].lower()

    # A guest can only offer their own seat; then the captain may hand it over.
    assert (await watcher.command("offer_seat", guest=victim.pk))["type"] == "error"
    offered = await phone.command("offer_seat")
    assert offered["type"] == "ok", offered
    ok = await cap.command("hand_over_seat", guest=victim.pk)
    assert ok["type"] == "ok", ok
    note = await watcher.until(
        lambda m: m.get("type") == "notice" and m.get("kind") == "handover" and m["seat"] == victim.seat
    )
    assert note["reason"] == "consent"
    # The claim is announced too, and every step is on the durable record.
    res = await sync_to_async(_claim)(party.code, ok["claim"], "Sam Sub")
    assert res.status_code == 201, res.content
    note = await watcher.until(lambda m: m.get("type") == "notice" and m.get("kind") == "claimed")
    assert note["seat"] == victim.seat and "Sam Sub" in note["message"]
    log = await sync_to_async(lambda: list(SeatHandOver.objects.filter(party=party).order_by("pk").values()))()
    assert [(r["guest_id"], r["reason"], r["requested_by"]) for r in log] == [
        (away.pk, "offline", f"captain:{captain.pk}"),
        (victim.pk, "consent", f"captain:{captain.pk}"),
    ]
    assert log[1]["claimed_by"] == "Sam Sub" and log[1]["claimed_at"] is not None and log[0]["claimed_at"] is None

    # The host may always (the host is the party's referee), and that is logged too.
    host = await _open(party.code, "host", host_token)
    ok = await host.command("hand_over_seat", guest=third.pk)
    assert ok["type"] == "ok"
    assert await sync_to_async(
        SeatHandOver.objects.filter(guest_id=third.pk, reason="host", requested_by="host").exists
    )()
    for p in (cap, phone, watcher, host):
        await p.close()
