"""The gate's miss counting on every route that answers "nothing for you here" about a
real party (a wrong one-time code, no secret, a story not told yet): each such answer
is a miss for an address without the party's pass or secret, and past the limit every
route of every code answers 429; the party's own (the pass, a live secret) are never
counted, except on the routes that hand out secrets. A page that exists is no miss."""

from __future__ import annotations

import itertools
import json

import pytest
from django.test import Client

from events.access import gate
from events.party import services
from tests import shorthand

pytestmark = pytest.mark.django_db

MISSES = 2
_addresses = itertools.count(1)


@pytest.fixture(autouse=True)
def _miss_limit(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "miss": (MISSES, 600)}


def client(**extra) -> Client:
    return Client(REMOTE_ADDR=f"198.51.100.{next(_addresses) % 250 + 1}", **extra)


def post(c: Client, url: str, body: dict, **headers):
    return c.post(url, json.dumps(body), "application/json", **headers)


def seated_party():
    party, host_token, tokens = shorthand.party_seated(name="Gate", guests=3)
    return party, host_token, tokens


# Each: a request about a real party that the gate answers "nothing for you here".
def not_yours(code: str) -> list:
    return [
        lambda c, **h: post(c, f"/api/parties/{code}/claim", {"claim": "CDFGHJKM", "name": "Sub"}, **h),
        lambda c, **h: post(c, f"/api/parties/{code}/tablets", {"pairing": "CDFGHJKM"}, **h),
        lambda c, **h: post(c, f"/api/parties/{code}/pass", {}, **h),
        lambda c, **h: c.get(f"/api/parties/{code}/result.csv", **h),
        lambda c, **h: c.get(f"/api/parties/{code}/printables/all.pdf", **h),
        lambda c, **h: c.get(f"/story/{code}/story.json", **h),
        lambda c, **h: c.get(f"/story/{code}/flow.svg", **h),
    ]


def test_every_not_yours_answer_is_a_miss_and_the_limit_then_closes_every_route():
    party, _, _ = seated_party()
    for n, ask in enumerate(not_yours(party.code)):
        c = client()
        answers = [ask(c).status_code for _ in range(MISSES)]
        assert 429 not in answers, (n, answers)
        assert ask(c).status_code == 429, n
        assert c.get(f"/j/{party.code}/").status_code == 429, n  # a real page too, now


def test_a_page_that_exists_is_no_miss():
    party, _, _ = seated_party()
    c = client()
    for _ in range(MISSES + 2):
        assert c.get(f"/screen/{party.code}/").status_code == 200
    assert c.get(f"/api/parties/{party.code}/result.csv").status_code != 429  # the first miss


def test_the_partys_own_are_never_counted_on_the_routes_that_hand_out_nothing():
    party, _, tokens = seated_party()
    seat = next(iter(tokens.values()))
    holder = client()
    holder.cookies[gate.pass_cookie_name(party.code)] = _pass_value(party.code)
    with_secret = client()
    for _ in range(MISSES + 2):
        assert holder.get(f"/api/parties/{party.code}/result.csv").status_code == 403
        # A seat's secret opens the party (not the CSV, which is the host's).
        answer = with_secret.get(f"/api/parties/{party.code}/result.csv", HTTP_AUTHORIZATION=f"Bearer {seat}")
        assert answer.status_code == 403


def test_secrets_are_handed_out_under_the_miss_limit_even_to_the_partys_own():
    party, _, _tokens = seated_party()
    holder = client()
    holder.cookies[gate.pass_cookie_name(party.code)] = _pass_value(party.code)
    claim = not_yours(party.code)[0]
    assert [claim(holder).status_code for _ in range(MISSES)] == [400] * MISSES
    assert claim(holder).status_code == 429


def test_every_live_secret_renews_the_pass_and_only_a_live_one():
    party, host_token, tokens = seated_party()
    seat = next(iter(tokens.values()))
    for secret in (host_token, seat):
        answer = post(client(), f"/api/parties/{party.code}/pass", {}, HTTP_AUTHORIZATION=f"Bearer {secret}")
        assert answer.status_code == 204 and gate.pass_cookie_name(party.code) in answer.cookies
    # The host's secret makes a holder: the host is never counted a miss.
    host = client()
    for _ in range(MISSES + 2):
        assert host.get(f"/story/{party.code}/story.json", HTTP_AUTHORIZATION=f"Bearer {host_token}").status_code == 404


def test_a_removed_guests_secret_makes_no_holder():
    party, _ = shorthand.party_create(name="Removed")
    guest, token, _ = shorthand.guest_join(code=party.code, name="Ann", description="a gift")
    services.guest_remove(party_id=party.pk, guest_id=guest.pk)
    c = client()
    for _ in range(MISSES):
        assert c.get(f"/api/parties/{party.code}/result.csv", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 403
    assert c.get(f"/api/parties/{party.code}/result.csv", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 429


def _pass_value(code: str) -> str:
    """The pass a response hands out with a secret (events/access/gate.give_pass)."""
    from django.http import HttpResponse
    from django.test import RequestFactory

    response = HttpResponse()
    gate.give_pass(response, RequestFactory().get("/"), code)
    return response.cookies[gate.pass_cookie_name(code)].value
