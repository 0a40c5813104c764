"""Where the catalogues are: the host's locale/ and each game's own (a game's package is a
Django app, so Django finds its locale/ as any app's; bin/messages fills both)."""

from __future__ import annotations

import importlib
from pathlib import Path

from django.conf import settings

REPO = Path(__file__).resolve().parents[2]


def game_folders() -> list[Path]:
    """The folder of every game these settings install, the test-only ones included."""
    return [Path(importlib.import_module(package).__path__[0]) for package in settings.HEIST_GAME_PACKAGES]


def catalogue_dirs() -> list[Path]:
    """Every locale/ the server reads: the host's first, then each installed game's."""
    return [REPO / "locale", *(folder / "locale" for folder in game_folders())]
