"""Rate limits per client address, counted in the shared cache (Redis in production,
so both daphne processes count together), and who the client is.

Fixed windows: `allow` counts a hit and says whether the address is still within its
limit; `exceeded` only looks (the code-guessing guard refuses every party page to an
address that has guessed too many unknown codes, without counting the page).

The counts go through one cache client per process (`_counter`), not Django's
`cache`: that one is kept per async context, so every socket (each consumer is a task
of its own) and every HTTP request made a new Redis client, and with it a new
connection (a name look-up, a TCP connect and the client's hand-shake) for its first
count; a 1,000-phone join burst opened a thousand. Redis and local-memory cache
clients are safe to share between threads."""

from __future__ import annotations

import ipaddress
import logging
import time

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.signals import setting_changed

logger = logging.getLogger(__name__)


_shared: BaseCache | None = None


def _counter() -> BaseCache:
    """This process's one client of the default cache (made on first use)."""
    global _shared
    if _shared is None:
        _shared = caches.create_connection("default")
    return _shared


def _forget_counter(*, setting: str, **kwargs) -> None:
    global _shared
    if setting == "CACHES":  # tests that swap the cache get a client of the new one
        _shared = None


setting_changed.connect(_forget_counter)


def _trusted(address: str) -> bool:
    """Whether `address` is one of settings.TRUSTED_PROXIES (addresses or CIDR ranges)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    for entry in settings.TRUSTED_PROXIES:
        try:
            if ip in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:
            logger.warning("TRUSTED_PROXIES entry %r is not an address or range", entry)
    return False


def _client(peer: str, forwarded: str) -> str:
    """The client's address: the peer, unless the peer is a trusted proxy; then the
    right-most X-Forwarded-For entry that is not itself a trusted proxy (entries to its
    left were written by whoever connected to the proxy, so anyone can forge them)."""
    if not forwarded or not _trusted(peer):
        return peer
    hops = [h.strip() for h in forwarded.split(",") if h.strip()]
    for hop in reversed(hops):
        if not _trusted(hop):
            return hop
    return hops[0] if hops else peer


def client_address_http(request) -> str:
    return _client(request.META.get("REMOTE_ADDR", "unknown"), request.headers.get("X-Forwarded-For", ""))


def client_address_scope(scope) -> str:
    client = scope.get("client")
    peer = client[0] if client else "unknown"
    forwarded = ",".join(v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"x-forwarded-for")
    return _client(peer, forwarded)


def allow(bucket: str, address: str) -> bool:
    """Count one hit; False once the address is over its limit for this window. Fails
    open: with the cache (Redis) down, a join must still work (it needs PostgreSQL
    only), so the limit is skipped rather than every request refused with a 500."""
    try:
        return _count(bucket, address)
    except Exception:
        logger.warning("rate limit cache unavailable; allowing %s from %s", bucket, address, exc_info=True)
        return True


def exceeded(bucket: str, address: str) -> bool:
    """Whether the address has used up its limit in this window (counts nothing)."""
    limit, window = settings.RATE_LIMITS[bucket]
    try:
        return (_counter().get(_key(bucket, address, window)) or 0) >= limit
    except Exception:
        logger.warning("rate limit cache unavailable; not limiting %s from %s", bucket, address, exc_info=True)
        return False


def _key(bucket: str, address: str, window: int) -> str:
    return f"rl:{bucket}:{address}:{int(time.time() // window)}"


def _count(bucket: str, address: str) -> bool:
    limit, window = settings.RATE_LIMITS[bucket]
    key = _key(bucket, address, window)
    cache = _counter()
    if cache.add(key, 1, timeout=window + 1):
        return True
    try:
        return cache.incr(key) <= limit
    except ValueError:  # expired between add and incr: a fresh window
        cache.add(key, 1, timeout=window + 1)
        return True
