"""The flush between transactional tests (tests/conftest.py) tries again when
PostgreSQL failed it to break a deadlock with a daphne subprocess's last write, and
only then."""

from __future__ import annotations

import pytest
from django.db import OperationalError, ProgrammingError

from tests.conftest import retrying_deadlocks


class Flush:
    def __init__(self, failures: list[Exception]):
        self.failures = failures
        self.calls = 0

    def __call__(self, ops, sql_list):
        self.calls += 1
        if self.failures:
            raise self.failures.pop(0)
        return ("flushed", tuple(sql_list))


def deadlock():
    return OperationalError("deadlock detected\nDETAIL: Process 1 waits for AccessExclusiveLock")


def test_a_deadlock_is_tried_again_until_the_flush_goes_through():
    flush = Flush([deadlock(), deadlock()])
    assert retrying_deadlocks(flush, pause=0)(None, ["TRUNCATE x"]) == ("flushed", ("TRUNCATE x",))
    assert flush.calls == 3


def test_other_errors_and_the_last_deadlock_are_raised():
    flush = Flush([OperationalError("server closed the connection")])
    with pytest.raises(OperationalError, match="server closed"):
        retrying_deadlocks(flush, pause=0)(None, [])
    assert flush.calls == 1
    flush = Flush([ProgrammingError("relation does not exist")])
    with pytest.raises(ProgrammingError):
        retrying_deadlocks(flush, pause=0)(None, [])
    flush = Flush([deadlock() for _ in range(3)])
    with pytest.raises(OperationalError, match="deadlock"):
        retrying_deadlocks(flush, attempts=3, pause=0)(None, [])
    assert flush.calls == 3


def test_the_suite_flushes_through_it():
    from django.db.backends.postgresql.operations import DatabaseOperations

    assert DatabaseOperations.execute_sql_flush.__qualname__.startswith("retrying_deadlocks")
