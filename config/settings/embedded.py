"""Laptop / single-box default (bin/serve, manage.py): SQLite, in-memory channel
layer, Celery tasks run inline. No PostgreSQL or Redis needed.

Phones on the same LAN reach the host by its LAN address or name; list those in
DJANGO_ALLOWED_HOSTS (comma-separated, e.g. "192.168.1.20,partybox.local", or "*").
"""

import os
import secrets

from .base import *  # noqa: F403
from .base import BASE_DIR, env_bool, env_list

# Off by default: bin/serve listens on every address of the LAN, and a guest who
# mistypes a URL must get a plain error page, not the debug page with the settings.
DEBUG = os.environ.get("DJANGO_DEBUG", "0") == "1"
# bin/serve runs `daphne config.asgi:application` with no web server in front, so the
# app serves its own static files (also with DJANGO_DEBUG=0).
SERVE_STATIC = env_bool("DJANGO_SERVE_STATIC", True)

VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)


def _secret_key():
    """A key kept in var/ so sessions survive restarts of the same install."""
    if os.environ.get("DJANGO_SECRET_KEY"):
        return os.environ["DJANGO_SECRET_KEY"]
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()

ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", *env_list("DJANGO_ALLOWED_HOSTS")]
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

CHANNEL_LAYERS = {"default": {"BACKEND": "events.locallayer.LocalChannelLayer"}}

CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = "memory://"

CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
