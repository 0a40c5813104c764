"""What /healthz checks: the parts a party cannot run without. PostgreSQL holds every
party; Redis carries the broadcasts between daphne processes and the rate limits. A
process that cannot reach either must leave the load balancer's rotation."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection

logger = logging.getLogger(__name__)

TIMEOUT_SECONDS = 2


def health_failures() -> list[str]:
    """The names of the backing services this process cannot use right now."""
    failed = []
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:
        logger.warning("healthz: the database is unreachable", exc_info=True)
        connection.close()  # a broken connection must not be reused by the next request
        failed.append("database")
    redis_url = getattr(settings, "REDIS_URL", None)  # the embedded box has no Redis
    if redis_url:
        import redis

        client = redis.Redis.from_url(redis_url, socket_timeout=TIMEOUT_SECONDS, socket_connect_timeout=TIMEOUT_SECONDS)
        try:
            client.ping()
        except Exception:
            logger.warning("healthz: Redis is unreachable", exc_info=True)
            failed.append("redis")
        finally:
            client.close()
    return failed
