"""Laptop / single-box default (bin/serve, manage.py): SQLite, in-memory channel
layer, Celery tasks run inline. No PostgreSQL or Redis needed.

Phones on the same LAN reach the host by its LAN address: bin/serve finds them
(config/lan.py, HEIST_LAN_ADDRESSES) and they are allowed hosts. Other names (e.g.
"partybox.local") go in DJANGO_ALLOWED_HOSTS (comma-separated, or "*"); the host of
HEIST_PUBLIC_URL is allowed too.
"""

import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

from config import lan

from .base import *  # noqa: F403
from .base import BASE_DIR, HEIST_PUBLIC_URL, LOGGING, env_bool, env_list

# Off by default: bin/serve listens on every address of the LAN, and a guest who
# mistypes a URL must get a plain error page, not the debug page with the settings.
DEBUG = os.environ.get("DJANGO_DEBUG", "0") == "1"
# bin/serve runs `daphne config.asgi:application` with no web server in front, so the
# app serves its own static files (also with DJANGO_DEBUG=0).
SERVE_STATIC = env_bool("DJANGO_SERVE_STATIC", True)

# The database and the secret key; HEIST_VAR_DIR puts them elsewhere (a test's own
# bin/serve keeps its party out of the developer's var/).
VAR_DIR = Path(os.environ.get("HEIST_VAR_DIR") or BASE_DIR / "var")
VAR_DIR.mkdir(exist_ok=True)


def _secret_key() -> str:
    """A key kept in var/ so sessions survive restarts of the same install."""
    if os.environ.get("DJANGO_SECRET_KEY"):
        return os.environ["DJANGO_SECRET_KEY"]
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()

LAN_ADDRESSES = lan.addresses_here()
ALLOWED_HOSTS = [
    "localhost",
    "127.0.0.1",
    "[::1]",
    *LAN_ADDRESSES,
    *([urlsplit(HEIST_PUBLIC_URL).hostname or ""] if HEIST_PUBLIC_URL else []),
    *env_list("DJANGO_ALLOWED_HOSTS"),
]
# The whole party may come from one venue NAT address: the cap counts only connections
# that have not proven a party secret (config/front_door.py).
FRONT_DOOR = {
    "request_seconds": float(os.environ.get("HEIST_REQUEST_SECONDS", "10")),
    "per_address": int(os.environ.get("HEIST_OPEN_PER_ADDRESS", "256")),
}
# A new party's join link and its QR code in bin/serve's terminal (config/lan.py).
LOGGING = {
    **LOGGING,
    "handlers": {**LOGGING["handlers"], "party_night": {"class": "config.lan.PartyNightHandler"}},
    "loggers": {"heist.party_night": {"handlers": ["party_night"], "level": "INFO", "propagate": False}},
}
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": VAR_DIR / "heist.sqlite3",
        # One connection kept by the thread that does the database work (Channels runs
        # it all on one): opening SQLite again for every request or frame took a
        # quarter of that thread's time.
        "CONN_MAX_AGE": None,
        "OPTIONS": {
            # Writers take the lock up front instead of failing mid-transaction
            # with "database is locked" when several sockets write at once.
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL;",
        },
    }
}

CHANNEL_LAYERS = {"default": {"BACKEND": "events.broadcast.locallayer.LocalChannelLayer"}}

CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = "memory://"

CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
