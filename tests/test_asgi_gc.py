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
