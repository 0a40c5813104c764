"""Settings for bench/live.py: the daphne it starts and the bench process itself.

Default: the production-like stack, PostgreSQL on 127.0.0.1 (a database of its own,
HEIST_BENCH_DB, default heist_bench) and the Redis pub/sub channel layer with a prefix
unique to the run, the DB connection pool of production.py.
HEIST_BENCH_EMBEDDED=1: the laptop stack instead, SQLite (HEIST_BENCH_SQLITE) and the
in-memory channel layer, as embedded.py.
"""

import os

from .test import *  # noqa: F403
from .test import DATABASES, REDIS_URL

RUN_ID = os.environ.get("HEIST_BENCH_RUN_ID", "manual")
PREFIX = f"heist-bench-{RUN_ID}"

if os.environ.get("HEIST_BENCH_EMBEDDED") == "1":
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ["HEIST_BENCH_SQLITE"],
            "CONN_MAX_AGE": None,  # as embedded.py
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20, "init_command": "PRAGMA journal_mode=WAL;"},
        }
    }
    CHANNEL_LAYERS = {"default": {"BACKEND": "events.broadcast.locallayer.LocalChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
else:
    DATABASES = {
        "default": {
            **DATABASES["default"],
            "NAME": os.environ.get("HEIST_BENCH_DB", "heist_bench"),
            # bench/party.py --postgres private: a throwaway cluster on its own port
            "PORT": os.environ.get("HEIST_BENCH_PG_PORT", DATABASES["default"]["PORT"]),
            # production.py's pool (max 20 per process) by default; a non-zero
            # HEIST_BENCH_CONN_MAX_AGE gives the old persistent connections instead.
            "CONN_MAX_AGE": 0,
            "CONN_HEALTH_CHECKS": False,  # the pool checks (config/postgresql), as production.py
            "OPTIONS": {"pool": {"min_size": 2, "max_size": 20, "timeout": 10}},
        }
    }
    if int(os.environ.get("HEIST_BENCH_CONN_MAX_AGE", "0")):
        DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ["HEIST_BENCH_CONN_MAX_AGE"])
        DATABASES["default"]["OPTIONS"] = {}
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.patches.channels_redis.ResilientPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": PREFIX},
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": PREFIX,
        }
    }

# Every bench socket comes from 127.0.0.1: lift the per-address limits.
RATE_LIMITS = {bucket: (10**6, 60) for bucket in ("join", "connect", "create", "page", "miss")}
SOCKET_LIMITS = {"per_seat": 4, "per_address": 10**6}
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}

# The benches' daphnes sweep the step clocks from their loops, as bin/serve's and
# production's do (events/live/clockloop.py; the test settings turn it off in-process).
CLOCK_SWEEP_SECONDS = 1.0
