"""A table action's database path (tables/write.py): the row lock, the request-id check
and the game in one statement, the state and the log row in another, and a hot copy of
the game this process last committed, used only while the row is exactly that one."""

from __future__ import annotations

import random

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from events.models import Guest
from events.party.commands import table_act
from events.party.selectors import guest_actor
from games.yankee import Game
from games.yankee.actions import action_to_dict
from games.yankee.bots import bot_action
from tables import write
from tables.errors import ServiceError
from tables.models import Table, TableAction
from tests.live.tables import bot_move, seated_table

pytestmark = [pytest.mark.django_db(transaction=True)]


def _table(n=4, seed=3):
    return seated_table(n, "Write path")


def _step(table: Table, r: random.Random, client_id: str):
    g, actor, wire = bot_move(table.pk, r)
    return (
        table_act(actor=actor, table_id=table.pk, action=wire, client_id=client_id, expected_version=g.version),
        actor,
        wire,
    )


def test_an_action_takes_one_statement_when_this_process_holds_the_rows_copy():
    table = _table()
    r = random.Random(3)
    write.forget()
    with CaptureQueriesContext(connection) as queries:
        _step(table, r, "w1")  # no copy yet: the locking path, two statements
    assert len([q for q in queries.captured_queries if "tables_table" in q["sql"]]) >= 2
    before = dict(write.stats)
    with CaptureQueriesContext(connection) as queries:
        outcome, _, _ = _step(table, r, "w2")
    action_sql = [q["sql"] for q in queries.captured_queries if "tables_tableaction" in q["sql"]]
    assert len(action_sql) == 1 and "FOR UPDATE" not in action_sql[0], action_sql
    assert write.stats["optimistic"] == before["optimistic"] + 1
    row = Table.objects.get(pk=table.pk)
    assert row.version == outcome.data["version"]
    assert TableAction.objects.filter(table=table, version=outcome.data["version"], client_id="w2").exists()


def test_a_stale_copy_writes_nothing_and_the_action_is_decided_on_the_row():
    table = _table(seed=9)
    r = random.Random(9)
    _step(table, r, "s1")
    stale = write._hot[table.pk]
    _step(table, r, "s2")  # as if another process had written this one
    write._hot[table.pk] = stale
    before = dict(write.stats)
    outcome, _, _ = _step(table, r, "s3")  # chosen on the row; the copy is one version behind
    assert outcome.data["version"] == stale.version + 2
    assert write.stats["optimistic"] == before["optimistic"], "nothing was written from the stale copy"
    assert write.stats["read"] == before["read"] + 1
    versions = list(TableAction.objects.filter(table=table).order_by("version").values_list("version", flat=True))
    assert versions == list(range(versions[0], outcome.data["version"] + 1)), "one log row per version, none twice"


def test_a_row_written_by_anyone_else_is_read_again_not_taken_from_the_copy():
    table = _table(seed=4)
    r = random.Random(4)
    _step(table, r, "x1")
    # Someone else rewrites the stored game at the same version (as an operator could):
    row = Table.objects.get(pk=table.pk)
    g = Game.from_dict(row.state)
    g.hands = [tuple(reversed(h)) for h in g.hands]
    Table.objects.filter(pk=table.pk).update(state=g.to_dict())
    before = dict(write.stats)
    outcome, _, _ = _step(table, r, "x2")
    assert write.stats["conflict"] == before["conflict"] + 1, "the copy's row version no longer matches"
    assert write.stats["read"] == before["read"] + 1
    stored = Game.from_dict(Table.objects.get(pk=table.pk).state)
    assert stored.version == outcome.data["version"]


def test_nothing_uncommitted_becomes_the_hot_copy():
    table = _table(seed=6)
    r = random.Random(6)
    _step(table, r, "y1")
    committed = Table.objects.get(pk=table.pk).version

    class Abort(Exception):
        pass

    with pytest.raises(Abort), transaction.atomic():
        _step(table, r, "y2")
        raise Abort()
    assert Table.objects.get(pk=table.pk).version == committed
    assert write._hot[table.pk].version == committed, "the copy is the committed version"
    outcome, _, _ = _step(table, r, "y3")
    assert outcome.data["version"] == committed + 1


def test_a_retried_request_id_is_acknowledged_and_someone_elses_is_refused():
    table = _table(seed=8)
    r = random.Random(8)
    first, actor, wire = _step(table, r, "z1")
    seen = first.data["version"] - 1  # the version the first frame was sent at
    again = table_act(actor=actor, table_id=table.pk, action=wire, client_id="z1", expected_version=seen)
    assert again.data["duplicate"] and again.data["version"] == first.data["version"]
    other_seat = next(g for g in Guest.objects.filter(table=table) if guest_actor(g) != actor)
    with pytest.raises(ServiceError) as refused:
        table_act(
            actor=guest_actor(other_seat),
            table_id=table.pk,
            action={"type": "regroup", "cards": []},
            client_id="z1",
            expected_version=first.data["version"],
        )
    assert refused.value.code == "reused_id"
    assert Table.objects.get(pk=table.pk).version == first.data["version"]


def test_the_hot_copies_are_bounded_oldest_written_first(monkeypatch):
    monkeypatch.setattr(write, "HOT_MAX", 3)
    write.forget()
    fake = write.Hot(
        xmin="1", version=2, game=None, party_id=1, letter="A", roster=[], window_opened_at=None, updated_at=None
    )
    for table_id in (1, 2, 3):
        write._remember(table_id, fake)
    write._remember(1, fake)  # written again: now the newest
    write._remember(4, fake)
    assert list(write._hot) == [3, 1, 4]
    write.forget()


def test_a_retry_waiting_on_the_lock_sees_the_first_commit_as_its_duplicate():
    """Two processes get the same frame (a phone resent it elsewhere): the second waits
    for the first's row lock, then must answer `duplicate`, never apply it again nor
    refuse it by the rules (a join in the locking statement missed the first's log row,
    which was committed after that statement began: tests/faults/test_concurrency.py)."""
    import threading
    import time

    table = _table(seed=12)
    g = Game.from_dict(Table.objects.get(pk=table.pk).state)
    while g.phase.value != "action":  # past the reveal
        _step(table, random.Random(12), f"pre{g.version}")
        g = Game.from_dict(Table.objects.get(pk=table.pk).state)
    actor = guest_actor(Guest.objects.get(table=table, seat=g.active))
    rows = TableAction.objects.filter(table=table).count()
    write.forget()
    holding, release, results = threading.Event(), threading.Event(), {}

    def first():
        try:
            with transaction.atomic():
                results["first"] = table_act(
                    actor=actor,
                    table_id=table.pk,
                    action={"type": "regroup", "cards": []},
                    client_id="dup",
                    expected_version=g.version,
                )
                with connection.cursor() as cur:
                    cur.execute("SELECT pg_backend_pid()")
                    results["first_pid"] = cur.fetchone()[0]
                holding.set()
                release.wait(10)
        finally:
            connection.close()

    def second():
        try:
            holding.wait(10)
            results["second"] = table_act(
                actor=actor,
                table_id=table.pk,
                action={"type": "regroup", "cards": []},
                client_id="dup",
                expected_version=g.version,
            )
        except Exception as exc:
            results["second"] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    holding.wait(10)
    # The second is in PostgreSQL, its backend blocked by the first's (the row lock).
    end = time.monotonic() + 10
    with connection.cursor() as cur:
        while True:
            cur.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))", [results["first_pid"]]
            )
            if cur.fetchone()[0]:
                break
            assert time.monotonic() < end, "the second never waited for the row lock"
            time.sleep(0.01)
    release.set()
    for t in threads:
        t.join(20)
    assert results["first"].data == {"version": g.version + 1, "duplicate": False}
    assert not isinstance(results["second"], Exception), results["second"]
    assert results["second"].data == {"version": g.version + 1, "duplicate": True}
    assert TableAction.objects.filter(table=table).count() == rows + 1


def _guest_turn(table: Table, r: random.Random):
    """Play (through the service) until a guest's seat is to act; its actor and frame."""
    for n in range(50):
        g = Game.from_dict(Table.objects.get(pk=table.pk).state)
        wire = action_to_dict(bot_action(g, r))
        seat = wire.pop("seat", None)
        if seat is not None:
            guest = Guest.objects.get(table=table, seat=seat)
            frame = {"type": "act", "table": table.pk, "action": wire, "re": f"g{n}", "version": g.version}
            return guest, guest_actor(guest), frame
        _step(table, r, f"h{n}")
    raise AssertionError("no guest's turn came")


def test_a_guests_act_and_its_seat_check_are_one_statement():
    """events/live/act.py `_seat_then_act`: with this process's copy of the row, the
    seat check rides in the action's own statement, one round trip in all."""
    from events.live.act import _seat_then_act

    table = _table()
    r = random.Random(5)
    _step(table, r, "w1")  # this process now holds the row's copy
    guest, actor, frame = _guest_turn(table, r)
    with CaptureQueriesContext(connection) as queries:
        outcome = _seat_then_act(actor, guest.token_hash, frame, "")
    assert outcome is not None
    assert len(queries.captured_queries) == 1, [q["sql"] for q in queries.captured_queries]
    assert Table.objects.get(pk=table.pk).version == outcome.data["version"] == frame["version"] + 1


@pytest.mark.parametrize(
    "change",
    [
        {"token_hash": "0" * 64},  # handed over to a substitute: a new secret
        {"removed_at": "now"},
        {"is_captain": "flip"},
    ],
    ids=["handed_over", "removed", "captaincy"],
)
def test_a_seat_that_changed_under_the_socket_is_never_acted_for(change):
    """The guest's row changed after the socket last checked it, while the table row
    (and this process's copy of it) did not: the one-statement path writes nothing,
    and the socket is told to look again (None), as when the seat was read first."""
    from django.utils import timezone

    from events.live.act import _seat_then_act

    table = _table()
    r = random.Random(5)
    _step(table, r, "w1")
    guest, actor, frame = _guest_turn(table, r)
    secret = guest.token_hash
    version = Table.objects.get(pk=table.pk).version
    fields = {
        k: timezone.now() if v == "now" else (not guest.is_captain) if v == "flip" else v for k, v in change.items()
    }
    Guest.objects.filter(pk=guest.pk).update(**fields)
    assert write.can_be_optimistic(table.pk, table.party_id)  # the copy still matches the table row
    assert _seat_then_act(actor, secret, frame, "") is None
    assert Table.objects.get(pk=table.pk).version == version
    assert not TableAction.objects.filter(table=table, client_id=frame["re"]).exists()
