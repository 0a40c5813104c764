"""Secrets and the edges of trust: tokens never in a URL or a QR code, compared in
constant time, stored hashed; a join code never opens a seat; cross-site sockets,
oversized frames and join floods are refused; what guests type is stored verbatim and
never reaches a page or a spreadsheet as markup or a formula."""

from __future__ import annotations

import asyncio
import csv
import hashlib
import hmac
import io
import json
import re

import pytest
import qrcode
import qrcode.image.svg
import websockets
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from events.models import Guest, Party
from events.party import secrets as heist_secrets
from events.party import services
from events.party.public_url import join_path
from events.party.selectors import actor_for
from tables.models import Table
from tests import shorthand

from .server import LivePhone

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]

SCRIPT = "<script>alert('x')</script>"


def _post(client: Client, path: str, body, **extra):
    return client.post(path, data=json.dumps(body), content_type="application/json", **extra)


def _all_urls(value) -> list[str]:
    """Every string in a JSON response that looks like a URL or a path."""
    out = []
    if isinstance(value, dict):
        for v in value.values():
            out += _all_urls(v)
    elif isinstance(value, list):
        for v in value:
            out += _all_urls(v)
    elif isinstance(value, str) and ("/" in value or value.startswith("http")):
        out.append(value)
    return out


# --- tokens in URLs, QR codes, headers ---------------------------------------------------


def test_create_and_join_responses_put_no_secret_in_any_url():
    client = Client()
    created = _post(client, "/api/parties", {"name": "Office party"})
    assert created.status_code == 201
    body = created.json()
    host_token = body["host_token"]
    assert body["host_url"] == f"/host/{body['code']}/"
    joined = _post(client, f"/api/parties/{body['code']}/guests", {"name": "Bea", "description": "a mug"})
    assert joined.status_code == 201
    seat_token = joined.json()["token"]
    assert joined.json()["play_url"] == f"/p/{body['code']}/"
    urls = _all_urls(body) + _all_urls(joined.json())
    assert len(urls) == 2
    for url in urls:
        assert host_token not in url and seat_token not in url and "token" not in url.lower()
    # the pages those URLs lead to do not carry the secrets either (they live in localStorage)
    for url in urls:
        page = client.get(url)
        assert page.status_code == 200
        html = page.content.decode()
        assert host_token not in html and seat_token not in html
        # and no page lets a referrer carry anything to another site
        assert page["Referrer-Policy"] == "same-origin"


def test_the_qr_code_encodes_exactly_the_join_link():
    party, _host_token = shorthand.party_create(name="QR")
    _, seat_token, _ = shorthand.guest_join(code=party.code, name="Cy", description="socks")
    svg = Client().get(f"/qr/{party.code}.svg")
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    # The same QR generator on /j/<CODE>/?k=<the host's invitation> yields the same
    # image: that is all it holds (the invitation is no secret: it names the party only).
    expected = qrcode.make(
        f"http://testserver{join_path(party.code)}", image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2
    )
    buf = io.BytesIO()
    expected.save(buf)
    assert svg.content == buf.getvalue()
    # and not a QR of anything longer (a token appended would change the image)
    longer = qrcode.make(
        f"http://testserver{join_path(party.code)}&t={seat_token}",
        image_factory=qrcode.image.svg.SvgPathImage,
        box_size=10,
        border=2,
    )
    buf2 = io.BytesIO()
    longer.save(buf2)
    assert svg.content != buf2.getvalue()


def test_token_compare_is_constant_time_and_refuses_near_misses(monkeypatch):
    token = heist_secrets.new_token()
    stored = heist_secrets.token_hash(token)
    calls = []
    real = hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(heist_secrets.hmac, "compare_digest", spy)
    assert heist_secrets.token_matches(token, stored) is True
    near = {token[:-1], token + "A", token.upper(), token.lower(), " " + token, token + "\n", ""}
    for i in range(len(token)):  # one character off, at every position
        c = "A" if token[i] != "A" else "B"
        near.add(token[:i] + c + token[i + 1 :])
    near.discard(token)
    for other in near:
        assert heist_secrets.token_matches(other, stored) is False, other
    assert len(calls) == len(near) + 1, "every comparison goes through hmac.compare_digest"
    # the digest, not the token, is what is compared (and what is stored)
    assert all(len(a) == len(b) == 64 for a, b in calls)


def test_a_database_leak_gives_nobody_a_seat():
    party, host_token = shorthand.party_create(name="Leak")
    guest, seat_token, _ = shorthand.guest_join(code=party.code, name="Di", description="a plant")
    party.refresh_from_db()
    guest.refresh_from_db()
    assert party.host_token_hash == hashlib.sha256(host_token.encode()).hexdigest()
    assert guest.token_hash == hashlib.sha256(seat_token.encode()).hexdigest()
    from django.db import connection

    with connection.cursor() as c:
        c.execute(
            "select row_to_json(p)::text from events_party p union all select row_to_json(g)::text from events_guest g"
        )
        dump = "\n".join(r[0] for r in c.fetchall())
    assert host_token not in dump and seat_token not in dump
    # the stored digest is not a secret that works
    assert actor_for(party=party, role="guest", token=guest.token_hash) is None
    assert actor_for(party=party, role="host", token=party.host_token_hash) is None


# --- the socket's doors --------------------------------------------------------------------


async def _hello(code: str, frame: dict, origin: bytes = b"http://localhost") -> tuple[dict | None, int | None]:
    comm = WebsocketCommunicator(
        application, f"/ws/party/{code}/", headers=[(b"origin", origin), (b"host", b"localhost")]
    )
    connected, _ = await comm.connect()
    assert connected
    await comm.send_to(text_data=json.dumps(frame))
    reply = json.loads(await comm.receive_from(timeout=5))
    out = await comm.receive_output(timeout=5) if reply.get("type") == "error" else None
    close = out.get("code") if out and out["type"] == "websocket.close" else None
    if close is None:
        await comm.disconnect()
    return reply, close


async def test_a_join_code_alone_never_opens_a_seat():
    def make():
        party, host_token = shorthand.party_create(name="Doors")
        tokens = [shorthand.guest_join(code=party.code, name=f"G{i}", description=f"gift {i}")[1] for i in range(3)]
        services.party_seat(party_id=party.pk)
        other, other_host = shorthand.party_create(name="Elsewhere")
        other_token = shorthand.guest_join(code=other.code, name="X", description="y")[1]
        return party, host_token, tokens, other_host, other_token

    party, host_token, tokens, other_host, other_token = await sync_to_async(make)()
    forged = [
        {"role": "guest"},
        {"role": "guest", "token": None},
        {"role": "guest", "token": ""},
        {"role": "guest", "token": party.code},  # the join code is not a secret
        {"role": "guest", "token": "A" * 43},
        {"role": "guest", "token": tokens[0][:-1] + ("A" if tokens[0][-1] != "A" else "B")},
        {"role": "guest", "token": other_token},  # another party's seat
        {"role": "guest", "token": host_token},  # the host's secret is not a seat
        {"role": "host", "token": tokens[0]},  # a seat is not the host
        {"role": "host", "token": other_host},
        {"role": "captain", "token": tokens[0]},
    ]
    for f in forged:
        reply, close = await _hello(party.code, {"type": "hello", "re": "h", **f})
        assert reply["type"] == "error" and reply["code"] == "bad_secret" and reply["re"] == "h", (f, reply)
        assert close == 4403, (f, close)
    # With the code alone one gets the spectator's public screen: no hand, no secret gift
    reply, _ = await _hello(party.code, {"type": "hello", "role": "spectator", "re": "s"})
    assert reply["type"] == "snapshot" and reply["role"] == "spectator"
    text = json.dumps(reply)
    assert '"hand"' not in text and '"me"' not in text
    for i in range(3):
        assert f"gift {i}" not in text  # descriptions stay wrapped
    # and a spectator can do nothing
    comm = WebsocketCommunicator(application, f"/ws/party/{party.code}/", headers=[(b"origin", b"http://localhost")])
    await comm.connect()
    await comm.send_to(text_data=json.dumps({"type": "hello", "role": "spectator", "re": "s"}))
    await comm.receive_from(timeout=5)
    table = await sync_to_async(Table.objects.get)(party=party)
    for frame in (
        {"type": "act", "re": "a", "table": table.pk, "action": {"type": "confirm_reveal"}},
        {"type": "act", "re": "b", "table": table.pk, "action": {"type": "regroup", "cards": [], "seat": 0}},
        {"type": "party", "re": "c", "command": "open_relay"},
    ):
        await comm.send_to(text_data=json.dumps(frame))
        msg = json.loads(await comm.receive_from(timeout=5))
        while msg.get("re") != frame["re"]:
            msg = json.loads(await comm.receive_from(timeout=5))
        assert msg["type"] == "error" and msg["code"] == "forbidden", msg
    await comm.disconnect()


async def test_cross_site_sockets_and_oversized_frames_are_refused(server):
    party, host_token = await sync_to_async(shorthand.party_create)(name="Doors")
    url = server.ws_url(party.code)
    # A page on another site cannot open the party's socket (the browser sends its Origin).
    for origin in ("http://evil.example", "http://127.0.0.1.evil.example", "null"):
        with pytest.raises(websockets.exceptions.InvalidStatus) as exc:
            async with websockets.connect(url, origin=origin, proxy=None, open_timeout=5):
                pass
        assert exc.value.response.status_code == 403, origin
    with pytest.raises(websockets.exceptions.InvalidStatus):  # no Origin at all
        async with websockets.connect(url, proxy=None, open_timeout=5):
            pass
    # The same-site page can; a frame over 4096 bytes (ASCII, or fewer characters of
    # multi-byte UTF-8) closes the socket. Daphne runs with --websocket-max-frame-size
    # 4096 (bench/stack.py DAPHNE_ARGS, as in production), so autobahn fails the connection
    # before the application sees the frame: 1009, or 1006 as it drops the TCP
    # connection. (Without that option the consumer's own check closes with 4009:
    # daphne lets an application close only with 1000 or 3000-4999; 1009 in-process,
    # see the next test.)
    for payload in ("a" * 4200, "日" * 1400, "😀" * 1100):
        frame = json.dumps({"type": "ping", "pad": payload}, ensure_ascii=False)
        assert len(frame.encode()) > 4096
        phone = LivePhone(server, party.code, "host", host_token)
        assert (await phone.open())["type"] == "snapshot"
        await phone.ws.send(frame)
        await asyncio.wait_for(phone.closed.wait(), 5)
        assert phone.close_code in (1006, 1009), (len(frame), len(frame.encode()), phone.close_code)
        assert not [m for m in phone.inbox if m.get("type") == "pong"], "the frame never reached the application"
        await phone.close()
    # just under the limit is fine
    phone = LivePhone(server, party.code, "host", host_token)
    await phone.open()
    frame = json.dumps({"type": "ping", "pad": "b" * 4000})
    assert len(frame.encode()) <= 4096
    await phone.ws.send(frame)
    await phone.ping()
    assert not phone.closed.is_set()
    await phone.close()


def test_the_join_rate_limit_answers_429(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "join": (5, 60)}
    party, _ = shorthand.party_create(name="Flood")
    client = Client(REMOTE_ADDR="198.51.100.23")  # the cache keys carry this run's prefix
    statuses = []
    for i in range(11):  # a burst within at most two 60-second windows: 11 > 2 x 5
        statuses.append(
            _post(client, f"/api/parties/{party.code}/guests", {"name": f"Bot {i}", "description": "spam"}).status_code
        )
        if statuses[-1] == 429:
            break
    # A sliding window (events/access/ratelimit.py): exactly five joins, the sixth refused.
    assert statuses == [201] * 5 + [429], statuses
    refused = _post(client, f"/api/parties/{party.code}/guests", {"name": "Late", "description": "x"})
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    assert Guest.objects.filter(party=party).count() == statuses.count(201)
    # another address is not affected
    other = _post(
        Client(REMOTE_ADDR="198.51.100.24"), f"/api/parties/{party.code}/guests", {"name": "Ok", "description": "x"}
    )
    assert other.status_code == 201


async def test_a_frame_over_4096_bytes_closes_with_1009():
    party, host_token = await sync_to_async(shorthand.party_create)(name="Big")
    for payload in ("a" * 4097, "é" * 2100, "日" * 1400, "😀" * 1100):
        comm = WebsocketCommunicator(
            application, f"/ws/party/{party.code}/", headers=[(b"origin", b"http://localhost")]
        )
        assert (await comm.connect())[0]
        await comm.send_to(text_data=json.dumps({"type": "hello", "role": "host", "token": host_token, "re": "h"}))
        assert json.loads(await comm.receive_from(timeout=5))["type"] == "snapshot"
        await comm.send_to(text_data=json.dumps({"type": "resync", "re": "r", "pad": payload}, ensure_ascii=False))
        msg = json.loads(await comm.receive_from(timeout=5))
        while msg.get("type") != "error":
            msg = json.loads(await comm.receive_from(timeout=5))
        assert msg["code"] == "too_large", msg
        out = await comm.receive_output(timeout=5)
        assert out == {"type": "websocket.close", "code": 1009}, out


# --- what guests type ---------------------------------------------------------------------


def test_markup_in_names_is_stored_verbatim_and_escaped_on_every_page():
    client = Client()
    created = _post(client, "/api/parties", {"name": SCRIPT, "budget": "<b>£20</b>"}).json()
    code = created["code"]
    joined = _post(
        client, f"/api/parties/{code}/guests", {"name": '"><img src=x onerror=alert(1)>', "description": SCRIPT}
    )
    assert joined.status_code == 201
    party = Party.objects.get(code=code)
    guest = Guest.objects.get(party=party)
    assert party.name == SCRIPT and guest.description == SCRIPT  # verbatim: escaping is the page's job
    assert guest.name == '"><img src=x onerror=alert(1)>'
    for path, status in (
        (f"/host/{code}/", 200),
        (f"/j/{code}/", 200),
        (f"/p/{code}/", 200),
        (f"/screen/{code}/", 200),
        ("/host/%3Cscript%3E/", 404),
        ("/j/<b>x</b>/", 404),
    ):
        page = client.get(path)
        html = page.content.decode()
        assert page.status_code == status, (path, page.status_code)
        assert "<script>alert" not in html, path
        assert "<img src=x" not in html, path
        assert "<b>£20</b>" not in html and "<b>x</b>" not in html, path
        if page.status_code == 200:
            assert "&lt;script&gt;alert(" in html, path  # shown, as text


def test_formulas_in_names_never_reach_a_spreadsheet_as_formulas():
    party, host_token = shorthand.party_create(name="CSV", vault_size=1)
    evil = ['=HYPERLINK("http://x")', "+SUM(A1)", "-2+3", "@cmd", "Plain"]
    seat_tokens = [shorthand.guest_join(code=party.code, name=n, description=f"{n} gift")[1] for n in evil]
    services.vault_gift_add(party_id=party.pk, contributor="=1+1", description="@vault")
    services.party_seat(party_id=party.pk)
    client = Client()
    url = f"/api/parties/{party.code}/result.csv"
    assert client.get(url).status_code == 403
    for wrong in (seat_tokens[0], host_token[:-1] + ("x" if host_token[-1] != "x" else "y"), party.code):
        assert client.get(url, HTTP_AUTHORIZATION=f"Bearer {wrong}").status_code == 403
    got = client.get(url, HTTP_AUTHORIZATION=f"Bearer {host_token}")
    assert got.status_code == 200
    rows = list(csv.reader(io.StringIO(got.content.decode("utf-8-sig"))))
    cells = [c for row in rows[1:] for c in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@")], cells
    names = {row[1] for row in rows[1:]}
    assert {'\'=HYPERLINK("http://x")', "'+SUM(A1)", "'-2+3", "'@cmd", "Plain"} <= names
    assert re.search(r"filename=\"yankee-heist-[A-Z0-9]{6}\.csv\"", got["Content-Disposition"])


async def test_a_handed_over_seat_is_closed_to_the_old_device_even_if_its_removal_is_lost():
    """The substitute's claim changes the seat's secret and broadcasts `removed` to the
    leaving device; if that broadcast is lost (Redis hiccup, see test_redis_restart),
    the old socket must still not act for the seat."""

    def make():
        party, _host_token, tokens = shorthand.party_seated(name="Hand over", guests=3, prefix="H")
        table = Table.objects.get(party=party)
        from games.yankee import Game

        active = Game.from_dict(table.state).active
        leaving = Guest.objects.get(table=table, seat=active)
        return party, tokens[leaving.pk], leaving.pk, table

    party, old_token, guest_id, table = await sync_to_async(make)()
    old = WebsocketCommunicator(application, f"/ws/party/{party.code}/", headers=[(b"origin", b"http://localhost")])
    await old.connect()
    await old.send_to(text_data=json.dumps({"type": "hello", "role": "guest", "token": old_token, "re": "h"}))
    assert json.loads(await old.receive_from(timeout=5))["type"] == "snapshot"

    def hand_over():
        code = services.seat_hand_over(party_id=party.pk, guest_id=guest_id, requested_by="host").data["claim"]
        _, new_token, _ = shorthand.seat_claim(code=party.code, claim=code, name="Substitute")
        return new_token  # the outcome's messages (the removal) are never sent: lost

    new_token = await sync_to_async(hand_over)()
    version = (await sync_to_async(Table.objects.get)(pk=table.pk)).version
    await old.send_to(
        text_data=json.dumps({"type": "act", "re": "x", "version": version, "action": {"type": "regroup", "cards": []}})
    )
    msgs = []
    while True:
        out = await old.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            break
        msgs.append(json.loads(out["text"]))
    assert out["code"] == 4401, out
    assert any(m.get("re") == "x" and m["type"] == "error" for m in msgs), msgs
    assert (await sync_to_async(Table.objects.get)(pk=table.pk)).version == version
    # the substitute has the seat, and plays it
    new = WebsocketCommunicator(application, f"/ws/party/{party.code}/", headers=[(b"origin", b"http://localhost")])
    await new.connect()
    await new.send_to(text_data=json.dumps({"type": "hello", "role": "guest", "token": new_token, "re": "h"}))
    snap = json.loads(await new.receive_from(timeout=5))
    assert snap["type"] == "snapshot" and snap["me"]["id"] == guest_id and snap["me"]["name"] == "Substitute"
    await new.send_to(
        text_data=json.dumps({"type": "act", "re": "y", "version": version, "action": {"type": "regroup", "cards": []}})
    )
    msg = json.loads(await new.receive_from(timeout=5))
    while msg.get("re") != "y":
        msg = json.loads(await new.receive_from(timeout=5))
    assert msg["type"] == "ok" and msg["version"] == version + 1, msg
    await new.disconnect()
