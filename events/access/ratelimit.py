"""Rate limits per client address, counted in the shared cache (Redis in production,
so both daphne processes count together), and who the client is.

Sliding windows: `allow` records a hit if the key has had fewer than `limit` in the
last `window` seconds, and says whether it did; `exceeded` only looks (the
code-guessing guard refuses every party page to an address that has guessed too many
unknown codes, without counting the page). The fixed windows these replace let a
burst straddling a window's end take twice the limit (20 new parties in 11 s under a
limit of 10 per 10 minutes), and their check-then-count let concurrent guesses past
the miss limit (71 wrong codes answered under a limit of 60): here the check and the
record are one atomic step (a Lua script in Redis; a lock in a local-memory cache),
so `limit` means `limit`. A refused hit is not recorded: a flood does not keep
its sender refused for longer than the window.

The counts go through one cache client per process (`_counter`), not Django's
`cache`: that one is kept per async context, so every socket (each consumer is a task
of its own) and every HTTP request made a new Redis client, and with it a new
connection (a name look-up, a TCP connect and the client's hand-shake) for its first
count; a 1,000-phone join burst opened a thousand. Redis and local-memory cache
clients are safe to share between threads."""

from __future__ import annotations

import ipaddress
import itertools
import logging
import threading
import time
from collections import deque
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.redis import RedisCache
from django.core.signals import setting_changed
from django.http import HttpRequest

logger = logging.getLogger(__name__)


_shared: BaseCache | None = None


def _counter() -> BaseCache:
    """This process's one client of the default cache (made on first use)."""
    global _shared
    if _shared is None:
        _shared = caches.create_connection("default")
    return _shared


def _forget_counter(*, setting: str, **kwargs: Any) -> None:
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


def client_address_http(request: HttpRequest) -> str:
    return _client(request.META.get("REMOTE_ADDR", "unknown"), request.headers.get("X-Forwarded-For", ""))


def client_address_scope(scope: dict[str, Any]) -> str:
    client = scope.get("client")
    peer = client[0] if client else "unknown"
    forwarded = ",".join(v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"x-forwarded-for")
    return _client(peer, forwarded)


def allow(bucket: str, address: str) -> bool:
    """Record one hit unless `address` already had its limit of them in the last
    window; False when refused. Fails open: with the cache (Redis) down, a join must
    still work (it needs PostgreSQL only), so the limit is skipped rather than every
    request refused with a 500."""
    try:
        return _hit(bucket, address, record=True)
    except Exception:
        logger.warning("rate limit cache unavailable; allowing %s from %s", bucket, address, exc_info=True)
        return True


def exceeded(bucket: str, address: str) -> bool:
    """Whether the address has used up its limit in the last window (records nothing)."""
    try:
        return not _hit(bucket, address, record=False)
    except Exception:
        logger.warning("rate limit cache unavailable; not limiting %s from %s", bucket, address, exc_info=True)
        return False


def _now() -> float:
    return time.time()  # a function of its own: tests move the clock


# KEYS[1]: the sorted set of this key's hits (scored by time). ARGV: now, window,
# limit, record (1/0), a unique member. Returns 1 when within the limit (and, with
# record, the hit recorded), 0 when over it.
_SLIDING = """
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local n = redis.call('ZCARD', key)
if n >= tonumber(ARGV[3]) then return 0 end
if ARGV[4] == '1' then
  redis.call('ZADD', key, now, ARGV[5])
  redis.call('PEXPIRE', key, math.ceil(window * 1000) + 1000)
end
return 1
"""

_local_lock = threading.Lock()
_local_hits: dict[str, deque[float]] = {}
# Each hit's member in the log is unique in the process: a counter, never reset.
_serial = itertools.count(1)


def _hit(bucket: str, address: str, *, record: bool) -> bool:
    limit, window = settings.RATE_LIMITS[bucket]
    cache = _counter()
    now = _now()
    with _local_lock:
        serial = next(_serial)
        member = f"{now:.6f}:{serial}:{threading.get_ident()}"
    if isinstance(cache, RedisCache):
        key = cache.make_and_validate_key(f"rl2:{bucket}:{address}")
        # Django's RedisCache keeps its client in `_cache`; django-stubs leaves it out.
        client: Any = cache._cache.get_client(key, write=True)  # type: ignore[attr-defined]
        return bool(client.eval(_SLIDING, 1, key, now, window, limit, "1" if record else "0", member))
    # Local memory (bin/serve's one process): the same log, under a lock.
    with _local_lock:
        if serial % 4096 == 0:  # now and then, forget addresses quiet for an hour
            for stale in [k for k, v in _local_hits.items() if not v or v[-1] < now - 3600]:
                del _local_hits[stale]
        hits = _local_hits.setdefault(f"{bucket}:{address}", deque())
        while hits and hits[0] <= now - window:
            hits.popleft()
        if len(hits) >= limit:
            return False
        if record:
            hits.append(now)
        elif not hits:
            _local_hits.pop(f"{bucket}:{address}", None)
        return True


def _forget_local(*, setting: str, **kwargs: Any) -> None:
    if setting in ("CACHES", "RATE_LIMITS"):
        with _local_lock:
            _local_hits.clear()


setting_changed.connect(_forget_local)
