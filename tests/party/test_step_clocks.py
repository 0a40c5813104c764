"""Step clocks (docs/RULES.md, "When a guest does not answer"): the host's setting, the
captain's and the host's pass once a step's clock ran out, and the server's own pass,
fired exactly once however many sweepers run (PostgreSQL: FOR UPDATE SKIP LOCKED)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from events.models import Guest, Party
from events.party import clocks, play, services
from events.party.commands import table_act
from events.party.roles import Actor, Role
from events.party.selectors import guest_actor
from games.yankee import Game, Phase
from tables.errors import ServiceError
from tables.models import Table, TableAction
from tests import shorthand
from tests.live.tables import _drive

pytestmark = pytest.mark.django_db(transaction=True)


def _seated(n=4, *, clock=60, server=True):
    party, _, _ = shorthand.party_seated(name="Clocks", guests=n)
    services.party_set_clock(party_id=party.pk, step_clock=clock, step_clock_server=server)
    return party, Table.objects.get(party=party)


def table_game(table_id: int) -> Game:
    return Game.from_dict(Table.objects.get(pk=table_id).state)


def _backdate(table: Table, seconds: float = 1) -> None:
    """The step waiting now ran out `seconds` ago (as if that long had passed)."""
    Table.objects.filter(pk=table.pk).update(step_due_at=timezone.now() - timedelta(seconds=seconds))


def _host(party: Party) -> Actor:
    return Actor(Role.HOST, party.pk)


def _captain(table: Table) -> Actor:
    return guest_actor(Guest.objects.get(table=table, is_captain=True))


def _clock_actions(table: Table) -> list[TableAction]:
    return list(TableAction.objects.filter(table=table, actor="clock").order_by("version"))


def test_the_host_sets_the_clock_at_creation_and_changes_it_for_every_table():
    party, _ = shorthand.party_create(name="Set", step_clock=60, step_clock_server=True)
    assert (party.step_clock, party.step_clock_server) == (60, True)
    for bad in ({"step_clock": 30}, {"step_clock": "60"}, {"step_clock_server": "yes"}):
        with pytest.raises(ServiceError) as err:
            shorthand.party_create(name="Bad", **bad)
        assert err.value.code == "invalid"
    party, table = _seated(clock=120, server=False)
    assert (table.step_clock, table.step_clock_server) == (120, False)
    assert 119 <= (table.step_due_at - timezone.now()).total_seconds() <= 120
    with pytest.raises(ServiceError):
        services.party_set_clock(party_id=party.pk, step_clock=45, step_clock_server=True)
    assert Table.objects.get(pk=table.pk).step_clock == 120  # nothing changed
    services.party_set_clock(party_id=party.pk, step_clock=0, step_clock_server=False)
    table.refresh_from_db()
    assert (table.step_clock, table.step_due_at) == (0, None)
    # only the host may: a captain's set_clock is forbidden
    with pytest.raises(ServiceError) as err:
        from events.party.commands import dispatch

        dispatch(
            _captain(table), {"type": "party", "command": "set_clock", "step_clock": 60, "step_clock_server": True}
        )
    assert err.value.code == "forbidden"


def test_a_quiet_guests_turn_is_passed_by_the_captain_only_once_its_clock_ran_out():
    _party, table = _seated(clock=60, server=False)
    g = table_game(table.pk)
    with pytest.raises(ServiceError) as err:
        table_act(actor=_captain(table), table_id=table.pk, action={"type": "timeout_pass", "seat": g.active})
    assert err.value.code == "too_early" and "can be passed after 60 s" in str(err.value)
    assert table_game(table.pk).version == g.version
    _backdate(table)
    ok = table_act(actor=_captain(table), table_id=table.pk, action={"type": "timeout_pass", "seat": g.active})
    assert ok.data["version"] == g.version + 1
    after = table_game(table.pk)
    assert after.phase is Phase.ACTION and after.active == (g.active + 1) % 4
    assert after.hands[g.active] == g.hands[g.active]  # the turn passed: nothing played
    row = TableAction.objects.get(table=table, version=after.version)
    assert row.action == {"type": "timeout_pass", "seat": g.active} and row.actor.startswith("captain:")
    # the next guest's turn has a fresh clock
    assert (Table.objects.get(pk=table.pk).step_due_at - timezone.now()).total_seconds() > 55


def test_with_the_clock_off_a_turn_waits_for_its_guest():
    party, table = _seated(clock=0, server=False)
    g = table_game(table.pk)
    with pytest.raises(ServiceError) as err:
        table_act(actor=_host(party), table_id=table.pk, action={"type": "timeout_pass", "seat": g.active})
    assert err.value.code == "too_early" and "clock is off" in str(err.value)
    assert clocks.clock_sweep() == [] and table_game(table.pk).version == g.version


def test_the_server_plays_a_due_step_once_and_a_step_not_due_never():
    _party, table = _seated(clock=60, server=True)
    g = table_game(table.pk)
    assert clocks.clock_sweep() == []  # not due yet
    _backdate(table)
    messages = clocks.clock_sweep()
    assert messages  # the table's update for every screen
    (row,) = _clock_actions(table)
    assert row.version == g.version + 1 and row.client_id == f"clock:{g.version}"
    assert row.action == {"type": "timeout_pass", "seat": g.active}
    assert clocks.clock_sweep() == []  # the next step has its own, fresh clock
    assert len(_clock_actions(table)) == 1


def test_the_server_does_not_play_where_the_host_did_not_choose_it():
    _party, table = _seated(clock=60, server=False)
    _backdate(table)
    assert clocks.clock_sweep() == [] and _clock_actions(table) == []


def test_a_second_fire_for_the_same_step_is_a_no_op():
    """The request id is (table, version): a fire for a step already played does nothing."""
    party, table = _seated(clock=60, server=True)
    v = Table.objects.get(pk=table.pk).version
    now = timezone.now() + timedelta(seconds=61)
    from django.db import transaction

    for _ in range(2):
        with transaction.atomic():
            outcome, game = play.table_act_stand_in(
                party_id=party.pk, table_id=table.pk, version=v, actor_label="clock", now=now
            )
    assert game is None and outcome.data["duplicate"] is True
    assert [r.version for r in _clock_actions(table)] == [v + 1]


def test_the_server_lets_a_move_happen_for_every_quiet_seat_of_a_reaction_window():
    party, table = _seated(clock=60, server=False)
    w = _drive(table.pk, lambda g: g.phase is Phase.REACTION, seed=3, max_steps=400)
    waiting, window = w.pending.window.waiting(), w.pending.window.version
    services.party_set_clock(party_id=party.pk, step_clock=60, step_clock_server=True)
    _backdate(table)
    clocks.clock_sweep()
    rows = _clock_actions(table)
    assert [r.action for r in rows[: len(waiting)]] == [
        {"type": "timeout_pass", "seat": s, "window": window} for s in waiting
    ]  # clockwise, each once, naming the window
    after = table_game(table.pk)
    assert after.phase is not Phase.REACTION or after.pending.window.version != window


@pytest.mark.skipif("connection.vendor != 'postgresql'")
def test_two_concurrent_sweepers_play_a_due_step_exactly_once():
    """Both start at the same instant, each on its own connection, five steps in a row."""
    _party, table = _seated(clock=60, server=True)
    for _ in range(5):
        before = len(_clock_actions(table))
        _backdate(table)
        barrier = threading.Barrier(2)
        results: list = []

        def sweeper(barrier=barrier, results=results):
            try:
                barrier.wait()
                results.append(clocks.clock_sweep())
            finally:
                connections.close_all()

        threads = [threading.Thread(target=sweeper) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert len(results) == 2
        assert len(_clock_actions(table)) == before + 1


@pytest.mark.skipif("connection.vendor != 'postgresql'")
def test_a_sweeper_skips_the_table_another_sweeper_is_playing(monkeypatch):
    """While one sweeper holds the claimed row (its transaction open), another finds
    nothing to do instead of waiting; once the first commits, the step is played once."""
    _party, table = _seated(clock=60, server=True)
    _backdate(table)
    claimed, release = threading.Event(), threading.Event()
    real = clocks.table_act_stand_in

    def slow(**kwargs):
        if threading.current_thread().name == "first":
            claimed.set()
            out["released in time"] = release.wait(20)  # False: the other sweeper waited for the lock
        return real(**kwargs)

    out: dict = {}
    monkeypatch.setattr(clocks, "table_act_stand_in", slow)

    def first():
        try:
            out["first"] = clocks.clock_sweep()
        finally:
            connections.close_all()

    t = threading.Thread(target=first, name="first")
    t.start()
    assert claimed.wait(20)
    try:
        assert clocks.clock_sweep() == []  # the row is locked: skipped, not waited for
    finally:
        release.set()
        t.join(30)
    assert out["released in time"] and out["first"] and len(_clock_actions(table)) == 1
    assert clocks.clock_sweep() == [] and len(_clock_actions(table)) == 1


def test_a_clock_adds_no_query_to_an_action():
    """The deadline is written in the action's own statement: the same queries with the
    clock on as with it off."""
    counts = []
    for clock in (0, 60):
        _party, table = _seated(clock=clock, server=bool(clock))
        g = table_game(table.pk)
        guest = Guest.objects.get(table=table, seat=g.active)
        with CaptureQueriesContext(connection) as ctx:
            table_act(
                actor=guest_actor(guest),
                table_id=table.pk,
                action={"type": "regroup", "cards": []},
                expected_version=g.version,
            )
        counts.append(len(ctx.captured_queries))
        due = Table.objects.get(pk=table.pk).step_due_at
        assert (due is None) is (clock == 0)
    assert counts[0] == counts[1]


def test_the_server_confirms_a_reveal_whose_clock_ran_out_and_discards_a_quiet_trim_at_random():
    party, table = _seated(n=5, clock=60, server=False)
    _drive(table.pk, lambda g: g.phase is Phase.REVEAL, seed=4, max_steps=800)
    services.party_set_clock(party_id=party.pk, step_clock=60, step_clock_server=True)
    _backdate(table)
    clocks.clock_fire_one()
    (row,) = _clock_actions(table)
    assert row.action == {"type": "confirm_reveal"}
    g = table_game(table.pk)
    assert g.round == 2 and g.phase is Phase.ACTION
    # a trim: the quiet seat's excess goes to the discards at random, and play goes on
    services.party_set_clock(party_id=party.pk, step_clock=60, step_clock_server=False)
    t = _drive(table.pk, lambda g: g.phase is Phase.TRIM, seed=5, max_steps=800)
    services.party_set_clock(party_id=party.pk, step_clock=60, step_clock_server=True)
    _backdate(table)
    clocks.clock_sweep()
    trims = [r for r in _clock_actions(table) if r.version > row.version]
    assert [r.action["seat"] for r in trims[: len(t.trims)]] == sorted(t.trims)
    after = table_game(table.pk)
    for seat in t.trims:
        assert len(after.hands[seat]) <= 5 + (1 if after.phase is Phase.ACTION and after.active == seat else 0)


SEED = 1


def _royal_seated(n: int = 4, *, clock: int = 60, server: bool = False) -> tuple[Party, Table]:
    party, _ = shorthand.party_create(name="Royal clocks", game="royal", games=1)
    # One deal every run: under some seeds the card after the decisions ends the heist,
    # and the next one starts with nobody revealed (seen once in CI-sized runs).
    Party.objects.filter(pk=party.pk).update(seed=SEED)
    for i in range(n):
        shorthand.guest_join(code=party.code, name=f"R{i}", description="")
    services.party_seat(party_id=party.pk)
    services.party_set_clock(party_id=party.pk, step_clock=clock, step_clock_server=server)
    return party, Table.objects.get(party=party)


def test_a_quiet_royal_guest_is_got_out_by_the_captain_or_host_only_once_the_clock_ran_out():
    """Royal Heist with the server's play off: a guest who never chooses would hold the
    table for ever, so the captain (or tablet, or host) plays the clock's choice, to get
    out, once the clock has run out; a guest never does it for another seat."""
    party, table = _royal_seated(clock=60, server=False)
    quiet = 3
    others = [g for g in Guest.objects.filter(table=table) if g.seat != quiet]
    for g in others:  # everybody else chooses at once
        table_act(
            actor=guest_actor(g, game="royal"),
            table_id=table.pk,
            action={"type": "decide", "seat": g.seat, "press_on": True},
            expected_version=table.version,
        )
    before = Table.objects.get(pk=table.pk)
    assert set(before.state["decisions"]) == {str(g.seat) for g in others}  # only the quiet one is waited for
    with pytest.raises(ServiceError) as err:
        table_act(
            actor=guest_actor(Guest.objects.get(table=table, is_captain=True), game="royal"),
            table_id=table.pk,
            action={"type": "timeout_decide", "seat": quiet},
            expected_version=before.version,
        )
    assert err.value.code == "too_early"
    somebody = next(g for g in others if not g.is_captain)
    _backdate(table)
    with pytest.raises(ServiceError) as err:
        table_act(
            actor=guest_actor(somebody, game="royal"),
            table_id=table.pk,
            action={"type": "timeout_decide", "seat": quiet},
            expected_version=before.version,
        )
    assert err.value.code == "forbidden"
    assert Table.objects.get(pk=table.pk).version == before.version
    host = Actor(Role.HOST, party.pk, game="royal")
    ok = table_act(
        actor=host, table_id=table.pk, action={"type": "timeout_decide", "seat": quiet}, expected_version=before.version
    )
    assert ok.data["version"] == before.version + 1
    row = TableAction.objects.get(table=table, version=before.version + 1)
    assert row.action == {"type": "timeout_decide", "seat": quiet} and row.actor == "host"
    after = Table.objects.get(pk=table.pk).state
    assert after["revealed"][str(quiet)] is False  # the clock's choice: the empty fist


def test_the_server_gets_a_quiet_royal_guest_out_when_the_host_chose_it():
    _party, table = _royal_seated(clock=60, server=True)
    version = Table.objects.get(pk=table.pk).version
    assert clocks.clock_sweep() == []
    _backdate(table)
    assert clocks.clock_sweep()
    # one clock for every seat inside: each quiet seat in turn, all in the one sweep
    rows = _clock_actions(table)
    assert [(r.version, r.action) for r in rows] == [
        (version + 1 + s, {"type": "timeout_decide", "seat": s}) for s in range(4)
    ]
    assert clocks.clock_sweep() == []  # the next room's step has its own, fresh clock


def test_a_blinks_table_with_a_quiet_thrower_finishes_the_server_passing_each_of_their_turns():
    """The rehearsal's quiet guest (bench/party.py --quiet) at a Blinks table: the thrower
    who never records holds the table only for the step clock, then the server passes
    their turn (their seat throws nothing, claims nothing), and the vault still empties."""
    from games.blinks.definition import BLINKS

    party, _ = shorthand.party_create(name="Blinks clocks", game="blinks", options={"vault": 3})
    for i in range(3):
        shorthand.guest_join(code=party.code, name=f"B{i}", description="")
    services.party_seat(party_id=party.pk)
    services.party_set_clock(party_id=party.pk, step_clock=60, step_clock_server=True)
    table = Table.objects.get(party=party)
    guests = {g.seat: g for g in Guest.objects.filter(table=table)}
    quiet = next(s for s, g in guests.items() if not g.is_captain)
    captain = guest_actor(next(g for g in guests.values() if g.is_captain), game="blinks")
    passes = 0
    for _ in range(200):
        t = Table.objects.get(pk=table.pk)
        g = BLINKS.from_dict(t.state)
        if BLINKS.is_over(g):
            break
        if g.turn == quiet and g.pending is None:
            assert clocks.clock_sweep() == []  # the clock has not run out: the table waits
            _backdate(table)
            assert clocks.clock_sweep()
            passes += 1
            continue
        if g.pending is None:
            hit = g.in_vault()[0]
            action = {"type": "throw", "seat": g.turn, "throw": g.throws + 1, "hit": hit, "touched": False}
            table_act(
                actor=guest_actor(guests[g.turn], game="blinks"),
                table_id=t.pk,
                action=action,
                expected_version=t.version,
            )
        else:
            table_act(
                actor=captain,
                table_id=t.pk,
                action={"type": "confirm", "throw": g.pending.throw},
                expected_version=t.version,
            )
    g = BLINKS.from_dict(Table.objects.get(pk=table.pk).state)
    assert BLINKS.is_over(g) and passes >= 1
    assert g.claims()[quiet] == 0 and sum(g.claims()) == 3
    rows = _clock_actions(table)
    assert len(rows) == passes and all(r.action["seat"] == quiet for r in rows)
