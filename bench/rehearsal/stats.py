"""What every screen of a run counts: acks, broadcasts, resyncs, errors."""

from __future__ import annotations

import collections
from typing import Any


class Stats:
    def __init__(self) -> None:
        self.errors_5xx = 0
        self.busy = 0  # 503 "busy" answers waited out (config/admission.py)
        self.errors_5xx_by: collections.Counter[str] = collections.Counter()
        self.http_status: collections.Counter[int] = collections.Counter()
        self.http_failures: collections.Counter[str] = collections.Counter()
        self.http_s: list[float] = []
        self.refused: collections.Counter[str] = collections.Counter()
        self.refused_samples: list[dict[str, Any]] = []
        self.ack_s: list[float] = []
        self.ack_at: list[float] = []  # when each ack came (now()), for the tail over time
        self.ack_detail: list[
            tuple[Any, ...]
        ] = []  # (at, latency s, action type, party, screen): the slowest are listed
        # Acks a phone read only after it slept (pocketed while its act was in flight): the
        # wait is the phone's own, not the server's, so they are kept out of `ack_s`.
        self.acks_over_sleep: list[float] = []
        self.resyncs_by: collections.Counter[str] = collections.Counter()
        self.sent_at: dict[tuple[int, int], float] = {}  # (table, version) -> first send of that action
        self.arrivals: list[tuple[int, int, float]] = []  # (table, version, t) per screen message
        self.close_codes: collections.Counter[Any] = collections.Counter()
        self.handshake_failures: collections.Counter[str] = collections.Counter()
        self.connects = 0
        self.gaps = 0
        self.patch_misses = 0  # patches of a version the screen did not hold (each resyncs)
        self.resyncs = 0
        self.duplicates = 0
        self.drops = 0
        self.sleeps = 0
        self.reloads = 0
        self.stalls: list[dict[str, Any]] = []
        self.actions_by_type: collections.Counter[str] = collections.Counter()
        self.faults: list[dict[str, Any]] = []
