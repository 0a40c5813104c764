"""A tablet's pairing: a code for a table of this party only, good for ten minutes,
once; a revoked tablet's code and secret open nothing; a tablet is revoked once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from events.access import gate
from events.models import Tablet
from events.party import tablets
from tables.errors import ServiceError
from tables.models import Table
from tests import shorthand

pytestmark = pytest.mark.django_db

PAIRING = timedelta(minutes=10)  # a pairing code's life, stated here rather than read from the code


def refused(expected: str, call, **kwargs) -> None:
    with pytest.raises(ServiceError) as err:
        call(**kwargs)
    assert err.value.code == expected, err.value


def seated(name: str):
    party, _, _ = shorthand.party_seated(name=name, guests=3)
    return party, Table.objects.get(party=party)


def test_a_pairing_code_is_for_a_table_of_this_party_only():
    party, _ = seated("Mine")
    _, theirs = seated("Theirs")
    refused("no_table", tablets.tablet_pair_start, party_id=party.pk, table_id=theirs.pk)


def test_a_pairing_code_works_for_ten_minutes_once(clock):
    party, table = seated("Pair")
    start = tablets.tablet_pair_start(party_id=party.pk, table_id=table.pk).data
    assert start["minutes"] == 10
    code = start["pairing"]
    clock.forward(PAIRING - timedelta(seconds=1))
    paired = tablets.tablet_pair(code=party.code, pairing=code.lower()).data
    assert paired["table"] == table.pk and gate.opens_party(party, paired["token"])
    refused("bad_pairing", tablets.tablet_pair, code=party.code, pairing=code)
    late = tablets.tablet_pair_start(party_id=party.pk, table_id=table.pk).data["pairing"]
    clock.forward(PAIRING)
    refused("bad_pairing", tablets.tablet_pair, code=party.code, pairing=late)


@pytest.mark.parametrize("pairing", ["ABC", "A" * 17, "<script>", None])
def test_a_malformed_pairing_code_is_refused(pairing):
    party, _ = seated("Malformed")
    refused("bad_pairing", tablets.tablet_pair, code=party.code, pairing=pairing)


def test_a_pairing_code_names_its_party():
    party, table = seated("Code")
    code = tablets.tablet_pair_start(party_id=party.pk, table_id=table.pk).data["pairing"]
    other, _ = seated("Other")
    refused("bad_pairing", tablets.tablet_pair, code=other.code, pairing=code)
    refused("bad_code", tablets.tablet_pair, code=None, pairing=code)
    # Grouped as it is read out ("CDFG-HJKM"), the code still works.
    grouped = f"{code[:4]}-{code[4:]}"
    assert tablets.tablet_pair(code=party.code, pairing=grouped).data["table"] == table.pk


def test_a_revoked_tablet_opens_nothing_and_is_revoked_once():
    party, table = seated("Revoke")
    start = tablets.tablet_pair_start(party_id=party.pk, table_id=table.pk).data
    paired = tablets.tablet_pair(code=party.code, pairing=start["pairing"]).data
    outcome = tablets.tablet_revoke(party_id=party.pk, tablet_id=paired["tablet"])
    assert [m["type"] for _, m in outcome.messages if m.get("type") == "removed"] == ["removed"]
    assert not gate.opens_party(party, paired["token"])
    refused("invalid", tablets.tablet_revoke, party_id=party.pk, tablet_id=paired["tablet"])
    # A code not yet traded, revoked, is dead too; another party's tablet is not ours to revoke.
    unused = tablets.tablet_pair_start(party_id=party.pk, table_id=table.pk).data
    tablets.tablet_revoke(party_id=party.pk, tablet_id=unused["tablet"])
    refused("bad_pairing", tablets.tablet_pair, code=party.code, pairing=unused["pairing"])
    other, other_table = seated("Other revoke")
    theirs = tablets.tablet_pair_start(party_id=other.pk, table_id=other_table.pk).data["tablet"]
    refused("invalid", tablets.tablet_revoke, party_id=party.pk, tablet_id=theirs)
    assert Tablet.objects.get(pk=theirs).revoked_at is None
