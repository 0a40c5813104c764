"""/healthz for the probes that run beside the process, answered before the host check.

The compose health probe runs inside the web container and asks
http://127.0.0.1:8000/healthz: its Host header is 127.0.0.1, which production's
ALLOWED_HOSTS (the party's real name, e.g. heist.example.org) does not list, so Django's
CommonMiddleware answered 400, the probe failed and the proxy waited forever on web1 and
web2 (issue 29). Adding 127.0.0.1 to ALLOWED_HOSTS would accept that Host on every page;
instead this middleware, placed before the first that reads the Host, answers /healthz itself, whatever the Host,
but only to a peer on the loopback (the probe, a process manager on the same box).
Everything else, /healthz from any other peer included, takes Django's usual path and its
host validation.

The answer names no host and carries no secret ({"ok": true}, or the failed services),
so skipping the host check here builds nothing an attacker could poison.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from events.web import views

HEALTH_PATH = "/healthz"
# The view itself (its checks, its answer), typed for this strictly checked module.
healthz: Callable[[HttpRequest], HttpResponse] = views.healthz


def is_loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address(address or "").is_loopback
    except ValueError:  # no address (a Unix socket) or not an IP
        return False


class LoopbackHealthMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == HEALTH_PATH and is_loopback(request.META.get("REMOTE_ADDR")):
            return healthz(request)
        return self.get_response(request)
