"""What a Blinks Heist guest's phone is told of the teams (issue 41): in the lobby, the
team the host set for them by hand, at once and again at each change (a new snapshot
for that guest's phone alone, whose `me.group` says it); at the end, the team their seat
played for and every team's total over the tables, the winners flagged, as the host's
result adds them up (events/party/selectors.py guest_standing)."""

from __future__ import annotations

import random

import pytest
from asgiref.sync import sync_to_async

from events.broadcast.groups import guest_group
from events.models import Guest
from events.party import services
from events.party.roles import Actor, Role
from events.party.selectors import party_result, snapshot_for
from games.blinks.definition import BLINKS
from games.blinks.teams import leaders
from tables.models import Table
from tests import shorthand
from tests.live.seated_party import MergedPhone
from tests.party.played import play_until


def _snapshot(guest: Guest) -> dict:
    return snapshot_for(Actor(Role.GUEST, guest.party_id, guest_id=guest.pk, game="blinks"))


@pytest.mark.django_db
def test_setting_a_team_sends_only_that_guest_s_phone_a_new_snapshot():
    party, _ = shorthand.party_create(name="Blinks night", game="blinks", options={"vault": 3})
    ann, _, _ = shorthand.guest_join(code=party.code, name="Ann", description="")
    bob, _, _ = shorthand.guest_join(code=party.code, name="Bob", description="")
    assert _snapshot(ann)["me"]["group"] is None
    for team in (1, 3, None):
        out = services.party_set_group(party_id=party.pk, guest_id=ann.pk, group=team)
        told = [(group, msg) for group, msg in out.messages if group in (guest_group(ann.pk), guest_group(bob.pk))]
        assert told == [(guest_group(ann.pk), {"type": "resubscribe"})]
        assert _snapshot(ann)["me"]["group"] == team
        assert _snapshot(bob)["me"]["group"] is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.stack
async def test_a_lobby_phone_hears_its_team_when_the_host_sets_and_changes_it():
    party, host_token = await sync_to_async(shorthand.party_create)(name="Blinks night", game="blinks")
    ann, ann_token, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Ann", description="")
    host = await MergedPhone(party.code).connect()
    await host.hello("host", host_token)
    phone = await MergedPhone(party.code).connect()
    hello = await phone.hello("guest", ann_token)
    assert hello["me"]["group"] is None
    for team in (2, 0, None):
        assert (await host.command("set_group", guest=ann.pk, group=team))["type"] == "ok"
        snap = await phone.until(lambda m: m.get("type") == "snapshot")
        assert snap["me"]["group"] == team and snap["table"] is None
    for p in (host, phone):
        await p.close()


@pytest.mark.django_db
def test_at_the_end_each_phone_gets_its_team_and_every_team_s_total():
    party, _ = shorthand.party_create(name="Blinks night", game="blinks", options={"vault": 3})
    guests = [shorthand.guest_join(code=party.code, name=f"G{i}", description="")[0] for i in range(11)]
    services.party_set_group(party_id=party.pk, guest_id=guests[0].pk, group=2)
    services.party_seat(party_id=party.pk)
    play_until(party, random.Random(41), gate=False)
    services.party_end(party_id=party.pk)
    team_of: dict[int, int] = {}
    totals = [0, 0, 0, 0]
    for table in Table.objects.filter(party=party):
        state = BLINKS.from_dict(table.state)
        for seat, row in enumerate(table.roster):
            team_of[row["guest"]] = state.teams[seat]
        for team, n in enumerate(state.team_claims()):
            totals[team] += n
    assert sum(totals) == 6 and team_of[guests[0].pk] == 2
    groups = party_result(party)["groups"]
    assert [g["total"] for g in groups] == totals
    assert [g["group"] for g in groups if g["winner"]] == leaders(totals)
    for guest in guests:
        standing = _snapshot(guest)["standing"]
        assert standing["group"] == team_of[guest.pk]
        assert standing["groups"] == groups
