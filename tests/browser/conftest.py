"""Fixtures for the real-browser tests: the real ASGI server (daphne, as bin/serve runs
it) in a subprocess on this run's test database, and headless Debian chromium.

The server uses config.settings.browser: the test settings pointed at the database
pytest-django created (so a `django_db(transaction=True)` test and the server see each
other's commits) and at this run's channel-layer prefix. It serves /static/ itself.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from bench.stack import DaphneServer, no_proxy_env
from tests.browser import serverlog
from tests.browser.serverlog import SERVER_LOG, log_name

# A page's `expect` waits for what the server will show: 5 s (Playwright's default) was
# the whole margin a screen had on a 2-core CI machine running two test workers, each
# with its own daphne and Chromium. What is asserted is the same; only the wait is longer.
expect.set_options(timeout=15_000)

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# One directory per pytest run, one server log per test in it, named after the test;
# a failed test's report names its log and shows its last lines (serverlog.py).
LOG_ROOT = ARTIFACTS / "browser-logs"
pytest_runtest_makereport = serverlog.pytest_runtest_makereport
pytest_terminal_summary = serverlog.pytest_terminal_summary


@pytest.fixture(scope="session")
def browser_log_dir() -> Path:
    """artifacts/browser-logs/<start time>-<pid>/: this run's server logs."""
    path = LOG_ROOT / f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def asgi_server(transactional_db, request, browser_log_dir):
    """The base URL of a daphne serving config.asgi:application (bench/stack.py, as
    bin/serve runs it); stopped before pytest-django flushes the database. Its output
    goes to browser_log_dir/<test node id>.log, named in the report if the test fails."""
    from django.conf import settings
    from django.db import connection

    env = no_proxy_env()
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.browser",
        HEIST_BROWSER_DB=connection.settings_dict["NAME"],
        HEIST_TEST_RUN_ID=settings.TEST_RUN_ID,
        PYTHONUNBUFFERED="1",
        DJANGO_LOG_LEVEL="WARNING",
    )
    log_path = browser_log_dir / log_name(request.node.nodeid)
    request.node.stash[SERVER_LOG] = log_path
    server = DaphneServer(env=env, log_path=log_path)
    try:
        server.start()
        yield server.origin
    finally:
        server.stop(grace=5)  # SIGTERM first: the log is flushed for a failure's report


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()
