"""The checks at the end: acks lost, actions applied twice, screens left stale."""

from __future__ import annotations

import collections
import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench.rehearsal.party_run import PartyRun


def check_lost(party: PartyRun) -> tuple[int, list]:
    """Acknowledged actions missing from the action log (by `re` and version)."""
    from tables.models import TableAction

    rows = {
        (t, cid): v
        for t, cid, v in TableAction.objects.filter(table_id__in=party.tables).values_list(
            "table_id", "client_id", "version"
        )
    }
    lost = [a for a in party.acked if rows.get((a[0], a[1])) != a[2]]
    return len(lost), lost[:5]


def check_twice(party: PartyRun) -> tuple[int, int]:
    """(actions in the log more than once, by their `re`; actions in the log with an `re`
    no screen saw acknowledged): after a fault, a resent action must be acknowledged as a
    duplicate, never applied again, and an action applied while its reply was lost must
    still reach its screen as acknowledged."""
    from tables.models import TableAction

    ids = collections.Counter(
        (t, cid)
        for t, cid in TableAction.objects.filter(table_id__in=party.tables)
        .exclude(client_id="")
        .values_list("table_id", "client_id")
    )
    acked = {(a[0], a[1]) for a in party.acked}
    return sum(n - 1 for n in ids.values()), sum(1 for key in ids if key not in acked)


def check_stale(party: PartyRun) -> tuple[int, int, list]:
    """Screens whose last view (version and content) is not the database's, compared
    with a fresh snapshot from the selector the server uses."""
    from events.models import Guest, Party
    from events.party.roles import Actor, Role
    from events.party.selectors import guest_actor, snapshot_for

    def norm(x):
        return json.loads(json.dumps(x))

    stale, checked, samples = 0, 0, []
    pobj = Party.objects.get(code=party.code)
    host_snap = norm(snapshot_for(Actor(Role.HOST, pobj.pk)))
    screens = [(party.host, host_snap, [("public", t["table"]["id"], t) for t in host_snap["tables"]])]
    for gid, phone in party.guests.items():
        guest = Guest.objects.get(pk=gid)
        snap = norm(snapshot_for(guest_actor(guest)))
        want = []
        for kind, key in (("seat", "table"), ("public", "public")):
            if snap.get(key):
                want.append((kind, snap[key]["table"]["id"], snap[key]))
        screens.append((phone, snap, want))
    for phone, snap, want in screens:
        checked += 1
        bad = []
        for kind, tid, payload in want:
            have = phone.views.get((kind, tid))
            if have is None:
                bad.append((kind, tid, None, payload["version"]))
            elif have["version"] != payload["version"] or norm(have["view"]) != payload["view"]:
                bad.append((kind, tid, have["version"], payload["version"]))
        if bad:
            stale += 1
            if len(samples) < 5:
                samples.append({"screen": phone.name, "ready": phone.ready, "streams": bad})
    return stale, checked, samples
