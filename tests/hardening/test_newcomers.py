"""The venue's newcomers and a seat's reconnect (issue 42): the host's invitation in the
link and QR code the host shares lets a newcomer in whatever else the venue's address
did; a secret's own pass lets its device's socket in whatever else the address holds;
and two of the planted bugs no test caught (the limiters' window edge, a socket's miss).
Each test failed before its fix."""

from __future__ import annotations

import asyncio
import html
import json
import re
from urllib.parse import urlsplit

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.http import HttpResponse
from django.test import Client, RequestFactory

from config.asgi import application
from events.access import ratelimit
from events.models import Party
from tests import shorthand
from tests.hardening.test_venue import _guess, _hello, _pass_cookie, _socket, _venue_client

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]

VENUE_42 = "203.0.113.42"  # addresses no other test uses: miss counts stay in Redis for the whole run
VENUE_43 = "203.0.113.43"


def _at_venue(code: str | None = None, address: str = VENUE_42) -> Client:
    return _venue_client(code, address)


def _shared_link(code: str) -> str:
    """The join link the host shares, read off the host's page (path and query)."""
    page = _at_venue(code, "203.0.113.99").get(f"/host/{code}/").content.decode()
    link = re.search(r'id="join-link" href="([^"]+)"', page)
    assert link, "the host page shows no join link"
    parts = urlsplit(html.unescape(link.group(1)))
    return f"{parts.path}?{parts.query}"


def test_a_newcomer_through_the_hosts_link_joins_after_65_wrong_codes(settings):
    """Issue 42.3: 65 wrong codes typed from the venue's one address (a prankster, a
    child), then a newcomer opens the host's link or QR code: the page (200), the join
    (201), the play page; a wrong code typed from there still gets 429, and so does the
    real code without the host's invitation, or with a forged one or another party's."""
    from config.settings.base import RATE_LIMITS as REAL

    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "miss": REAL["miss"]}
    assert REAL["miss"] == (60, 600)
    party, _ = shorthand.party_create(name="Invited")
    other, _ = shorthand.party_create(name="Next door")
    link = _shared_link(party.code)
    assert link.startswith(f"/j/{party.code}/?k=")
    # the same link on the big screen, in the QR code and on the poster
    screen = _at_venue(party.code).get(f"/screen/{party.code}/").content.decode()
    assert f"/j/{party.code}/?k=" in screen and link.split("?")[1] in screen
    guesser = _at_venue()
    statuses = [_guess(guesser, i) for i in range(65)]
    assert statuses == [404] * 60 + [429] * 5, statuses

    newcomer = _at_venue()
    assert newcomer.get(link).status_code == 200
    joined = newcomer.post(
        f"/api/parties/{party.code}/guests", json.dumps({"name": "Newcomer", "description": "y"}), "application/json"
    )
    assert joined.status_code == 201, joined.content
    assert newcomer.get(f"/p/{party.code}/").status_code == 200  # the pass came with the join
    # A second newcomer, who reloads the page the link opened: its invitation stayed.
    second = _at_venue()
    assert second.get(link).status_code == 200
    assert second.get(f"/j/{party.code}/").status_code == 200
    # Guessing stays cut off: a typed wrong code, the real code without the invitation,
    # a forged invitation, this party's invitation on another code.
    key = link.split("k=", 1)[1]
    assert newcomer.get("/j/ZZZZ42/").status_code == 429
    assert _at_venue().get(f"/j/{party.code}/").status_code == 429
    assert _at_venue().get(f"/j/{party.code}/?k={key[:-1]}A").status_code == 429
    assert _at_venue().get(f"/j/{other.code}/?k={key}").status_code == 429
    assert (
        _at_venue()
        .post(f"/api/parties/{other.code}/guests?k={key}", json.dumps({"name": "X"}), "application/json")
        .status_code
        == 429
    )
    assert _at_venue().get(f"/qr/{other.code}.svg?k={key}").status_code == 429


def test_the_hosts_link_is_not_limited_by_the_venues_page_flood_and_counts_no_miss(settings):
    """Whatever else the venue's address loads, the host's link opens; and the link's
    requests are never counted as guesses, so they cannot lock out anyone else."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "page": (4, 60), "miss": (3, 600)}
    party, _ = shorthand.party_create(name="Busy")
    link = _shared_link(party.code)
    flood = _at_venue(address=VENUE_43)
    assert [flood.get(f"/j/{party.code}/").status_code for _ in range(6)] == [200] * 4 + [429] * 2
    invited = _at_venue(address=VENUE_43)
    assert [invited.get(link).status_code for _ in range(6)] == [200] * 6
    # an invitation on an expired or gone party answers as it would, and is no miss
    gone, _ = shorthand.party_create(name="Gone")
    gone_link = _shared_link(gone.code)
    Party.objects.filter(pk=gone.pk).delete()
    assert [_at_venue(address=VENUE_43).get(gone_link).status_code for _ in range(5)] == [404] * 5
    assert not ratelimit.exceeded("miss", VENUE_43)


def _cookies_of(code: str, secret: str) -> str:
    """The cookies a device keeps when the server hands it `secret`: the party's pass
    and the secret's own pass."""
    from events.access.gate import give_pass

    response = HttpResponse()
    give_pass(response, RequestFactory().get("/"), code, secret=secret)
    return "; ".join(f"{m.key}={m.value}" for m in response.cookies.values())


async def test_a_seats_reconnect_is_never_crowded_out(settings, monkeypatch):
    """Issue 42.4: a guest who joined (so holds the party's pass) keeps the address's
    cap of spectator sockets open with the pass and without it, and fills the
    probation slots: every reconnect of a real guest on the same address is accepted
    (7 of 10 were refused with 403). A device's own pass lets in only its own secret's
    sockets, a seat's cap of them arriving at once: the attacker's own pass does not
    open the door for its flood."""
    from events.live import consumers

    monkeypatch.setattr(consumers, "PROBATION_HELLO_SECONDS", 60.0)  # held, as if refilled for ever
    settings.SOCKET_LIMITS = {"per_seat": 4, "per_address": 6}
    party, host_token = await sync_to_async(shorthand.party_create)(name="Crowded out")
    _, mine, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Real", description="x")
    _, theirs, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Hog", description="y")
    hog_pass, hog_own = _pass_cookie(party.code), _cookies_of(party.code, theirs)
    held = []
    for cookie in (hog_pass, None):  # spectators with the pass, then without it
        for i in range(6):
            comm = _socket(party.code, cookie=cookie, port=7000 + len(held))
            first, closed = await _hello(comm, "spectator", None)
            assert first["type"] == "snapshot" and closed is None, (cookie, i, first)
            held.append(comm)
    for i in range(6):  # the probation slots, filled and never saying hello
        comm = _socket(party.code, port=7100 + i)
        connected, _ = await comm.connect()
        assert connected
        held.append(comm)
    for i in range(4):  # the hog's own pass: its own seat's arrivals, and no more
        comm = _socket(party.code, cookie=hog_own, port=7200 + i)
        connected, _ = await comm.connect()
        assert connected
        held.append(comm)
    # Everything is full: another spectator or probation socket, with the pass, without
    # it, or with the hog's own pass, is refused at the handshake.
    for cookie in (hog_pass, None, hog_own):
        connected, _ = await _socket(party.code, cookie=cookie, port=7300).connect()
        assert not connected, cookie
    # The real guest reconnects ten times, with the cookies its join left: every one in.
    for i in range(10):
        comm = _socket(party.code, cookie=_cookies_of(party.code, mine), port=7400 + i)
        first, closed = await _hello(comm, "guest", mine)
        assert first["type"] == "snapshot" and closed is None, (i, first)
        await comm.disconnect()
    # and the host's laptop, and its big screen (a spectator on the host's own pass,
    # counted as a spectator: no room for it now)
    comm = _socket(party.code, cookie=_cookies_of(party.code, host_token), port=7500)
    first, closed = await _hello(comm, "host", host_token)
    assert first["type"] == "snapshot" and closed is None
    await comm.disconnect()
    first, closed = await _hello(
        _socket(party.code, cookie=_cookies_of(party.code, host_token), port=7501), "spectator", None
    )
    assert (first["code"], closed) == ("rate_limited", 4429)
    # Without its own pass (a phone from before it existed), the reconnect is refused:
    # what the own pass is for.
    connected, _ = await _socket(party.code, cookie=_pass_cookie(party.code), port=7600).connect()
    assert not connected
    for comm in held:
        await comm.disconnect()


def test_every_secret_handed_out_comes_with_its_own_pass():
    from events.access.gate import own_key, own_pass

    created = Client().post("/api/parties", json.dumps({"name": "Own"}), "application/json")
    code, host_token = created.json()["code"], created.json()["host_token"]
    jar = {m.key: m.value for m in created.cookies.values()}
    assert own_pass(jar, code) == own_key(host_token)
    joined = Client().post(
        f"/api/parties/{code}/guests", json.dumps({"name": "G", "description": "y"}), "application/json"
    )
    jar = {m.key: m.value for m in joined.cookies.values()}
    assert own_pass(jar, code) == own_key(joined.json()["token"])
    renewed = Client().post(f"/api/parties/{code}/pass", HTTP_AUTHORIZATION=f"Bearer {joined.json()['token']}")
    assert own_pass({m.key: m.value for m in renewed.cookies.values()}, code) == own_key(joined.json()["token"])
    # signed, and for one party only
    assert own_pass({f"heist_own_{code}": f"{code}:{own_key(host_token)}:forged"}, code) is None
    assert own_pass(jar, "ZZZZ42") is None
    # another party's own pass under this party's name is no own pass of this one
    other = Client().post("/api/parties", json.dumps({"name": "Other"}), "application/json")
    theirs = other.cookies[f"heist_own_{other.json()['code']}"].value
    assert own_pass({f"heist_own_{code}": theirs}, code) is None
    # the cookies' flags: the own pass and the invitation are the server's alone; the
    # party's pass is read by live.js (it renews a missing one)
    assert created.cookies[f"heist_own_{code}"]["httponly"] is True
    assert not created.cookies[f"heist_pass_{code}"]["httponly"]
    link = Client().get(f"/host/{code}/", HTTP_AUTHORIZATION=f"Bearer {host_token}").content.decode()
    key = re.search(r'id="join-link" href="[^"]*\?k=([\w-]+)"', link).group(1)
    opened = Client().get(f"/j/{code}/?k={key}")
    assert opened.status_code == 200 and opened.cookies[f"heist_invited_{code}"]["httponly"] is True
    assert opened.cookies[f"heist_invited_{code}"].value == key


@pytest.mark.parametrize("backend", ["redis", "local memory"])
def test_a_hit_frees_exactly_one_window_after_it_in_both_limiters(settings, monkeypatch, backend):
    """Issue 42.5: the embedded box's in-memory limiter and the Redis one must free a
    hit at the same edge of its window: exactly `window` seconds after it (a planted
    `<` for `<=` in one of them went unnoticed)."""
    if backend == "local memory":
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "miss": (2, 600)}
    address = f"203.0.113.{60 if backend == 'redis' else 61}"
    now = [5_000_000.0]
    monkeypatch.setattr(ratelimit, "_now", lambda: now[0])
    assert ratelimit.allow("miss", address)
    now[0] += 100.0
    assert ratelimit.allow("miss", address)
    at = lambda seconds: now.__setitem__(0, 5_000_000.0 + seconds)  # noqa: E731
    at(599.75)  # just before the first hit's edge: still full
    assert ratelimit.exceeded("miss", address) and not ratelimit.allow("miss", address)
    at(600.0)  # at it: the first hit's place is free, and taken again
    assert not ratelimit.exceeded("miss", address) and ratelimit.allow("miss", address)
    assert not ratelimit.allow("miss", address)
    at(699.75)  # the second hit's place is not free before its own edge
    assert ratelimit.exceeded("miss", address)
    at(700.0)
    assert ratelimit.allow("miss", address) and not ratelimit.allow("miss", address)


async def test_a_socket_asking_for_an_unknown_code_is_a_miss(settings):
    """Issue 42.5: a socket for a code no party has counts as a miss, as a page does:
    past the limit the address's sockets and pages get the same 429, for every code."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "miss": (3, 600)}
    address = "203.0.113.62"
    party, _ = await sync_to_async(shorthand.party_create)(name="Real")
    refusals = []
    for i in range(4):
        comm = WebsocketCommunicator(
            application, f"/ws/party/ZZZZ{i}{i}/", headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")]
        )
        comm.scope["client"] = (address, 5200 + i)
        first, closed = await _hello(comm, "spectator", None)
        refusals.append((first.get("code"), closed))
    assert refusals == [("no_party", 4404)] * 3 + [("rate_limited", 4429)], refusals
    page = await sync_to_async(Client(REMOTE_ADDR=address).get)(f"/j/{party.code}/")
    assert page.status_code == 429


VENUE_44 = "203.0.113.44"


async def _settled(counted, timeout: float = 5.0) -> None:
    """Wait until the counts say `counted` (a closed socket gives its places back in
    its consumer's disconnect, which runs after the test's disconnect returns on a
    loaded machine), or fail after `timeout`: waiting for the positive signal, never
    a fixed sleep."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not counted():
        assert loop.time() < end, "the counts never settled"
        await asyncio.sleep(0.01)


def _socket_at(code: str, address: str, *, cookie: str, port: int) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(
        application,
        f"/ws/party/{code}/",
        headers=[(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie.encode())],
    )
    comm.scope["client"] = (address, port)
    return comm


async def test_the_big_screen_on_the_hosts_own_pass_counts_as_a_spectator(settings, monkeypatch):
    """The host's laptop shows the big screen beside the dashboard: its spectator socket
    carries the host's own pass. It is let in while the spectators' counts have room
    (counted there, not as the host's arrival), and refused once they are full."""
    from events.live import consumers, socket_limits

    monkeypatch.setattr(consumers, "PROBATION_HELLO_SECONDS", 60.0)
    settings.SOCKET_LIMITS = {"per_seat": 4, "per_address": 2}
    party, host_token = await sync_to_async(shorthand.party_create)(name="Screens")
    own = _cookies_of(party.code, host_token)
    address_before = socket_limits.addresses.counts.get(VENUE_44, 0)
    screens = []
    for i in range(2):  # the spectators' count (with the pass: per party) has room for two
        comm = _socket_at(party.code, VENUE_44, cookie=own, port=7700 + i)
        first, closed = await _hello(comm, "spectator", None)
        assert first["type"] == "snapshot" and closed is None, (i, first)
        screens.append(comm)
    assert not [k for k in socket_limits.arriving.counts if k[0] == party.code], "the arrival's place is given back"
    # the pass's count is full: the next counts against the address, which has room
    comm = _socket_at(party.code, VENUE_44, cookie=own, port=7710)
    first, closed = await _hello(comm, "spectator", None)
    assert first["type"] == "snapshot" and closed is None, first
    assert socket_limits.addresses.counts.get(VENUE_44, 0) == address_before + 1
    screens.append(comm)
    for comm in screens:
        await comm.disconnect()
    # closed, they gave their places back: two screens fit in the pass's count again
    again = []
    for i in range(2):
        comm = _socket_at(party.code, VENUE_44, cookie=own, port=7720 + i)
        first, closed = await _hello(comm, "spectator", None)
        assert first["type"] == "snapshot" and closed is None, (i, first)
        again.append(comm)
    await _settled(lambda: socket_limits.addresses.counts.get(VENUE_44, 0) == address_before)
    for comm in again:
        await comm.disconnect()


def test_the_embedded_limiters_sweep_of_quiet_addresses_keeps_every_live_count(settings, monkeypatch):
    """Now and then the in-memory limiter forgets addresses quiet for an hour; it must
    never forget a count still inside its window."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "miss": (2, 600)}
    now = [9_000_000.0]
    monkeypatch.setattr(ratelimit, "_now", lambda: now[0])
    assert ratelimit.allow("miss", "203.0.113.70") and ratelimit.allow("miss", "203.0.113.70")
    now[0] += 599.0  # still inside the window of those hits
    for _ in range(4096):  # a whole turn of the sweep, whichever call it falls on
        ratelimit.exceeded("miss", "203.0.113.73")
    assert ratelimit.exceeded("miss", "203.0.113.70"), "a live count was swept"
    assert not ratelimit.allow("miss", "203.0.113.70")


def test_hits_at_the_same_instant_each_count(settings, monkeypatch):
    """A burst within one clock tick (the clock is frozen here) is still counted hit by
    hit: each hit is its own member of the Redis log."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "miss": (3, 600)}
    monkeypatch.setattr(ratelimit, "_now", lambda: 7_000_000.0)
    assert [ratelimit.allow("miss", "203.0.113.74") for _ in range(5)] == [True] * 3 + [False] * 2


async def test_a_socket_that_proves_a_secret_gives_back_each_place_once(settings, monkeypatch):
    """A socket on probation, or on the party's pass, that then proves a secret leaves
    those counts once: closing it later takes nothing from the sockets still counted."""
    from events.live import consumers, socket_limits

    monkeypatch.setattr(consumers, "PROBATION_HELLO_SECONDS", 60.0)
    settings.SOCKET_LIMITS = {"per_seat": 4, "per_address": 2}
    address = "203.0.113.45"
    party, host_token = await sync_to_async(shorthand.party_create)(name="Places")
    pass_only = _pass_cookie(party.code)
    held = []
    for i, cookie in enumerate([pass_only, "x=y", "x=y"]):  # one pass place, the address's two
        comm = _socket_at(party.code, address, cookie=cookie, port=7800 + i)
        assert (await _hello(comm, "spectator", None))[0]["type"] == "snapshot"
        held.append(comm)
    waiting = _socket_at(party.code, address, cookie="x=y", port=7810)  # on probation, no hello
    assert (await waiting.connect())[0]
    held.append(waiting)
    assert socket_limits.probation.counts.get(address) == 1
    # on probation, proves the host's secret, closes
    proving = _socket_at(party.code, address, cookie="x=y", port=7811)
    first, closed = await _hello(proving, "host", host_token)
    assert first["type"] == "snapshot" and closed is None
    await proving.disconnect()
    await _settled(lambda: socket_limits.probation.counts.get(address) == 1)  # the waiting one's, still
    # on the pass's second place, proves the host's secret, closes
    on_pass = _socket_at(party.code, address, cookie=pass_only, port=7812)
    first, closed = await _hello(on_pass, "host", host_token)
    assert first["type"] == "snapshot" and closed is None
    await on_pass.disconnect()
    await _settled(lambda: socket_limits.passes.counts.get(party.code) == 1)  # the held spectator's, still
    assert socket_limits.addresses.counts.get(address) == 2
    for comm in held:
        await comm.disconnect()
    await _settled(
        lambda: (
            party.code not in socket_limits.passes.counts
            and address not in socket_limits.addresses.counts
            and address not in socket_limits.probation.counts
        )
    )
