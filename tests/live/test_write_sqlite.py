"""The laptop stack's write path (tables/write.py on SQLite, as bin/serve runs it), in
a process of its own with config.settings.bench's embedded mode on a fresh SQLite file:
every action lands once in the log and the stored game is the log's replay, the hot
copy is used only while the stored texts are its own, a retried request id is
acknowledged, a rolled-back transaction leaves the committed copy, and a guest's act
rides its seat check in its own write, which applies to nobody else's seat."""

from __future__ import annotations

from tests.live.embedded import embedded_script_output

SCRIPT = r"""
import json, random
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.db import connection, transaction
from events.party import services
from tables.replay import table_setup
from games.yankee.definition import YANKEE
from tests import shorthand
from events.models import Guest
from events.party.roles import Actor, Role
from events.party.selectors import guest_actor
from tables import write
from games.yankee import Game
from games.yankee.actions import action_to_dict, parse_action
from games.yankee.bots import bot_action
from tables.models import Table, TableAction
from events.party.commands import table_act

assert connection.vendor == "sqlite"
party, _ = shorthand.party_create(name="SQLite")
for i in range(5):
    shorthand.guest_join(code=party.code, name=f"S{i}", description=f"gift {i}")
services.party_seat(party_id=party.pk)
table = Table.objects.get(party=party)
r = random.Random(2)
out = {}

def step(client_id):
    g = Game.from_dict(Table.objects.get(pk=table.pk).state)
    wire = action_to_dict(bot_action(g, r))
    seat = wire.pop("seat", None)
    actor = Actor(Role.HOST, party.pk) if seat is None else guest_actor(Guest.objects.get(table=table, seat=seat))
    return table_act(actor=actor, table_id=table.pk, action=wire, client_id=client_id, expected_version=g.version), actor, wire

for i in range(20):
    step(f"a{i}")
out["after_20"] = dict(write.stats)
t = Table.objects.get(pk=table.pk)
log = list(TableAction.objects.filter(table=t).order_by("version"))
out["versions_once"] = [a.version for a in log] == list(range(2, t.version + 1))
replayed = YANKEE.replay(table_setup(t), [parse_action(a.action) for a in log])
out["replay_equal"] = replayed.to_dict() == t.state
g = Game.from_dict(Table.objects.get(pk=table.pk).state)
g.hands = [tuple(reversed(h)) for h in g.hands]
Table.objects.filter(pk=table.pk).update(state=g.to_dict())  # another writer
before = dict(write.stats)
step("b0")
out["after_rewrite"] = {k: write.stats[k] - before[k] for k in before}
first, actor, wire = step("c0")
again = table_act(actor=actor, table_id=table.pk, action=wire, client_id="c0", expected_version=first.data["version"] - 1)
out["duplicate"] = [again.data["duplicate"], again.data["version"] == first.data["version"]]
committed = Table.objects.get(pk=table.pk).version
try:
    with transaction.atomic():
        step("d0")
        raise KeyError("abort")
except KeyError:
    pass
out["rolled_back"] = [Table.objects.get(pk=table.pk).version == committed, write._hot[table.pk].version == committed]
for i in range(5):
    step(f"e{i}")
# A guest's act with the seat check in its statement (events/live/act._seat_then_act):
# one statement while the seat holds; nothing written once it was handed over.
from django.test.utils import CaptureQueriesContext
from events.live.act import _seat_then_act
def guest_frame(n):
    while True:
        g = Game.from_dict(Table.objects.get(pk=table.pk).state)
        wire = action_to_dict(bot_action(g, r))
        seat = wire.pop("seat", None)
        if seat is not None:
            guest = Guest.objects.get(table=table, seat=seat)
            return guest, {"type": "act", "table": table.pk, "action": wire, "re": f"s{n}", "version": g.version}
        step(f"h{n}")
guest, frame = guest_frame(0)
with CaptureQueriesContext(connection) as q:
    done = _seat_then_act(guest_actor(guest), guest.token_hash, frame, "")
out["seat_in_statement"] = [done is not None, len(q.captured_queries)]
guest, frame = guest_frame(1)
version = Table.objects.get(pk=table.pk).version
Guest.objects.filter(pk=guest.pk).update(token_hash="0" * 64)  # handed over meanwhile
done = _seat_then_act(guest_actor(guest), guest.token_hash, frame, "")
out["handed_over"] = [done is None, Table.objects.get(pk=table.pk).version == version]
Guest.objects.filter(pk=guest.pk).update(token_hash=guest.token_hash)
t = Table.objects.get(pk=table.pk)
log = list(TableAction.objects.filter(table=t).order_by("version"))
out["versions_once_at_end"] = [a.version for a in log] == list(range(2, t.version + 1))
print(json.dumps(out))
"""


def test_the_sqlite_write_path(tmp_path):
    out = embedded_script_output(SCRIPT, tmp_path)
    assert out["after_20"]["optimistic"] >= 18, out  # one copy-guarded write per action
    assert out["after_rewrite"]["conflict"] == 1 and out["after_rewrite"]["read"] == 1, out
    assert out["after_rewrite"]["optimistic"] == 0, out
    assert out["duplicate"] == [True, True], out
    assert out["rolled_back"] == [True, True], out
    # the UPDATE (with the seat check) and INSERT in their transaction, and no SELECT of
    # the seat before them (that made 5)
    assert out["seat_in_statement"] == [True, 4], out
    assert out["handed_over"] == [True, True], out
    assert out["versions_once"] and out["replay_equal"] and out["versions_once_at_end"], out
