"""Run a script in a process of its own on the laptop stack (config.settings.bench's
embedded mode: a fresh SQLite file, as bin/serve runs it) and read the JSON object it
prints last. The SQLite tests run this way because the suite's own settings are
PostgreSQL's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def embedded_script_output(script: str, tmp_path: Path) -> dict[str, Any]:
    root = Path(__file__).resolve().parents[2]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.bench",
        "HEIST_BENCH_EMBEDDED": "1",
        "HEIST_BENCH_SQLITE": str(tmp_path / "heist.sqlite3"),
        "PYTHONPATH": str(root),
    }
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out
