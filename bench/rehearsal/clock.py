"""The harness's clock and its log line (stderr, wall-clock time first)."""

from __future__ import annotations

import sys
import time

now = time.monotonic


def log(*parts: object) -> None:
    print(time.strftime("%H:%M:%S"), *parts, file=sys.stderr, flush=True)
