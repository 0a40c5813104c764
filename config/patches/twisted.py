"""Twisted 26.10.0, patched: a frame written to its socket at once when nothing waits.

Measured with cProfile on daphne's event-loop thread (bench/live.py --profile-server,
10 tables of 10, 1,929 actions, 26,660 frames out): the frames' path from
`Server.handle_reply` to the socket was a quarter of the thread's time (the other half
of it: config/patches/autobahn.py).

Twisted's `FileDescriptor.write` only buffers: it registers the socket for writing with
epoll, the loop wakes for it, `doWrite` sends, and the socket is unregistered again (two
`epoll_ctl` calls and a loop turn per frame; 10 % of the thread). asyncio's own
transports try the socket at once and buffer only what it did not take; `write` below
does the same for plain TCP connections: when nothing is already waiting to be written,
it sends directly, and hands Twisted only the rest (or everything, after an error, which
Twisted's `doWrite` then reports as it always has). Bytes keep their order: a direct
send is only tried behind an empty buffer.

The pin also covers what config/front_door.py's `Door` relies on inside Twisted:
`ProtocolWrapper` calls its factory's `registerProtocol` / `unregisterProtocol` from
`makeConnection` / `connectionLost`.
"""

from __future__ import annotations

from twisted.internet import _newtls, tcp

from config.patches.pins import Pin

PIN = Pin(
    library="Twisted",
    version="26.10.0",
    patch="config/patches/twisted.py",
    sources={
        # replaced (tcp.Connection inherits it), and the buffering it hands the rest to
        "twisted.internet._newtls:ConnectionMixin.write": "ea311df0946d3f99",
        "twisted.internet.abstract:FileDescriptor.write": "3e46c97fc173bc7e",
        "twisted.internet.abstract:FileDescriptor.doWrite": "a986d7b1b1054e43",
        "twisted.internet.tcp:Connection.writeSomeData": "2dd0d4209260b94e",
        # config/front_door.py's Door
        "twisted.protocols.policies:ProtocolWrapper.makeConnection": "1954239c5d3014a3",
        "twisted.protocols.policies:ProtocolWrapper.connectionLost": "ee245409b3e7d0b5",
    },
)

_twisted_write = _newtls.ConnectionMixin.write  # TLS, or FileDescriptor.write


def write(self: tcp.Connection, data: bytes) -> None:
    """Twisted's write, trying the socket first when nothing waits before it. Not with
    a pull producer registered: it is asked for more only when the buffer drains,
    which a direct send would never make happen. (A streaming one, as Twisted's HTTP
    channel under every WebSocket, is paused only when the buffer fills, and nothing
    fills it here.)"""
    if (
        type(data) is bytes
        and data
        and not self.TLS
        and self.connected
        and not self._writeDisconnected
        and not self.disconnecting
        and (self.producer is None or self.streamingProducer)
        and not self.dataBuffer
        and not self._tempDataBuffer
    ):
        sent = self.writeSomeData(data)  # an int, or the error doWrite then reports
        if isinstance(sent, int):
            if sent == len(data):
                return
            data = data[sent:]
    _twisted_write(self, data)  # type: ignore[no-untyped-call]


def problems() -> list[str]:
    found = PIN.problems()
    if tcp.Connection.write not in (_twisted_write, write):
        found.append("config/patches/twisted.py: tcp.Connection.write is no longer _newtls.ConnectionMixin.write")
    return found


def apply() -> None:
    # The plain-TCP branch of _newtls.ConnectionMixin.write, which tcp.Connection uses.
    tcp.Connection.write = write  # type: ignore[method-assign,assignment]
