"""One Wi-Fi, one address (issue 29, items 1, 2, 5, 6 and 7): a whole party shares the
venue's address, so what comes from that address must never lock out a device that
holds one of the party's secrets; code guessing stays cut off, and a real code answers
as a wrong one does to anyone without a secret. Each test failed before its fix."""

from __future__ import annotations

import json
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.http import HttpResponse
from django.test import Client, RequestFactory

from config.asgi import application
from events.access import ratelimit
from events.models import Party
from events.party.secrets import CODE_ALPHABET
from tables.selectors import table_game
from tests import shorthand
from tests.live.clients import next_output

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]

VENUE = "198.51.100.29"  # the venue's NAT: every phone at the party


def _pass_cookie(code: str) -> str:
    from events.access.gate import give_pass

    response = HttpResponse()
    give_pass(response, RequestFactory().get("/"), code)
    return response.cookies.output(attrs=[], header="").strip()


def _venue_client(code: str | None = None, address: str = VENUE) -> Client:
    """A phone at the venue; with `code`, one that holds that party's pass."""
    client = Client(REMOTE_ADDR=address)
    if code is not None:
        name, value = _pass_cookie(code).split("=", 1)
        client.cookies[name] = value
    return client


def _socket(code: str, *, cookie: str | None = None, port: int = 5000) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    comm = WebsocketCommunicator(application, f"/ws/party/{code}/", headers=headers)
    comm.scope["client"] = (VENUE, port)
    return comm


async def _hello(comm, role: str, token: str | None) -> tuple[dict, int | None]:
    """Connect, say hello; the first message back and the close code (None: open)."""
    connected, _ = await comm.connect()
    assert connected, "the handshake was refused"
    await comm.send_to(text_data=json.dumps({"type": "hello", "role": role, "token": token, "re": "h"}))
    first = json.loads((await next_output(comm, 5))["text"])
    if first["type"] == "error":
        out = await next_output(comm, 5)
        assert out["type"] == "websocket.close", out
        return first, out.get("code")
    return first, None


def _guess(client: Client, i: int) -> int:
    code = "CC" + "".join(CODE_ALPHABET[(i // 21**k) % 21] for k in range(4))  # well formed, no party
    return client.get(f"/j/{code}/").status_code


async def test_wrong_codes_typed_at_the_venue_lock_out_no_secret(settings):
    """65 wrong codes typed from the party's Wi-Fi: guesses from that address are cut
    off, but every phone, tablet and the host that hold the party's secret still load
    their pages and reconnect their sockets."""
    from config.settings.base import RATE_LIMITS as REAL

    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "miss": REAL["miss"]}  # the real numbers: 60 per 10 min
    assert REAL["miss"] == (60, 600)
    party, host_token = await sync_to_async(shorthand.party_create)(name="Venue")
    _, seat_token, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Ann", description="x")
    guesser = _venue_client()
    statuses = [await sync_to_async(_guess)(guesser, i) for i in range(65)]
    assert statuses == [404] * 60 + [429] * 5, statuses
    # Without a secret, the venue is cut off for every code, real or not.
    assert (await sync_to_async(_venue_client().get)(f"/j/{party.code}/")).status_code == 429
    # A phone holding the party's pass loads every page.
    phone = _venue_client(party.code)
    for page in ("/p/{}/", "/j/{}/", "/t/{}/", "/host/{}/", "/screen/{}/", "/qr/{}.svg"):
        response = await sync_to_async(phone.get)(page.format(party.code))
        assert response.status_code == 200, (page, response.status_code)
    # Sockets: with the pass, and even without it (cookies cleared), a secret reconnects.
    cookie = _pass_cookie(party.code)
    for role, token, with_cookie in [
        ("guest", seat_token, True),
        ("host", host_token, True),
        ("guest", seat_token, False),
        ("host", host_token, False),
    ]:
        comm = _socket(party.code, cookie=cookie if with_cookie else None)
        first, closed = await _hello(comm, role, token)
        assert first["type"] == "snapshot" and closed is None, (role, with_cookie, first, closed)
        await comm.disconnect()
    # The big screen on the host's laptop shares its pass: a spectator that is let in.
    comm = _socket(party.code, cookie=cookie)
    first, closed = await _hello(comm, "spectator", None)
    assert first["type"] == "snapshot", first
    await comm.disconnect()
    # A spectator without the pass is refused, the same for a real and an unknown code.
    answers = []
    for code in (party.code, "ZZZZ77"):
        first, closed = await _hello(_socket(code), "spectator", None)
        answers.append((first["code"], first["message"], closed))
    assert answers[0] == answers[1] == ("rate_limited", answers[0][1], 4429), answers
    # A forged secret is refused too, as from an unknown code.
    first, closed = await _hello(_socket(party.code), "guest", "x" * 43)
    assert (first["code"], closed) == ("rate_limited", 4429)


async def test_spectator_sockets_from_one_device_lock_out_no_secret(settings):
    """One device on the Wi-Fi holds the address's cap of spectator sockets: a guest's
    phone still reconnects (the cap counts sockets without a secret)."""
    settings.SOCKET_LIMITS = {"per_seat": 4, "per_address": 4}
    party, host_token = await sync_to_async(shorthand.party_create)(name="Crowded")
    _, seat_token, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name="Bo", description="x")
    hogs = []
    for i in range(4):
        comm = _socket(party.code, port=6000 + i)
        first, closed = await _hello(comm, "spectator", None)
        assert first["type"] == "snapshot" and closed is None
        hogs.append(comm)
    # Past the cap, no spectator without the pass...
    first, closed = await _hello(_socket(party.code, port=6100), "spectator", None)
    assert (first["code"], closed) == ("rate_limited", 4429)
    # ...but the guest, with or without its pass, and the host, get in.
    for role, token, cookie in [
        ("guest", seat_token, None),
        ("guest", seat_token, _pass_cookie(party.code)),
        ("host", host_token, None),
    ]:
        comm = _socket(party.code, cookie=cookie, port=6200)
        first, closed = await _hello(comm, role, token)
        assert first["type"] == "snapshot" and closed is None, (role, cookie, first)
        await comm.disconnect()
    # The pass does not lift every cap: its sockets without a secret are capped per
    # party (anyone who joined holds it); past that the address's rules apply, and a
    # secret still gets in.
    screens = []
    for i in range(4):
        comm = _socket(party.code, cookie=_pass_cookie(party.code), port=6300 + i)
        first, closed = await _hello(comm, "spectator", None)
        assert first["type"] == "snapshot" and closed is None
        screens.append(comm)
    first, closed = await _hello(_socket(party.code, cookie=_pass_cookie(party.code), port=6400), "spectator", None)
    assert (first["code"], closed) == ("rate_limited", 4429)
    comm = _socket(party.code, cookie=_pass_cookie(party.code), port=6500)
    first, closed = await _hello(comm, "guest", seat_token)
    assert first["type"] == "snapshot" and closed is None
    await comm.disconnect()
    for comm in [*hogs, *screens]:
        await comm.disconnect()


def _played_with_a_vault_return(seed_from: int = 1) -> tuple[Party, str, set[str]]:
    """A finished party where a vault gift was never unwrapped: (party, host secret,
    the descriptions that stayed secret)."""
    from tests.story.record import party_record_with_tokens

    for seed in range(seed_from, seed_from + 8):
        party, host_token, _ = party_record_with_tokens(5, vault_size=2, seed=seed, name=f"Done {seed}")
        hidden = set()
        for table in party.tables.all():
            game = table_game(table)
            hidden |= {game.descriptions[g] for g in game.vault if g not in game.open}
        if hidden:
            return party, host_token, hidden
    raise AssertionError("no seed left a vault gift wrapped")


def test_a_finished_partys_join_page_keeps_what_the_story_keeps():
    party, host_token, hidden = _played_with_a_vault_return()
    assert party.status == Party.Status.OVER
    page = Client().get(f"/j/{party.code}/")
    story = Client().get(f"/story/{party.code}/")
    assert page.status_code == story.status_code == 200
    for description in hidden:
        assert description.encode() not in story.content  # the story's rule
        assert description.encode() not in page.content, description  # and the join page follows it
    assert b"(wrapped)" in page.content
    # The host's own file still lists what goes back to whom, descriptions included.
    csv = Client().get(f"/api/parties/{party.code}/result.csv", HTTP_AUTHORIZATION=f"Bearer {host_token}")
    assert all(d.encode() in csv.content for d in hidden)


def _same_answer(a, b, code_a: str, code_b: str) -> bool:
    return a.status_code == b.status_code and a.content.replace(code_a.encode(), b"") == b.content.replace(
        code_b.encode(), b""
    )


def test_no_endpoint_tells_a_real_code_from_a_wrong_one(settings):
    """The result CSV, the printables and the story (not told yet) answer a real code
    exactly as a code no party has, and every such answer counts as a miss."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "miss": (11, 600)}
    party, _ = shorthand.party_create(name="Oracle")
    shorthand.guest_join(code=party.code, name="Cy", description="x")
    _, seat_token, _ = shorthand.guest_join(code=party.code, name="Di", description="y")
    fake = "ZZZZ42"
    probes = [  # with the one answer each gives a code no party has
        ("/api/parties/{}/result.csv", {}, 403),
        (
            "/api/parties/{}/result.csv",
            {"HTTP_AUTHORIZATION": f"Bearer {seat_token}"},
            403,
        ),  # a guest's, not the host's
        ("/api/parties/{}/printables/all.pdf", {}, 403),
        ("/story/{}/", {}, 404),
        ("/story/{}/story.json", {}, 404),
        ("/story/{}/flow.svg", {}, 404),
    ]
    for path, headers, status in probes:
        real = Client(REMOTE_ADDR="198.51.100.31").get(path.format(party.code), **headers)
        none = Client(REMOTE_ADDR="198.51.100.31").get(path.format(fake), **headers)
        assert real.status_code == status, (path, real.status_code)
        assert _same_answer(real, none, party.code, fake), (path, real.status_code, none.status_code)
    # 11 answers of "nothing for you" without a secret were 11 misses (the guest's secret
    # on the real code is no guess): past the limit of 11, every code gets 429.
    for path, _, _ in probes:
        assert Client(REMOTE_ADDR="198.51.100.31").get(path.format(party.code)).status_code == 429, path


def test_a_bare_authorization_without_bearer_is_refused():
    party, host_token = shorthand.party_create(name="Bare")
    for path in (f"/api/parties/{party.code}/result.csv", f"/api/parties/{party.code}/printables/all.pdf"):
        bare = Client().get(path, HTTP_AUTHORIZATION=host_token)
        assert bare.status_code == 403, (path, bare.status_code)
    assert (
        Client().get(f"/api/parties/{party.code}/result.csv", HTTP_AUTHORIZATION=f"Bearer {host_token}").status_code
        == 200
    )


def test_the_newest_pages_are_rate_limited_but_never_for_a_secret(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "page": (4, 60)}
    party, _, _ = _played_with_a_vault_return()
    for n, path in enumerate(("/story/{}/", "/story/{}/story.json", "/j/{}/")):
        address = f"198.51.100.{40 + n}"
        flood = Client(REMOTE_ADDR=address)
        statuses = [flood.get(path.format(party.code)).status_code for _ in range(6)]
        assert statuses == [200] * 4 + [429] * 2, (path, statuses)
        # A guest at the same address, holding the party's pass, is not limited by it.
        guest = Client(REMOTE_ADDR=address)
        name, value = _pass_cookie(party.code).split("=", 1)
        guest.cookies[name] = value
        assert [guest.get(path.format(party.code)).status_code for _ in range(6)] == [200] * 6, path


def test_the_miss_guard_is_exact_under_concurrency(settings):
    """Wrong codes sent at once from one address: exactly the limit get an answer, the
    rest 429 (71 of 60 got through the check-then-count)."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "miss": (12, 600)}
    threads, start = 36, threading.Barrier(36)
    statuses: list[int] = []
    lock = threading.Lock()

    def guess(i: int) -> None:
        client = Client(REMOTE_ADDR="198.51.100.33")
        try:
            start.wait()
            code = "ZZ" + "".join(CODE_ALPHABET[(i // 21**k) % 21] for k in range(4))
            status = client.get(f"/p/{code}/").status_code
            with lock:
                statuses.append(status)
        finally:
            connection.close()

    workers = [threading.Thread(target=guess, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert sorted(statuses) == [404] * 12 + [429] * 24, sorted(statuses)


def test_a_burst_across_a_window_boundary_cannot_take_twice_the_limit(settings, monkeypatch):
    """10 new parties per 10 minutes: 10 just before a fixed window's end and 10 just
    after used to pass (20 in 11 s). Now any 10 minutes hold at most 10."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "create": (10, 600)}
    now = [600 * 3_000_000 + 595.0]  # five seconds before a window boundary

    class Clock:
        @staticmethod
        def time() -> float:
            return now[0]

    monkeypatch.setattr(ratelimit, "time", Clock)
    monkeypatch.setattr(ratelimit, "_now", lambda: now[0], raising=False)
    host = Client(REMOTE_ADDR="198.51.100.34")

    def create() -> int:
        return host.post("/api/parties", json.dumps({"name": "P"}), "application/json").status_code

    first = [create() for _ in range(10)]
    now[0] += 11  # six seconds into the next window
    second = [create() for _ in range(10)]
    assert first == [201] * 10 and second == [429] * 10, (first, second)
    now[0] += 600  # a whole window later, the budget is back
    assert create() == 201


def test_a_secret_without_its_pass_gets_a_new_one_and_nothing_else_does(settings):
    """A phone whose cookies were cleared trades its secret for the party's pass, even
    from an address over its limits; without a secret of the party, a real code answers
    as an unknown one."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "miss": (3, 600)}
    party, host_token = shorthand.party_create(name="Renew")
    _, seat_token, _ = shorthand.guest_join(code=party.code, name="Ed", description="x")
    wrong = Client(REMOTE_ADDR="198.51.100.35").post(
        f"/api/parties/{party.code}/pass", HTTP_AUTHORIZATION=f"Bearer {'x' * 43}"
    )
    unknown = Client(REMOTE_ADDR="198.51.100.35").post(
        "/api/parties/ZZZZ42/pass", HTTP_AUTHORIZATION=f"Bearer {seat_token}"
    )
    assert wrong.status_code == unknown.status_code == 403 and wrong.content == unknown.content
    guesser = Client(REMOTE_ADDR="198.51.100.35")
    assert [guesser.get(f"/p/ZZZZ{i}{i}/").status_code for i in (3, 4)][-1] == 429  # over the limit now
    phone = Client(REMOTE_ADDR="198.51.100.35")
    assert phone.get(f"/p/{party.code}/").status_code == 429
    for token in (seat_token, host_token):
        renewed = phone.post(f"/api/parties/{party.code}/pass", HTTP_AUTHORIZATION=f"Bearer {token}")
        assert renewed.status_code == 204, renewed.content
    assert phone.get(f"/p/{party.code}/").status_code == 200  # the pass came with the answer


def test_the_pass_comes_with_every_secret_handed_out(settings):
    client = Client()
    created = client.post("/api/parties", json.dumps({"name": "Passes"}), "application/json")
    code = created.json()["code"]
    assert f"heist_pass_{code}" in created.cookies
    joined = Client().post(
        f"/api/parties/{code}/guests", json.dumps({"name": "F", "description": "y"}), "application/json"
    )
    assert joined.status_code == 201 and f"heist_pass_{code}" in joined.cookies
    # A pass is signed: a made-up one is no pass.
    forged = Client(REMOTE_ADDR="198.51.100.36")
    forged.cookies[f"heist_pass_{code}"] = f"{code}:forged"
    from events.access.gate import holds_pass

    assert not holds_pass({f"heist_pass_{code}": f"{code}:forged"}, code)
    assert holds_pass({f"heist_pass_{code}": created.cookies[f"heist_pass_{code}"].value}, code.lower())
    assert not holds_pass({f"heist_pass_{code}": created.cookies[f"heist_pass_{code}"].value}, "ZZZZ42")
    # The pass lifts no limit on handing out new secrets: anyone who joined holds it.
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "join": (2, 60)}
    joiner = Client(REMOTE_ADDR="198.51.100.37")
    statuses = [
        joiner.post(
            f"/api/parties/{code}/guests", json.dumps({"name": f"J{i}", "description": "y"}), "application/json"
        )
        for i in range(3)
    ]
    assert [r.status_code for r in statuses] == [201, 201, 429] and f"heist_pass_{code}" in joiner.cookies


def test_the_embedded_boxs_local_counts_slide_and_are_exact(settings, monkeypatch):
    """bin/serve counts in local memory (no Redis): the same sliding log, under a lock."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "miss": (50, 600)}
    now = [1000.0]
    monkeypatch.setattr(ratelimit, "_now", lambda: now[0])
    allowed: list[bool] = []
    lock, start = threading.Lock(), threading.Barrier(20)

    def hits() -> None:
        start.wait()
        for _ in range(5):
            ok = ratelimit.allow("miss", "198.51.100.38")
            with lock:
                allowed.append(ok)

    workers = [threading.Thread(target=hits) for _ in range(20)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert allowed.count(True) == 50 and ratelimit.exceeded("miss", "198.51.100.38")
    now[0] += 599  # still within the window of the first hits
    assert not ratelimit.allow("miss", "198.51.100.38")
    now[0] += 2  # they slid out
    assert ratelimit.allow("miss", "198.51.100.38") and not ratelimit.exceeded("miss", "198.51.100.38")
