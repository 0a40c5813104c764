"""Test settings (pytest-django): the real PostgreSQL and Redis on 127.0.0.1.

pytest-django creates and drops the test database (test_<HEIST_TEST_DB>, default
test_heist) through the postgres user (trust auth). The channel layer is the same
pub/sub layer as production (config/patches/channels_redis.py); Redis pub/sub channels
are global across logical databases, so every run gets its own prefix and concurrent
runs never see each other's messages.
"""

import os
import uuid
from typing import Any

from .base import *  # noqa: F403
from .base import HEIST_GAME_PACKAGES, INSTALLED_APPS, RATE_LIMITS

DEBUG = False
SECRET_KEY = "test-only-not-secret"
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1", "[::1]"]

TEST_RUN_ID = os.environ.get("HEIST_TEST_RUN_ID") or uuid.uuid4().hex[:12]

DATABASES: dict[str, dict[str, Any]] = {
    "default": {
        "ENGINE": "config.postgresql",  # Django's, with a cheaper pool check
        # One database per run (pytest-django makes test_<NAME>): several runs on one
        # machine (developers, CI, helpers) never fight over the same database.
        "NAME": os.environ.get("HEIST_TEST_DB") or f"heist_{TEST_RUN_ID}",
        "USER": "postgres",
        "PASSWORD": "",
        "HOST": "127.0.0.1",
        "PORT": "5432",
        # The pool, as production.py (smaller: several test runs share one PostgreSQL).
        "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": False,  # the pool checks (config/postgresql), as production.py
        "OPTIONS": {"pool": {"min_size": 1, "max_size": 8, "timeout": 20}},
    }
}

HTTP_CONCURRENCY = 6  # below the pool's 8, as production.py sizes it

REDIS_URL = os.environ.get("HEIST_TEST_REDIS_URL", "redis://127.0.0.1:6379/")

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "config.patches.channels_redis.ResilientPubSubChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL], "prefix": f"heist-test-{TEST_RUN_ID}"},
    }
}

CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = "memory://"

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"heist-test-{TEST_RUN_ID}",
    }
}

# Every test client is 127.0.0.1 (or the in-process "unknown"): the per-address limits
# that a whole test run would cross are lifted here; tests/hardening/test_limits.py
# sets each one low to attack it.
RATE_LIMITS = {**RATE_LIMITS, "create": (10**6, 600), "page": (10**6, 60), "miss": (10**6, 600)}
SOCKET_LIMITS = {"per_seat": 4, "per_address": 10**6}
# Test bots act in a closed loop, far faster than a person (a whole game in seconds);
# tests/hardening/test_limits.py sets the production rate to attack it.
FRAME_RATE = (10**6, 10**6, 10**6)

# In-process socket tests run the ASGI app on each test's own loop: no step-clock sweep
# there (tests call events/party/clocks.py themselves). The browser's daphne turns it back on.
CLOCK_SWEEP_SECONDS = 0

# Canary Heist (tests/canary/canary), the tiny game written from docs/GAMES.md alone:
# registered by the tests only, so every suite that walks the registry checks a game the
# host never saw while it was written.
HEIST_GAME_PACKAGES = [*HEIST_GAME_PACKAGES, "tests.canary.canary"]
INSTALLED_APPS = [*INSTALLED_APPS, "tests.canary.canary"]
