"""Issue 42.2: a web process whose event loop stalls exits (config/watchdog.py), so
compose's `restart: always` gives the party its daphne back; a busy or resumed loop
does not."""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
import threading
import time
from typing import Any

import pytest
from ruamel.yaml import YAML

from config import watchdog
from tests.hardening.test_deploy import SAMPLE_ENV


def _loop_in_a_thread() -> asyncio.AbstractEventLoop:
    loop = asyncio.new_event_loop()

    def run() -> None:
        loop.run_forever()
        loop.close()  # its watcher ends with it

    threading.Thread(target=run, daemon=True).start()
    return loop


def _watch(loop: asyncio.AbstractEventLoop, seconds: float) -> list[tuple[int, float]]:
    exits: list[tuple[int, float]] = []

    async def start() -> None:
        watchdog.ensure_watching(seconds, stop=lambda code: exits.append((code, time.monotonic())))

    asyncio.run_coroutine_threadsafe(start(), loop).result(5)
    return exits


def test_a_stalled_loop_exits_the_process_within_its_limit():
    loop = _loop_in_a_thread()
    exits = _watch(loop, 1.0)
    time.sleep(2.5)
    assert exits == [], "a loop that runs is left alone"
    stalled_at = time.monotonic()
    loop.call_soon_threadsafe(time.sleep, 4.0)  # a blocking call on the loop
    deadline = stalled_at + 3.5
    while not exits and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [code for code, _ in exits] == [watchdog.EXIT_STALLED]
    # the beat asked within a tick of the stall, its limit, then the one second of grace
    assert 1.0 <= exits[0][1] - stalled_at <= 2.8, exits[0][1] - stalled_at
    loop.call_soon_threadsafe(loop.stop)


def test_a_loop_busy_below_the_limit_is_not_stopped_and_each_loop_is_watched_once():
    loop = _loop_in_a_thread()
    exits = _watch(loop, 2.0)
    for _ in range(4):
        loop.call_soon_threadsafe(time.sleep, 0.8)  # busy, never for long
        time.sleep(1.0)
    assert exits == []

    async def again() -> object:
        return watchdog.ensure_watching(2.0, stop=lambda code: exits.append((code, 0.0)))

    assert asyncio.run_coroutine_threadsafe(again(), loop).result(5) is None
    assert watchdog.ensure_watching(None) is None  # off outside production
    loop.call_soon_threadsafe(loop.stop)


def test_production_watches_and_compose_restarts_the_web_processes(repo_root):
    from django.conf import settings

    assert settings.LOOP_WATCHDOG_SECONDS is None  # the tests' settings: off
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "POSTGRES_", "HEIST_"))}
    env.update(SAMPLE_ENV, DJANGO_SECRET_KEY=secrets.token_urlsafe(50))
    said = subprocess.run(
        [sys.executable, "manage.py", "shell", "--settings=config.settings.production", "-c",
         "from django.conf import settings; print(settings.LOOP_WATCHDOG_SECONDS)"],
        cwd=repo_root, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert said.stdout.splitlines()[-1:] == ["15.0"], said.stdout + said.stderr
    compose = YAML(typ="safe").load((repo_root / "docker-compose.yml").read_text())
    for name in ("web1", "web2", "worker", "beat"):
        assert compose["services"][name]["restart"] == "always", name


def test_a_loop_that_answers_within_the_grace_is_not_stopped():
    """A process resumed after SIGSTOP (or a laptop after sleep) finds the beat it asked
    for late, and the loop answers at once: the second of grace after the limit keeps
    it. Here a loop stalled for 2.6 s under a 2 s limit answers within the grace."""
    loop = _loop_in_a_thread()
    exits = _watch(loop, 2.0)
    time.sleep(0.7)
    loop.call_soon_threadsafe(time.sleep, 2.6)
    time.sleep(4.5)
    assert exits == [], "a loop that answered within the grace was stopped"
    loop.call_soon_threadsafe(loop.stop)


def test_the_watcher_is_a_daemon_that_says_how_long_the_loop_stalled(caplog: pytest.LogCaptureFixture):
    """The watcher never keeps a process alive on its own (a daemon thread), and its
    last word says how long the loop has not run."""
    loop = _loop_in_a_thread()
    exits: list[int] = []

    async def start() -> object:
        return watchdog.ensure_watching(1.0, stop=exits.append)

    with caplog.at_level("CRITICAL", logger="config.watchdog"):
        watcher = asyncio.run_coroutine_threadsafe(start(), loop).result(5)
        assert isinstance(watcher, threading.Thread) and watcher.daemon
        loop.call_soon_threadsafe(time.sleep, 3.5)
        watcher.join(5)
    assert exits == [watchdog.EXIT_STALLED]
    [record] = [r for r in caplog.records if r.name == "config.watchdog"]
    stalled = float(record.args[0])  # type: ignore[index]
    assert 1.0 <= stalled <= 3.0, record.getMessage()
    loop.call_soon_threadsafe(loop.stop)


class _ClosingLoop:
    """A loop that closes between the watcher's look and its request for a beat."""

    def __init__(self) -> None:
        self.asked = 0

    def is_closed(self) -> bool:
        return False

    def call_soon_threadsafe(self, *_: Any) -> None:
        self.asked += 1
        raise RuntimeError("Event loop is closed")


def test_a_loop_closing_under_the_watcher_ends_it_quietly():
    loop = _ClosingLoop()
    exits: list[int] = []
    watchdog._watch(loop, 1.0, exits.append)  # type: ignore[arg-type]
    assert loop.asked == 1 and exits == []


def test_the_watcher_asks_for_a_beat_a_few_times_a_second_not_in_a_spin():
    """Between beats the watcher sleeps a tick (a quarter of the limit, at most a
    second): a watcher that spun would take a core from the loop it watches."""
    loop = _loop_in_a_thread()
    beats = 0
    ask = loop.call_soon_threadsafe

    def counted(callback: Any, *args: Any) -> Any:
        nonlocal beats
        beats += 1
        return ask(callback, *args)

    loop.call_soon_threadsafe = counted  # type: ignore[method-assign]
    _watch(loop, 2.0)
    time.sleep(2.0)
    assert 2 <= beats <= 6, beats  # a tick of 0.5 s: about four
    loop.call_soon_threadsafe = ask  # type: ignore[method-assign]
    loop.call_soon_threadsafe(loop.stop)
