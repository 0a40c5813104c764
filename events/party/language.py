"""Which language a page or a socket speaks (issue 32), one rule for both:

0. the big screen and the printables speak the party's language, always: they are the
   room's, and the big screen often runs in the host's own browser;
1. the switch's cookie (Django's set_language) wins: a person chose it;
2. a captain's tablet follows the party's language, whatever its browser was set to;
3. a phone or the host's laptop uses its own Accept-Language where we have a catalogue;
4. otherwise the party's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header


def supported(code: object) -> str | None:
    """The catalogue's code for `code` ("es-MX" -> "es"), or None when we have none."""
    if not isinstance(code, str) or not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def language_chosen(*, cookie: str | None, accept: str, party_language: str, follows_party: bool) -> str:
    chosen = supported(cookie)
    if chosen:
        return chosen
    party = supported(party_language) or settings.LANGUAGE_CODE
    if follows_party:
        return party
    for code, _quality in parse_accept_lang_header(accept):
        if code == "*":
            break
        found = supported(code)
        if found:
            return found
    return party


def party_language_activate(
    request: HttpRequest, *, party_language: str, follows_party: bool = False, room: bool = False
) -> str:
    """Activate the language for the rest of this request's rendering (templates and the
    JavaScript catalog's URL in base.html) and say which it is. `room`: the big screen's
    rule 0; `follows_party`: a tablet's rule 2."""
    lang = language_chosen(
        cookie=None if room else request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME),
        accept=request.headers.get("Accept-Language", ""),
        party_language=party_language,
        follows_party=follows_party,
    )
    translation.activate(lang)
    request.LANGUAGE_CODE = lang
    return lang


def language_of_scope(
    scope: Mapping[str, Any], *, party_language: str, follows_party: bool = False, room: bool = False
) -> str:
    """The same rule for a WebSocket handshake, from its cookies and headers."""
    if room:
        return language_chosen(cookie=None, accept="", party_language=party_language, follows_party=True)
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
    # Django's own parser, as the handshake reads the gate's pass (it never raises).
    cookie = parse_cookie(headers.get("cookie", "")).get(settings.LANGUAGE_COOKIE_NAME)
    return language_chosen(
        cookie=cookie,
        accept=headers.get("accept-language", ""),
        party_language=party_language,
        follows_party=follows_party,
    )
