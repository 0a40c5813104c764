"""manage.py fit_pacing recovers the party clock from a recorded party.

A 12-guest party (two tables of 6, the gate and the relay) is played to the end through
the real services, the engine's bot choosing every action, on a controlled clock: each
turn takes 20 s, each reaction window 7 s, each trim 3 s, the reveal 9 s per guest,
the relay 75 s after the last table reaches the gate, setup 150 s. The fit must give
those numbers back, and simulate must accept the fit as its model.
"""

import io
import json
import random
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from events.models import Guest, Party
from events.party import services
from events.party.commands import table_act
from events.party.roles import Actor, Role
from events.party.selectors import guest_actor
from games.yankee import Game, Phase
from games.yankee.actions import action_to_dict
from games.yankee.bots import bot_action
from relay.services import deliveries_confirm_all, relay_open, relay_run
from tables.models import Table
from tests import shorthand

pytestmark = pytest.mark.django_db

SECONDS = {"turn": 20, "window": 7, "trim": 3, "reveal_per_guest": 9, "relay": 75, "setup": 150}


class Clock:
    """The server's clock in this test. Tables play in parallel at a party, so each
    table keeps its own time and the clock shows the time of the table acting."""

    def __init__(self):
        self.now = self.start = timezone.now()

    def __call__(self):
        return self.now

    def wait(self, seconds):
        self.now += timedelta(seconds=seconds)


def play_recorded_party(clock, guests=12):
    party, _ = shorthand.party_create(name="Recorded party")
    for i in range(guests):
        shorthand.guest_join(code=party.code, name=f"Guest {i}", description=f"gift {i}")
    services.party_seat(party_id=party.pk)
    host = Actor(Role.HOST, party.pk)
    r = random.Random(3)
    tables = list(Table.objects.filter(party=party).order_by("letter"))
    started = {t.pk: False for t in tables}
    # A table's created_at takes the real clock (its field's default is the function, read
    # before this test patched it): start the test's clock when the tables were dealt, so
    # a slow machine's seconds between the two are not counted as setup.
    clock.now = clock.start = max(t.created_at for t in tables)

    table_time = {t.pk: clock.start for t in tables}

    def play(table, stop):
        clock.now = table_time[table.pk]
        while True:
            t = Table.objects.get(pk=table.pk)
            g = Game.from_dict(t.state)
            if g.phase in stop:
                return
            a = bot_action(g, r)
            wire = action_to_dict(a)
            kind = wire["type"]
            if kind in ("play", "swipe", "regroup", "vault"):
                clock.wait(SECONDS["turn"] + (0 if started[t.pk] else SECONDS["setup"]))
                started[t.pk] = True
            elif kind == "react":
                # the whole window's time is charged to its first answer
                clock.wait(SECONDS["window"] if not g.pending.window.answers else 0)
            elif kind == "trim":
                clock.wait(SECONDS["trim"])
            elif kind == "confirm_reveal":
                clock.wait(SECONDS["reveal_per_guest"] * g.players)
            if "seat" in wire:
                actor = guest_actor(Guest.objects.get(table=t, seat=wire["seat"]))
            else:
                actor = host
            table_act(actor=actor, table_id=t.pk, action=wire, expected_version=g.version)
            table_time[t.pk] = clock.now

    for t in tables:
        play(t, {Phase.GATE})
    relay_open(party_id=party.pk)
    for t in tables:
        table_act(actor=host, table_id=t.pk, action={"type": "draw_relay_seat"})
    clock.now = max(table_time.values())  # the last table reaches the gate
    clock.wait(SECONDS["relay"])
    relay_run(party_id=party.pk)
    deliveries_confirm_all(party_id=party.pk, actor_label="host")  # the walk: every gift arrived
    table_time = {t.pk: clock.now for t in tables}
    for t in tables:
        play(t, {Phase.OVER})
    party.refresh_from_db()
    assert party.status == Party.Status.OVER
    return party


def fit(*args):
    out = io.StringIO()
    call_command("fit_pacing", *args, stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue())


def test_fit_recovers_the_clock_of_a_recorded_party(monkeypatch, tmp_path):
    with pytest.raises(CommandError, match="no finished party"):
        fit()
    clock = Clock()
    monkeypatch.setattr(timezone, "now", clock)
    party = play_recorded_party(clock)
    out = tmp_path / "fit.json"
    # a finished party of another game is not Yankee Heist's clock: it is left out
    royal, _ = shorthand.party_create(name="Royal night", game="royal")
    for i in range(4):
        shorthand.guest_join(code=royal.code, name=f"R{i}", description="")
    services.party_seat(party_id=royal.pk)
    Party.objects.filter(pk=royal.pk).update(status=Party.Status.OVER)
    assert fit()["observed"]["parties"] == 1
    result = fit("--party", str(party.pk), "--output", str(out))
    m = result["model"]
    assert m["turn"] == pytest.approx(20)
    assert m["window"] == pytest.approx(7)
    assert m["trim"] == pytest.approx(3)
    assert m["reveal"] == pytest.approx(9)
    assert m["relay"] == pytest.approx(75)
    assert m["setup"] == pytest.approx(150, abs=1)  # the tables were dealt a moment after the clock started
    assert m["cv"] == pytest.approx(0, abs=1e-9)  # every turn took exactly 20 s
    assert result["observed"]["parties"] == 1 and result["observed"]["tables"] == 2
    assert result["observed"]["turns"] == 4 * 12 - 2  # the first turn of each table is setup
    assert result["defaulted"] == []

    report = io.StringIO()
    call_command(
        "simulate",
        "--model",
        str(out),
        "--players",
        "",
        "--guests",
        "12",
        "--parties",
        "4",
        "--json",
        "--workers",
        "1",
        stdout=report,
        stderr=io.StringIO(),
    )
    model = json.loads(report.getvalue().strip().splitlines()[-1])["pacing"]["model"]
    assert model["turn"] == pytest.approx(20) and model["relay"] == pytest.approx(75)
