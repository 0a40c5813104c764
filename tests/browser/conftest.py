"""Fixtures for the real-browser tests: the real ASGI server (daphne, as bin/serve runs
it) in a subprocess on this run's test database, and headless Debian chromium.

The server uses config.settings.browser: the test settings pointed at the database
pytest-django created (so a `django_db(transaction=True)` test and the server see each
other's commits) and at this run's channel-layer prefix. It serves /static/ itself.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from bench.stack import DAPHNE_ARGS

REPO = Path(__file__).resolve().parents[2]
DAPHNE = REPO / ".venv" / "bin" / "daphne"
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _healthy(url: str) -> bool:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=1) as r:
            return r.status == 200 and json.loads(r.read()) == {"ok": True}
    except (urllib.error.URLError, ConnectionError, OSError, ValueError):
        return False


@pytest.fixture
def asgi_server(transactional_db):
    """The base URL of a daphne serving config.asgi:application; stopped before
    pytest-django flushes the database."""
    from django.conf import settings
    from django.db import connection

    port = _free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / "browser-daphne.log"
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.browser",
        HEIST_BROWSER_DB=connection.settings_dict["NAME"],
        HEIST_TEST_RUN_ID=settings.TEST_RUN_ID,
        PYTHONUNBUFFERED="1",
        DJANGO_LOG_LEVEL="WARNING",
    )
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [str(DAPHNE), "-b", "127.0.0.1", "-p", str(port), *DAPHNE_ARGS, "config.asgi:application"],
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while not _healthy(f"{base}/healthz"):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"daphne did not come up:\n{log_path.read_text(errors='replace')[-3000:]}")
            time.sleep(0.05)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()
