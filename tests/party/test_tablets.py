"""Captains' tablets: the host pairs a tablet to a table with a one-time code; the
tablet sees that table's public view only (never a hand), does the captain's duties
there and nowhere else, whoever is captain; the host can revoke it."""

import base64
import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from events.broadcast import groups
from events.models import Guest, SeatHandOver, Tablet
from events.party import tablets
from events.party.roles import Actor, Role, groups_for
from games.yankee import Phase
from tests import shorthand
from tests.live.clients import Phone
from tests.party.drive import PartyBots, table_game, tables_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


def keys_in(value) -> set[str]:
    """Every dict key anywhere in a JSON value."""
    if isinstance(value, dict):
        out = set(value)
        for v in value.values():
            out |= keys_in(v)
        return out
    if isinstance(value, list):
        out = set()
        for v in value:
            out |= keys_in(v)
        return out
    return set()


async def pair(bots: PartyBots, table_id: int) -> tuple[dict, dict]:
    """The host asks for a pairing code; the tablet trades it. (reply, 201 body)."""
    reply = await bots.host.command("pair_tablet", table=table_id)
    assert reply["type"] == "ok", reply
    res = await sync_to_async(Client().post)(
        f"/api/parties/{bots.party.code}/tablets", json.dumps({"pairing": reply["pairing"]}), "application/json"
    )
    assert res.status_code == 201, res.content
    return reply, res.json()


async def test_pairing_is_one_time_hashed_and_host_only():
    bots = await PartyBots.create(12, seed=5)
    await bots.connect()
    try:
        assert (await bots.host.command("seat"))["type"] == "ok"
        a, b = await tables_of(bots.party.pk)
        captain = await sync_to_async(lambda: Guest.objects.get(table_id=a.pk, is_captain=True))()
        await bots.phones[captain.pk].until(lambda m: m.get("type") == "snapshot" and m.get("table"))
        refused = await bots.phones[captain.pk].command("pair_tablet", table=a.pk)
        assert refused["type"] == "error" and refused["code"] == "forbidden"
        bad = await bots.host.command("pair_tablet", table=b.pk + 999)
        assert bad["type"] == "error" and bad["code"] == "no_table"

        reply = await bots.host.command("pair_tablet", table=a.pk)
        assert reply["type"] == "ok" and reply["letter"] == "A" and len(reply["pairing"]) == 8
        # The QR code is of the tablet page with the code in the fragment (never sent to a server).
        svg = base64.b64decode(reply["qr"].removeprefix("data:image/svg+xml;base64,"))
        assert svg.startswith(b"<?xml") and b"<svg" in svg and reply["path"] == f"/t/{bots.party.code}/"
        client = Client()
        post = lambda body: sync_to_async(client.post)(  # noqa: E731
            f"/api/parties/{bots.party.code}/tablets", json.dumps(body), "application/json"
        )
        wrong = await post({"pairing": "WRONGCOD"})
        assert wrong.status_code == 400 and wrong.json()["error"] == "bad_pairing"
        assert (await post({"pairing": "<script>"})).status_code == 400
        ok = await post({"pairing": reply["pairing"].lower()})
        assert ok.status_code == 201, ok.content
        body = ok.json()
        assert body["letter"] == "A" and body["table"] == a.pk
        again = await post({"pairing": reply["pairing"]})
        assert again.status_code == 400 and again.json()["error"] == "bad_pairing"  # one time only
        row = await sync_to_async(Tablet.objects.get)(pk=body["tablet"])
        stored = json.dumps([row.token_hash, row.pairing_hash])
        assert body["token"] not in stored and reply["pairing"] not in stored
        # The host's roster lists the paired tablet.
        msg = await bots.host.until(
            lambda m: m.get("type") == "party" and m.get("role") == "host" and m["party"]["tablets"]
        )
        assert msg["party"]["tablets"] == [
            {"id": row.pk, "table": a.pk, "letter": "A", "paired_at": pytest.approx(row.paired_at.timestamp())}
        ]
        public = next(t for t in msg["party"]["tables"] if t["letter"] == "A")
        assert public["tablet"] is True and public["captain"] == captain.name
        # An expired pairing code opens nothing.
        late = await bots.host.command("pair_tablet", table=b.pk)
        await sync_to_async(
            lambda: Tablet.objects.filter(pk=late["tablet"]).update(pairing_expires="2000-01-01T00:00Z")
        )()
        assert (await post({"pairing": late["pairing"]})).status_code == 400
    finally:
        await bots.close()


def test_a_tablet_socket_joins_its_public_table_group_and_never_a_seat_group():
    actor = Actor(Role.TABLET, party_id=1, table_id=7, tablet_id=3)
    wanted = groups_for(actor)
    assert wanted == {groups.party_group(1), groups.table_group(7), groups.tablet_group(3)}
    assert not any(".s" in g for g in wanted)  # seat groups are t<table>.s<seat>


async def test_a_tablet_does_the_duties_at_its_table_only_and_never_gets_a_hand():
    bots = await PartyBots.create(12, seed=7)
    await bots.connect()
    tablet = None
    try:
        assert (await bots.host.command("seat"))["type"] == "ok"
        a, b = await tables_of(bots.party.pk)
        _, body = await pair(bots, a.pk)
        tablet = await Phone(bots.party.code).connect()
        snap = await tablet.hello("tablet", body["token"])
        assert snap["role"] == "tablet" and snap["tablet"]["letter"] == "A"
        assert snap["table"]["view"].get("you") is None and "hand" not in keys_in(snap)

        # Seat actions are refused: a tablet is nobody's seat.
        refused = await tablet.act({"type": "regroup", "cards": []})
        assert refused["type"] == "error" and refused["code"] == "forbidden"
        # Play table A to the reveal (bots over the guests' sockets).
        await bots.play_until(a, {Phase.REVEAL})
        # The host makes another guest captain: the tablet does not care who is.
        other = await sync_to_async(
            lambda: Guest.objects.filter(table_id=a.pk, is_captain=False).order_by("seat").first()
        )()
        assert (await bots.host.command("set_captain", guest=other.pk))["type"] == "ok"
        # Not at another table...
        wrong = await tablet.act({"type": "confirm_reveal"}, table=b.pk)
        assert wrong["type"] == "error" and wrong["code"] == "forbidden"
        # ...but at its own.
        ok = await tablet.act({"type": "confirm_reveal"})
        assert ok["type"] == "ok", ok
        assert (await table_game(a.pk)).phase is not Phase.REVEAL
        log = await sync_to_async(lambda: list(a.actions.order_by("-version").values_list("actor", flat=True)[:1]))()
        assert log == [f"tablet:{body['tablet']}"]
        # A hand-over at its own table, not at another.
        leaver = await sync_to_async(lambda: Guest.objects.filter(table_id=a.pk).order_by("seat").first())()
        stranger = await sync_to_async(lambda: Guest.objects.filter(table_id=b.pk).order_by("seat").first())()
        # Like a captain, a tablet hands over a seat in use only once its guest offers it.
        busy = await tablet.command("hand_over_seat", guest=leaver.pk)
        assert busy["type"] == "error" and busy["code"] == "seat_in_use", busy
        assert (await bots.phones[leaver.pk].command("offer_seat"))["type"] == "ok"
        claim = await tablet.command("hand_over_seat", guest=leaver.pk)
        assert claim["type"] == "ok" and len(claim["claim"]) == 8
        record = await sync_to_async(lambda: SeatHandOver.objects.get(guest=leaver))()
        assert (record.requested_by, record.reason) == (f"tablet:{body['tablet']}", SeatHandOver.Reason.CONSENT)
        nope = await tablet.command("hand_over_seat", guest=stranger.pk)
        assert nope["type"] == "error" and nope["code"] == "forbidden"
        # The 60-second pass is the server's clock's call.
        await bots.play_until(a, {Phase.REACTION})
        g = await table_game(a.pk)
        if g.phase is Phase.REACTION:
            seat = g.pending.window.waiting()[0]
            early = await tablet.act({"type": "timeout_pass", "seat": seat})
            assert early["type"] == "error" and early["code"] == "too_early", early
        # Host commands are not the tablet's.
        assert (await tablet.command("seat"))["code"] == "forbidden"
        assert (await tablet.command("pair_tablet", table=a.pk))["code"] == "forbidden"
        # Everything the tablet received carries the public view only.
        # (every update since it connected, none missed: how many depends on the deal)
        final = await table_game(a.pk)
        await tablet.at_version(final.version)
        await tablet.drain()
        first = snap["table"]["version"]
        assert final.version > first and set(tablet.versions) >= set(range(first + 1, final.version + 1))
        for m in tablet.inbox:
            assert "hand" not in keys_in(m) and "peeks" not in keys_in(m), m
            if m.get("type") == "table":
                assert m["table"]["id"] == a.pk and "you" not in m["view"]
    finally:
        if tablet:
            await tablet.close()
        await bots.close()


async def test_the_host_revokes_a_tablet_even_if_the_broadcast_is_lost():
    bots = await PartyBots.create(4, seed=2)
    await bots.connect()
    try:
        assert (await bots.host.command("seat"))["type"] == "ok"
        (a,) = await tables_of(bots.party.pk)
        _, body = await pair(bots, a.pk)
        tab = await Phone(bots.party.code).connect()
        await tab.hello("tablet", body["token"])
        assert (await bots.host.command("revoke_tablet", tablet=body["tablet"]))["type"] == "ok"
        gone = await tab.until(lambda m: m.get("type") == "removed")
        assert "unpaired" in gone["message"]
        assert await tab.closed() == 4401
        again = await Phone(bots.party.code).connect()
        assert (await again.hello("tablet", body["token"]))["code"] == "bad_secret"

        # A second tablet, revoked with its `removed` message never sent.
        _, body2 = await pair(bots, a.pk)
        tab2 = await Phone(bots.party.code).connect()
        await tab2.hello("tablet", body2["token"])
        await sync_to_async(tablets.tablet_revoke)(party_id=bots.party.pk, tablet_id=body2["tablet"])  # no send
        refused = await tab2.act({"type": "confirm_reveal"})
        assert refused["type"] == "error" and refused["code"] == "removed"
        assert await tab2.closed() == 4401
        assert (await bots.host.command("revoke_tablet", tablet=body2["tablet"]))["code"] == "invalid"
    finally:
        await bots.close()


def test_a_guest_whose_own_gift_ends_in_a_vault_takes_it_home_too():
    """The end screen lists everything a guest takes home: the gift in front of them
    and, if the gift they brought ended in a vault, that one as well."""
    from events.models import Party
    from events.party import services
    from events.party.selectors import guest_actor, snapshot_for
    from tables.models import Table

    party, _ = shorthand.party_create(name="Vault end", vault_size=1)
    for name in ["Ann", "Ben", "Cy"]:
        shorthand.guest_join(code=party.code, name=name, description=f"{name}'s gift")
    services.vault_gift_add(party_id=party.pk, contributor="Hal", description="a vault treat")
    services.party_seat(party_id=party.pk)
    table = Table.objects.get(party=party)
    ann = Guest.objects.get(party=party, name="Ann")
    # Ann cashed her gift in at the vault and took the vault gift; the game ended.
    state = dict(table.state)
    gifts, vault = list(state["gifts"]), list(state["vault"])
    seat_of_own = gifts.index(ann.gift_number)  # wherever the deal put the gift Ann brought
    own, treat = gifts[seat_of_own], vault[0]
    assert treat == 1001
    # Ann ends with the vault gift; the gift she brought ended in the vault.
    gifts[seat_of_own], gifts[ann.seat] = gifts[ann.seat], gifts[seat_of_own]
    own = gifts[ann.seat]
    gifts[ann.seat], vault[0] = treat, own
    state.update(gifts=gifts, vault=vault, phase="over")
    Table.objects.filter(pk=table.pk).update(state=state)
    Party.objects.filter(pk=party.pk).update(status=Party.Status.OVER)

    snap = snapshot_for(guest_actor(Guest.objects.get(pk=ann.pk)))
    assert [(r["kind"], r["gift"]) for r in snap["takes_home"]] == [("keeps", "V1"), ("vault_return", str(own))]
    ben = Guest.objects.get(party=party, name="Ben")
    assert [(r["kind"], r["gift"]) for r in snapshot_for(guest_actor(ben))["takes_home"]] == [
        ("keeps", str(gifts[ben.seat]))
    ]
