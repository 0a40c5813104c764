"""Production: every secret and address comes from the environment.

Required: DJANGO_SECRET_KEY, and DATABASE_URL (postgres://user:pass@host:port/name)
or POSTGRES_DB / POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_HOST / POSTGRES_PORT.
Optional: REDIS_URL (default redis://redis:6379/0), CELERY_BROKER_URL,
CELERY_RESULT_BACKEND, DJANGO_ALLOWED_HOSTS, DJANGO_CSRF_TRUSTED_ORIGINS,
DJANGO_DB_POOL_MIN / DJANGO_DB_POOL_MAX / DJANGO_DB_POOL_TIMEOUT (connections per process),
DJANGO_SECURE_COOKIES (default 1; set 0 only when serving plain HTTP),
DJANGO_SSL_REDIRECT (default 1), DJANGO_HSTS_SECONDS (default one year),
TRUSTED_PROXIES (addresses or CIDR ranges whose X-Forwarded-For is believed),
DJANGO_STATIC_ROOT (where collectstatic writes; default staticfiles/ beside manage.py, the
compose `static` volume).
DJANGO_SECRET_KEY must be at least 50 characters.
"""

import os
from typing import Any
from urllib.parse import unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import STATIC_ROOT, env_bool, env_list

DEBUG = False


def _require(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise ImproperlyConfigured(f"Set the {name} environment variable.")
    return value


def _postgres_from_env() -> dict[str, str]:
    url = os.environ.get("DATABASE_URL")
    if url:
        parts = urlsplit(url)
        if parts.scheme not in {"postgres", "postgresql"}:
            raise ImproperlyConfigured("DATABASE_URL must be a postgres:// URL.")
        return {
            "NAME": unquote(parts.path.lstrip("/")),
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
        }
    return {
        "NAME": _require("POSTGRES_DB"),
        "USER": os.environ.get("POSTGRES_USER", "postgres"),
        "PASSWORD": os.environ.get("POSTGRES_PASSWORD", ""),
        "HOST": os.environ.get("POSTGRES_HOST", "db"),
        "PORT": os.environ.get("POSTGRES_PORT", "5432"),
    }


SECRET_KEY = _require("DJANGO_SECRET_KEY")
if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
    # Django signs with it; a short key can be guessed offline. (Make one with
    # python -c "import secrets; print(secrets.token_urlsafe(50))".)
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be at least 50 characters (and not repetitive).")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

# A connection pool per process, not persistent connections: under ASGI every request
# runs in a thread of its own, and CONN_MAX_AGE=60 left each one's connection open (a
# 100-guest join burst answered 500s and exhausted PostgreSQL). The pool bounds them:
# a request waits up to `timeout` seconds for a free connection instead of failing.
# Sizing: PostgreSQL allows 100 connections by default; two daphnes x 20, plus each
# daphne's 4 for the acts sent from its event loop (ACTS_ON_LOOP_CONNECTIONS,
# tables/loopwrite.py), + Celery (2 workers, a connection each while a task runs) +
# migrations and psql stay near 55.
DATABASES: dict[str, dict[str, Any]] = {
    "default": {
        "ENGINE": "config.postgresql",  # Django's, with a cheaper pool check
        **_postgres_from_env(),
        "CONN_MAX_AGE": 0,  # the pool keeps the connections; Django's persistence must be off
        # The pool checks a connection before lending it, without a round trip when
        # nothing says it is gone (config/postgresql); Django's own check is one.
        "CONN_HEALTH_CHECKS": False,
        "OPTIONS": {
            "pool": {
                "min_size": int(os.environ.get("DJANGO_DB_POOL_MIN", "2")),
                "max_size": int(os.environ.get("DJANGO_DB_POOL_MAX", "20")),
                "timeout": float(os.environ.get("DJANGO_DB_POOL_TIMEOUT", "10")),
            }
        },
    }
}

# Requests beyond this wait their turn on the loop (config/admission.py), leaving the
# sockets' threads their connections: the sockets' database calls run on the event
# loop's thread pool (tables/write.run_in_db_thread; min(32, cores + 4) threads, 6 on
# two cores) and on the lanes' own threads (events/live/lanes.py: 1 for pongs, 2 for acts),
# and 9 leaves that room.
HTTP_CONCURRENCY = int(
    os.environ.get("HEIST_HTTP_CONCURRENCY") or max(2, DATABASES["default"]["OPTIONS"]["pool"]["max_size"] - 9)
)

# A daphne whose loop stalls this long exits and compose restarts it (config/watchdog.py).
# Far above any pause a healthy loop takes; HEIST_LOOP_WATCHDOG_SECONDS=0 turns it off.
LOOP_WATCHDOG_SECONDS = float(os.environ.get("HEIST_LOOP_WATCHDOG_SECONDS") or 15) or None

# The compose stack run as processes (tests/test_compose_stack.py) puts the `static`
# volume in a directory of its own instead of the source tree.
STATIC_ROOT = os.environ.get("DJANGO_STATIC_ROOT") or STATIC_ROOT

REDIS_URL = os.environ.get("REDIS_URL", "redis://redis:6379/0")

# PubSub layer, not channels_redis.core.RedisChannelLayer: the core layer
# silently drops group messages to a process whose inbox is over capacity;
# the PubSub layer lost none and was faster in a burst test (see README).
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "config.patches.channels_redis.ResilientPubSubChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL], "prefix": os.environ.get("CHANNELS_PREFIX", "heist")},
    }
}

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL)
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", REDIS_URL)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# TLS is terminated in front of nginx or by it; nginx passes X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
USE_X_FORWARDED_HOST = env_bool("DJANGO_USE_X_FORWARDED_HOST", False)
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# HTTPS only (deploy/nginx.conf terminates TLS and redirects port 80 too): secrets
# cross the venue Wi-Fi. /healthz is probed over plain HTTP inside the compose network.
SECURE_SSL_REDIRECT = env_bool("DJANGO_SSL_REDIRECT", True)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(365 * 24 * 3600)))
# The party host owns its name and every name under it; "preload" only allows a
# submission to the browsers' list, it submits nothing.
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", True)

# Shared by both daphne processes: the rate limits must count across them.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": os.environ.get("CHANNELS_PREFIX", "heist"),
    }
}
# nginx's address (compose gives it a fixed one): only its X-Forwarded-For is believed.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES")
