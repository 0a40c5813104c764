"""Shared by the guards' tests: a clock the tests move (every service reads the time
through django.utils.timezone.now, so moving it moves every deadline's check)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone


class Clock:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now: datetime = timezone.now()
        monkeypatch.setattr(timezone, "now", lambda: self.now)

    def forward(self, delta: timedelta) -> None:
        self.now += delta


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)
