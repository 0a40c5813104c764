"""Shared fixtures for the whole suite (tests/engine/ included): keep them few,
cheap and side-effect free; a fixture only one module needs belongs there."""

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


# --- a test's event loop that cannot be torn down fails loudly instead of hanging CI ----
#
# asyncio.Runner.close() (pytest-asyncio's per-test loop) cancels every task left and waits
# for all of them with no limit: one task that swallows its cancellation, or awaits
# something that never comes while cleaning up, hangs the whole suite with every thread
# idle. Here the wait is bounded; past it, the stack of each task still pending is written
# to stderr and the teardown raises, so the run goes on and names the culprit.
LOOP_TEARDOWN_SECONDS = 30.0


def _bounded_cancel_all_tasks(loop):
    import asyncio
    import faulthandler
    import sys

    to_cancel = asyncio.all_tasks(loop)
    if not to_cancel:
        return
    for task in to_cancel:
        task.cancel()
    done, pending = loop.run_until_complete(asyncio.wait(to_cancel, timeout=LOOP_TEARDOWN_SECONDS))
    if pending:
        print(f"\n{len(pending)} task(s) still pending {LOOP_TEARDOWN_SECONDS:.0f} s after cancel:", file=sys.stderr)
        for task in pending:
            print(f"--- {task!r}", file=sys.stderr)
            task.print_stack(file=sys.stderr)
        print("--- threads (a task may wait on one):", file=sys.stderr)
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        raise RuntimeError(f"{len(pending)} task(s) ignored cancellation at loop teardown: {pending!r}")
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            loop.call_exception_handler(
                {"message": "unhandled exception during loop teardown", "exception": task.exception(), "task": task}
            )


def pytest_configure(config):
    import asyncio.runners

    asyncio.runners._cancel_all_tasks = _bounded_cancel_all_tasks


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A page a test requests activates its language in the test's own thread (the
    server's requests each have their own context), and Django keeps it active after the
    response: a test after a Spanish page would build its PDFs in Spanish."""
    yield
    from django.conf import settings

    if settings.configured:
        from django.utils import translation

        translation.deactivate()


@pytest.fixture(autouse=True)
def _close_the_sync_to_async_threads_connection():
    """Tests call the ORM through `sync_to_async` (asgiref's one thread for thread-
    sensitive code), which, unlike the consumers' database_sync_to_async, never closes
    its connection. The sockets' calls no longer run on that thread (tables.write
    run_in_db_thread), so nothing else closed it either: the connection stayed checked
    out of the pool and the test database could not be dropped at the end of the run."""
    yield
    from django.conf import settings

    if not settings.configured:
        return
    from asgiref.sync import SyncToAsync
    from django.db import connections

    SyncToAsync.single_thread_executor.submit(connections.close_all).result()
    # The lanes' own threads (events/live/lanes.py: the pongs' reads, the acts): a read a
    # pong stopped waiting for may still be running; this waits for it, then closes
    # each thread's connection.
    from events.live import lanes

    lanes.close_connections()
    # The acts' connections of the test's event loop (tables/loopwrite.py), gone with it.
    from tables import loopwrite

    loopwrite.close_all()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """pytest-django's, and before it drops the test database: collect the garbage. A
    test helper's thread that ended with a connection open (a fuzz checker's pool, say)
    leaves that connection in a reference cycle, still checked out of the pool and open
    on the server until a collection: DROP DATABASE then failed ("being accessed by
    other users") and the database stayed on the machine."""
    yield
    import gc

    gc.collect()


# --- the flush between transactional tests tries again after a deadlock -----------------
#
# pytest-django empties the database after each transactional test with one TRUNCATE of
# every table. A daphne subprocess of the fault, party and browser tests may still be
# finishing a closing socket's work then: its transaction holds one table and waits for
# another that the TRUNCATE holds, and PostgreSQL breaks the deadlock by failing one of
# them. When it picks the flush, the test passed but its teardown errs (a fresh clone's
# CI, 2026-12-03: test_kill9_right_after_run_relay_the_relay_runs_exactly_once). The flush
# is one transaction, all or nothing, so it is tried again once the other has gone.
FLUSH_ATTEMPTS = 5


def retrying_deadlocks(execute_sql_flush, *, attempts: int = FLUSH_ATTEMPTS, pause: float = 0.1):
    """`execute_sql_flush`, tried again (up to `attempts` times in all) when PostgreSQL
    failed it to break a deadlock; any other error, or the last one, is raised."""
    import time

    from django.db import OperationalError

    def execute(self, sql_list):
        for attempt in range(1, attempts + 1):
            try:
                return execute_sql_flush(self, sql_list)
            except OperationalError as exc:
                if "deadlock detected" not in str(exc) or attempt == attempts:
                    raise
                time.sleep(pause * attempt)

    return execute


@pytest.fixture(scope="session", autouse=True)
def _flush_tries_again_after_a_deadlock():
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.execute_sql_flush
    DatabaseOperations.execute_sql_flush = retrying_deadlocks(original)
    yield
    DatabaseOperations.execute_sql_flush = original
