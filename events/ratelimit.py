"""Fixed-window rate limits per client address, counted in the shared cache (Redis in
production, so both daphne processes count together)."""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)


def client_address_http(request) -> str:
    if settings.TRUST_X_FORWARDED_FOR:
        forwarded = request.headers.get("X-Forwarded-For", "")
        if forwarded:
            return forwarded.split(",")[-1].strip()  # the address our proxy saw
    return request.META.get("REMOTE_ADDR", "unknown")


def client_address_scope(scope) -> str:
    if settings.TRUST_X_FORWARDED_FOR:
        for name, value in scope.get("headers", []):
            if name == b"x-forwarded-for":
                return value.decode("latin-1").split(",")[-1].strip()
    client = scope.get("client")
    return client[0] if client else "unknown"


def allow(bucket: str, address: str) -> bool:
    """Count one hit; False once the address is over its limit for this window. Fails
    open: with the cache (Redis) down, a join must still work (it needs PostgreSQL
    only), so the limit is skipped rather than every request refused with a 500."""
    try:
        return _count(bucket, address)
    except Exception:
        logger.warning("rate limit cache unavailable; allowing %s from %s", bucket, address, exc_info=True)
        return True


def _count(bucket: str, address: str) -> bool:
    limit, window = settings.RATE_LIMITS[bucket]
    key = f"rl:{bucket}:{address}:{int(time.time() // window)}"
    if cache.add(key, 1, timeout=window + 1):
        return True
    try:
        return cache.incr(key) <= limit
    except ValueError:  # expired between add and incr: a fresh window
        cache.add(key, 1, timeout=window + 1)
        return True
