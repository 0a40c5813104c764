"""Shared fixtures for the whole suite (tests/engine/ included): keep them few,
cheap and side-effect free; a fixture only one module needs belongs there."""

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT
