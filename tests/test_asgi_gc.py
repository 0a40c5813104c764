"""The server process keeps what it loaded at start out of the garbage collector's
walks (config/asgi.py): a full collection during play then pauses every socket of the
process for a fraction of the time."""

from __future__ import annotations

import subprocess
import sys


def test_loading_the_asgi_application_freezes_what_it_loaded():
    code = (
        "import gc, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings.test';"
        "import config.asgi; print(gc.get_freeze_count())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert int(out.stdout.strip().splitlines()[-1]) > 50_000  # Django and the apps, frozen


def test_the_server_process_lets_the_event_loop_take_the_lock_back_within_a_millisecond():
    """config/asgi.py: Django's HTTP threads hold the interpreter lock at most 1 ms while
    the event loop waits for it (Python's default is 5 ms)."""
    code = (
        "import os, sys; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings.test';"
        "before = sys.getswitchinterval(); import config.asgi; print(before, sys.getswitchinterval())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    before, after = map(float, out.stdout.strip().splitlines()[-1].split())
    assert before == 0.005 and after == 0.001
