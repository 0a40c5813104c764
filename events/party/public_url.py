"""The address phones open: the one source of every link and QR code a phone, a
tablet or the big screen is given (the host page's join link and QR, the big screen's,
the tablet pairing link, the printables), whatever address the laptop's own browser
used. On a phone "localhost" is the phone.

- `HEIST_PUBLIC_URL` set: always that (production; or a name like partybox.local).
- A page asked for by a name phones can use (a LAN address, a host name): that name.
- A page asked for as localhost/127.0.0.1 on the laptop: its first LAN address
  (settings.LAN_ADDRESSES, found by bin/serve: config/lan.py), same scheme and port.
  With none, the page's own address, and `lan_missing` tells the host page to say so.

Every join link the host shares carries the host's invitation (`?k=`, `invitation`): an
HMAC of the party's code under SECRET_KEY, so only this server can make it and it names
one party. It is no secret (it is printed on the poster) and gives no right; it only
tells the gate (events/access/gate.py) that whoever opens the link was sent by the host,
not guessing codes, so the venue address's misses never turn the host's guests away.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Sequence
from urllib.parse import urlsplit

from django.conf import settings
from django.core import signing
from django.http import HttpRequest
from django.urls import reverse
from django.utils.crypto import constant_time_compare

announcer = logging.getLogger("heist.party_night")


def _is_loopback(name: str) -> bool:
    name = name.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def phone_base(
    scheme: str, host: str, *, public_url: str | None = None, lan: Sequence[str] | None = None
) -> str | None:
    """The base URL ("http://192.168.1.20:8000") phones open, for a page asked for at
    `scheme://host`; None when that host is the laptop's loopback and no LAN address
    or public URL is known."""
    public = settings.HEIST_PUBLIC_URL if public_url is None else public_url
    if public:
        return public.rstrip("/")
    lan = (settings.LAN_ADDRESSES or []) if lan is None else lan
    parts = urlsplit(f"//{host}")
    name = parts.hostname or ""
    if name in lan or not _is_loopback(name):
        return f"{scheme}://{host}"
    if lan:
        port = f":{parts.port}" if parts.port else ""
        return f"{scheme}://{lan[0]}{port}"
    return None


def base_url(request: HttpRequest) -> str:
    """The base URL phones open, for this request (its own when none is better)."""
    scheme = request.scheme or "http"
    return phone_base(scheme, request.get_host()) or f"{scheme}://{request.get_host()}"


def base_url_for_origin(origin: str) -> str:
    """The same from a page's origin ("http://localhost:8000", as a WebSocket
    handshake carries it); "" stays "" (a relative link)."""
    parts = urlsplit(origin)
    if not parts.scheme or not parts.netloc:
        return ""
    return phone_base(parts.scheme, parts.netloc) or origin.rstrip("/")


INVITATION_SALT = "heist.invitation"
INVITATION_LENGTH = 22  # base64 characters: 132 bits of the HMAC, short enough for the QR code


def invitation(code: str) -> str:
    """The host's invitation to the party `code` (the `k` of its join link)."""
    return signing.Signer(salt=INVITATION_SALT).signature(code.strip().upper())[:INVITATION_LENGTH]


def is_invitation(value: str | None, code: str) -> bool:
    """Whether `value` is the host's invitation to the party `code`."""
    return bool(value) and constant_time_compare(str(value), invitation(code))


def join_path(code: str) -> str:
    """The join link's path, with the host's invitation."""
    return f"{reverse('join', args=[code])}?k={invitation(code)}"


def join_url(request: HttpRequest, code: str) -> str:
    return base_url(request) + join_path(code)


def lan_missing(request: HttpRequest) -> bool:
    """True when bin/serve looked for a LAN address, found none, and the page was asked
    for on the laptop itself: no link on it would open on a phone."""
    return settings.LAN_ADDRESSES == [] and phone_base(request.scheme or "http", request.get_host()) is None


def party_announce(*, request: HttpRequest, code: str, name: str) -> None:
    """A new party's join link, logged for bin/serve's terminal (which prints its QR
    code: config/lan.py PartyNightHandler)."""
    url = join_url(request, code)
    announcer.info("Party %r created: guests join at %s (code %s)", name, url, code, extra={"join_url": url})
