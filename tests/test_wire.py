"""config/patches/twisted.py and autobahn.py: what daphne's WebSocket stack no longer
does for every frame (build debug-log arguments nobody reads, wait a loop turn to
write), and that what it sends is still exactly what was written, in order."""

from __future__ import annotations

import pprint
import socket
import subprocess
import sys

import click
from autobahn import util as autobahn_util
from autobahn.twisted import websocket as autobahn_twisted
from autobahn.websocket import protocol as autobahn_protocol
from twisted.internet import tcp

from config import patches


class Reactor:
    """What a FileDescriptor asks of its reactor, recorded."""

    def __init__(self):
        self.writers = set()
        self.added = 0

    def addWriter(self, fd):
        if fd not in self.writers:  # as the real reactors: once while registered
            self.added += 1
        self.writers.add(fd)

    def removeWriter(self, fd):
        self.writers.discard(fd)

    def addReader(self, fd):
        pass

    def removeReader(self, fd):
        pass


def _connection():
    ours, theirs = socket.socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    theirs.setblocking(False)
    reactor = Reactor()
    conn = tcp.Connection(ours, None, reactor)
    conn.connected = 1
    return conn, theirs, reactor


def _read_all(peer) -> bytes:
    out = b""
    while True:
        try:
            chunk = peer.recv(1 << 20)
        except BlockingIOError:
            return out
        if not chunk:
            return out
        out += chunk


def test_daphnes_process_installs_it():
    """What daphne loads (config.asgi) installs both, in its own process (the module
    also freezes the collector and sets the switch interval: not in this one)."""
    code = (
        "import os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings.test';"
        "import config.asgi, config.patches.twisted; from twisted.internet import tcp;"
        "from autobahn.websocket import protocol; from autobahn import util;"
        "print(tcp.Connection.write is config.patches.twisted.write, protocol.hltype is not util.hltype)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.split() == ["True", "True"], out


def test_a_write_with_nothing_waiting_reaches_the_socket_at_once():
    patches.apply()
    conn, peer, reactor = _connection()
    conn.write(b"frame one")
    conn.write(b"frame two")
    assert _read_all(peer) == b"frame oneframe two"
    assert reactor.added == 0, "no loop turn, no epoll registration"


def test_what_the_socket_does_not_take_is_buffered_and_bytes_keep_their_order():
    patches.apply()
    conn, peer, reactor = _connection()
    big = bytes(range(256)) * 4096  # 1 MiB: far more than the socket takes at once
    conn.write(b"head:")
    conn.write(big)
    conn.write(b":tail")  # behind the buffer, never before it
    assert reactor.added == 1 and conn in reactor.writers
    got = b""
    for _ in range(10_000):
        got += _read_all(peer)
        if conn not in reactor.writers:
            break
        assert conn.doWrite() is None
    got += _read_all(peer)
    assert got == b"head:" + big + b":tail"
    conn.write(b"after")  # drained: straight to the socket again
    assert _read_all(peer) == b"after" and reactor.added == 1


def test_a_write_to_a_dead_socket_is_left_to_twisted_to_report():
    patches.apply()
    conn, peer, reactor = _connection()
    peer.close()
    conn.write(b"x" * 10)
    conn.write(b"y" * 10)
    # The error comes back from doWrite, as Twisted has always reported it.
    for _ in range(5):
        if conn not in reactor.writers:
            break
        result = conn.doWrite()
        if result is not None:
            assert isinstance(result, Exception)
            break
    else:
        raise AssertionError("the lost connection was never reported")


def test_autobahn_debug_arguments_are_made_only_when_a_line_is_logged(monkeypatch):
    patches.apply()
    calls = []
    real_style = click.style
    monkeypatch.setattr(click, "style", lambda *a, **k: calls.append(a) or real_style(*a, **k))
    settings = [("openHandshakeTimeout", 5, "factory"), ("autoPingInterval", 0, "factory")]
    lazy = [
        autobahn_protocol.hltype(test_autobahn_debug_arguments_are_made_only_when_a_line_is_logged),
        autobahn_protocol.hlval(1234),
        autobahn_twisted.hlval("127.0.0.1:5"),
        autobahn_protocol.pformat(settings),
    ]
    assert calls == [], "nothing coloured, nothing pretty-printed, until formatted"
    assert str(lazy[1]) == autobahn_util.hlval(1234)
    assert f"{lazy[2]}" == autobahn_util.hlval("127.0.0.1:5")
    assert str(lazy[0]) == autobahn_util.hltype(test_autobahn_debug_arguments_are_made_only_when_a_line_is_logged)
    assert f"{lazy[3]}" == pprint.pformat(settings)
    assert calls, "a logged line still gets its colours"
