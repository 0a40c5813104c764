"""The step clocks on the laptop stack (SQLite, as bin/serve runs it; FOR UPDATE is
not needed there, one writer at a time), in a process of its own with
config.settings.bench's embedded mode on a fresh SQLite file: the deadline is written
with the action and read back with the row, a due step is played once by the sweep,
and the hot copy path keeps the clock."""

from __future__ import annotations

from tests.live.embedded import embedded_script_output

SCRIPT = r"""
import json
from datetime import timedelta
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.db import connection
from django.utils import timezone
from events.party import clocks
from events.party import services
from events.party.commands import table_act
from events.models import Guest
from events.party.selectors import guest_actor
from games.yankee import Game
from tables.models import Table, TableAction
from tests import shorthand

assert connection.vendor == "sqlite"
party, _ = shorthand.party_create(name="Laptop", step_clock=60, step_clock_server=True)
for i in range(4):
    shorthand.guest_join(code=party.code, name=f"S{i}", description=f"gift {i}")
services.party_seat(party_id=party.pk)
table = Table.objects.get(party=party)
out = {"seated_due": table.step_due_at is not None}

def game():
    return Game.from_dict(Table.objects.get(pk=table.pk).state)

# a guest's turn (the hot copy then exists: the next action is optimistic)
g = game()
table_act(actor=guest_actor(Guest.objects.get(table=table, seat=g.active)), table_id=table.pk,
          action={"type": "regroup", "cards": []}, expected_version=g.version)
due1 = Table.objects.get(pk=table.pk).step_due_at
out["fresh_due_s"] = round((due1 - timezone.now()).total_seconds())
out["not_due_sweep"] = len(clocks.clock_sweep())
Table.objects.filter(pk=table.pk).update(step_due_at=timezone.now() - timedelta(seconds=1))
v = Table.objects.get(pk=table.pk).version
out["due_sweep_messages"] = len(clocks.clock_sweep()) > 0
out["again"] = len(clocks.clock_sweep())
out["clock_rows"] = list(TableAction.objects.filter(table=table, actor="clock").values_list("version", "client_id"))
out["v"] = v
# the next guest's turn on this process's copy of the row (optimistic): its clock too
from tables import write
before = write.stats["optimistic"]
g = game()
table_act(actor=guest_actor(Guest.objects.get(table=table, seat=g.active)), table_id=table.pk,
          action={"type": "regroup", "cards": []}, expected_version=g.version)
out["optimistic"] = write.stats["optimistic"] - before
out["optimistic_due_s"] = round((Table.objects.get(pk=table.pk).step_due_at - timezone.now()).total_seconds())
print(json.dumps(out))
"""


def test_the_step_clock_on_sqlite(tmp_path):
    out = embedded_script_output(SCRIPT, tmp_path)
    assert out["seated_due"] is True
    assert 58 <= out["fresh_due_s"] <= 60, out  # the next turn's clock, written with the action
    assert out["not_due_sweep"] == 0 and out["due_sweep_messages"] is True and out["again"] == 0, out
    assert out["clock_rows"] == [[out["v"] + 1, f"clock:{out['v']}"]], out
    assert out["optimistic"] == 1 and 58 <= out["optimistic_due_s"] <= 60, out
