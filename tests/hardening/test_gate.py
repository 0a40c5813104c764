"""Every route that takes a party's code goes through the one gate (events/access/gate.py):
the same existence, miss and page rules (issue 29). The URL configuration is walked,
so a route added tomorrow without the gate fails here; a synthetic configuration with
a planted route shows that it does."""

from __future__ import annotations

import json

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, path

from config import urls as real_urls
from events.access.gate import GATED
from tests import shorthand

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]

CODE_ARG = "code"


def code_routes(urlconf: str | None = None) -> list[tuple[str, URLPattern]]:
    """Every (route, pattern) of the configuration whose URL takes a party's code."""
    found: list[tuple[str, URLPattern]] = []

    def walk(patterns, prefix: str) -> None:
        for p in patterns:
            route = prefix + str(p.pattern)
            if isinstance(p, URLResolver):
                walk(p.url_patterns, route)
            elif CODE_ARG in p.pattern.converters or f"<{CODE_ARG}>" in route or f":{CODE_ARG}>" in route:
                found.append((route, p))

    walk(get_resolver(urlconf).url_patterns, "")
    return found


def ungated(urlconf: str | None = None) -> list[str]:
    """The routes that take a code and skip the gate."""
    return [route for route, p in code_routes(urlconf) if not getattr(p.callback, GATED, False)]


def _fill(route: str, code: str) -> str:
    """A URL of `route` with `code` and a plausible value for any other argument."""
    url = "/" + route
    for name, value in ((f"<str:{CODE_ARG}>", code), ("<str:kind>", "all")):
        url = url.replace(name, value)
    return url


def _ask(client: Client, url: str):
    """GET, or POST a JSON object where the route takes only POST."""
    response = client.get(url)
    if response.status_code == 405:
        # Every field a code route reads (join, claim, pairing), well formed.
        body = {"name": "Gate", "description": "a gift", "claim": "CDFGHJKM", "pairing": "CDFGHJKM"}
        response = client.post(url, json.dumps(body), "application/json")
    return response


def behaviour_violations(settings, net: str, urlconf: str | None = None) -> list[str]:
    """The routes that, asked with unknown codes from one address, do not count them as
    misses and then refuse a real code like every other (429)."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "miss": (1, 600), "page": (10**6, 60), "join": (10**6, 60)}
    party, _ = shorthand.party_create(name="Gate")
    unknown = [c for c in ("CCCCCC", "CCCCCD", "CCCCCF") if c != party.code][:2]  # well formed, no party
    bad = []
    for n, (route, _) in enumerate(code_routes(urlconf)):
        client = Client(REMOTE_ADDR=f"{net}{n}")
        first = _ask(client, _fill(route, unknown[0]))  # an unknown code: a miss (the one allowed)
        second = _ask(client, _fill(route, unknown[1]))
        real = _ask(client, _fill(route, party.code))
        if first.status_code == 429 or second.status_code != 429 or real.status_code != 429:
            bad.append(f"{route}: {first.status_code} {second.status_code} {real.status_code}")
    return bad


def test_every_route_that_takes_a_code_goes_through_the_gate(settings):
    routes = [route for route, _ in code_routes()]
    # The walk finds them all (a walk that found none would pass anything).
    assert {"j/<str:code>/", "story/<str:code>/story.json", "api/parties/<str:code>/result.csv"} <= set(routes)
    assert len(routes) >= 14, routes
    violations = behaviour_violations(settings, "198.51.101.")
    assert (ungated(), violations) == ([], [])


def leak(request, code):
    """A route planted without the gate: it tells which codes exist."""
    from events.party.selectors import party_by_code

    return HttpResponse(status=200 if party_by_code(code) else 404)


urlpatterns = [*real_urls.urlpatterns, path("leak/<str:code>/", leak)]


def test_a_planted_route_without_the_gate_fails_the_walk(settings):
    settings.ROOT_URLCONF = __name__
    assert ungated(__name__) == ["leak/<str:code>/"]
    violations = behaviour_violations(settings, "198.51.102.", __name__)
    assert [v.rsplit(": ", 1)[0] for v in violations] == ["leak/<str:code>/"], violations
