"""bin/serve's front door (config/front_door.py): a request arrives whole within a few
seconds or its connection is closed, and one address holds a bounded number of open
connections without a party secret, while sockets with a secret never count.

The live tests start bin/serve as a user would (bench/binserve.py) with a short
deadline and a small cap, and talk to it from loopback addresses only (127.0.0.x)."""

import asyncio
import json
import re
import socket
import time
import urllib.request

import pytest
import websockets

from bench.binserve import BinServe
from config.front_door import SERVING, SOCKET, WAITING, OpenConnections

SECONDS = 1.5
CAP = 8


# --- the count, without sockets ------------------------------------------------------------


class Conn:
    def __init__(self, name, state=WAITING):
        self.name, self.state = name, state

    def __repr__(self):
        return self.name


def test_under_the_cap_every_connection_is_admitted():
    open_ = OpenConnections(3)
    assert [open_.admit(Conn(str(i)), "10.0.0.9") for i in range(3)] == [(True, [])] * 3
    assert open_.count("10.0.0.9") == 3 and open_.count("10.0.0.8") == 0


def test_at_the_cap_the_oldest_waiting_connection_makes_room():
    open_ = OpenConnections(3)
    a, b, c = Conn("a", SERVING), Conn("b", SOCKET), Conn("c", WAITING)
    for conn in (a, b, c):
        open_.admit(conn, "nat")
    d = Conn("d")
    assert open_.admit(d, "nat") == (True, [c])  # waiting before a socket
    d.state = SERVING
    e = Conn("e")
    assert open_.admit(e, "nat") == (True, [b])  # then a socket without a secret
    e.state = SERVING
    assert open_.admit(Conn("f"), "nat") == (False, [])  # never a request being answered
    assert open_.count("nat") == 3
    assert open_.admit(Conn("g"), "other") == (True, [])  # per address


def test_a_connection_that_proved_a_secret_no_longer_counts():
    open_ = OpenConnections(2)
    guest, spectator = Conn("guest", SOCKET), Conn("spectator", SOCKET)
    open_.admit(guest, "nat")
    open_.admit(spectator, "nat")
    open_.release(guest, "nat")  # its hello carried a seat's secret
    assert open_.count("nat") == 1
    assert open_.admit(Conn("x", SERVING), "nat") == (True, [])
    assert open_.admit(Conn("y"), "nat") == (True, [spectator])  # the guest is not even a candidate


# --- bin/serve itself -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def box():
    with BinServe(env={"HEIST_REQUEST_SECONDS": str(SECONDS), "HEIST_OPEN_PER_ADDRESS": str(CAP)}) as serve:
        yield serve


def connect_from(box, source):
    sock = socket.create_connection(("127.0.0.1", box.port), timeout=5, source_address=(source, 0))
    return sock


def closed_after(sock, *, trickle=b"", limit=15.0):
    """Seconds until the server closed `sock` (sending `trickle` every 0.2 s meanwhile)."""
    start = time.monotonic()
    sock.settimeout(0.2)
    while time.monotonic() - start < limit:
        try:
            if not sock.recv(65536):
                return time.monotonic() - start
        except TimeoutError:
            if trickle:
                sock.sendall(trickle)
        except ConnectionResetError:
            return time.monotonic() - start
    raise AssertionError(f"still open after {limit} s")


def is_open(sock):
    sock.setblocking(False)
    try:
        return sock.recv(1) != b""
    except BlockingIOError:
        return True
    except ConnectionResetError:
        return False
    finally:
        sock.setblocking(True)


def test_a_trickled_request_is_closed_at_its_deadline_and_whole_ones_are_answered(box):
    trickler = connect_from(box, "127.0.0.3")
    trickler.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
    waited = closed_after(trickler, trickle=b"a")  # a byte every 0.2 s: Twisted's idle clock never runs out
    assert SECONDS - 0.1 < waited < SECONDS + 1.5
    assert json.loads(box.get("/healthz")) == {"ok": True}


def test_an_idle_keep_alive_connection_ends_cleanly_at_the_deadline(box):
    sock = connect_from(box, "127.0.0.3")
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
    assert sock.recv(65536).startswith(b"HTTP/1.1 200")
    start = time.monotonic()
    sock.settimeout(SECONDS + 5)
    assert sock.recv(1) == b""  # a FIN, not a reset: nothing of the response is lost
    assert SECONDS - 0.1 < time.monotonic() - start < SECONDS + 1.5


def test_one_address_holds_at_most_the_cap_of_connections_without_a_secret(box):
    socks = [connect_from(box, "127.0.0.4") for _ in range(CAP + 4)]
    for sock in socks[:4]:
        assert closed_after(sock, limit=5) < 2  # displaced, oldest first
    assert all(is_open(sock) for sock in socks[4:])
    other = connect_from(box, "127.0.0.5")  # another address is not touched
    assert is_open(other)
    for sock in [*socks, other]:
        sock.close()


def _post(box, path, body):
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    request = urllib.request.Request(
        box.url("localhost", path), data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with opener.open(request, timeout=10) as response:
        return json.loads(response.read())


async def _socket(box, code, source, role, token=None):
    ws = await websockets.connect(
        f"ws://127.0.0.1:{box.port}/ws/party/{code}/",
        origin=f"http://localhost:{box.port}",
        proxy=None,
        open_timeout=5,
        local_addr=(source, 0),
    )
    hello = {"type": "hello", "role": role, **({"token": token} if token else {})}
    await ws.send(json.dumps(hello))
    while True:  # the snapshot (and lobby messages) after a good hello
        message = json.loads(await asyncio.wait_for(ws.recv(), 5))
        assert message.get("type") != "error", message
        if message.get("type") in ("snapshot", "lobby", "party"):
            return ws


async def _answers(ws):
    await ws.send(json.dumps({"type": "ping"}))
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if message.get("type") == "pong":
            return True


async def test_a_socket_with_a_secret_gets_in_past_a_full_cap_and_is_never_displaced(box):
    code = _post(box, "/api/parties", {"name": "Venue"})["code"]
    token = _post(box, f"/api/parties/{code}/guests", {"name": "Bea", "description": "a mug"})["token"]
    venue = "127.0.0.6"  # the whole party behind one NAT address
    spectators = [await _socket(box, code, venue, "spectator") for _ in range(CAP)]  # the cap, full
    guest = await _socket(box, code, venue, "guest", token)  # displaces the oldest spectator
    assert await _answers(guest)
    await asyncio.wait_for(spectators[0].wait_closed(), 5)
    # Someone on the party's Wi-Fi opens connection after connection: the guest stays.
    flood = [connect_from(box, venue) for _ in range(CAP * 3)]
    assert await _answers(guest)
    # ... and holds no more than the cap beside the seven spectators (the flood's own
    # waiting connections made room for each other, oldest first).
    deadline = time.monotonic() + 3
    while sum(map(is_open, flood)) > 1 and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert [is_open(sock) for sock in flood] == [False] * (len(flood) - 1) + [True]
    for sock in flood:
        sock.close()
    for ws in [*spectators, guest]:
        await ws.close()


def test_bin_serve_prints_no_front_door_error(box):
    assert not re.search(r"Traceback|PatchRefused", box.terminal())
