"""Two costs daphne's WebSocket stack paid on every frame, for nothing we use.

Measured with cProfile on daphne's event-loop thread (bench/live.py --profile-server,
10 tables of 10, 1,929 actions, 26,660 frames out): the frames' path from
`Server.handle_reply` to the socket was a quarter of the thread's time, and two things
in it did no work that reached a screen.

1. **Debug-log arguments built eagerly.** autobahn logs each frame it writes, and each
   connection it opens, at debug level, and builds the arguments first, whether or not
   debug is on: `hltype(self.sendData)`, `hlval(self.peer)`, `hlval(len(data))` colour
   their text with click (126,508 calls to `click.style`, 7 % of the thread), and each
   new connection pretty-prints its 30-odd settings (`pformat`, about 4 ms each under
   the profiler: a join burst of a thousand phones pays it a thousand times). Here
   those names, as autobahn's two modules see them, make a small object instead that
   formats to the very same text only if a log line is written.

2. **A frame waited for the next turn of the loop to be written.** Twisted's
   `FileDescriptor.write` only buffers: it registers the socket for writing with epoll,
   the loop wakes for it, `doWrite` sends, and the socket is unregistered again (two
   `epoll_ctl` calls and a loop turn per frame; 10 % of the thread). asyncio's own
   transports try the socket at once and buffer only what it did not take; `write`
   below does the same for plain TCP connections: when nothing is already waiting to
   be written, it sends directly, and hands Twisted only the rest (or everything,
   after an error, which Twisted's `doWrite` then reports as it always has). Bytes
   keep their order: a direct send is only tried behind an empty buffer.

`install()` is called once, by config/asgi.py, in the daphne process.
"""

from __future__ import annotations

import pprint
from collections.abc import Callable
from typing import Any

from autobahn import util as autobahn_util
from autobahn.twisted import websocket as autobahn_twisted
from autobahn.websocket import protocol as autobahn_protocol
from twisted.internet import tcp


class _Lazy:
    """`fn(*args)` as text, computed only when a log line formats it."""

    __slots__ = ("args", "fn")

    def __init__(self, fn: Callable[..., Any], *args: Any) -> None:
        self.fn, self.args = fn, args

    def __str__(self) -> str:
        return str(self.fn(*self.args))

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _lazily(fn: Callable[..., Any]) -> Callable[..., _Lazy]:
    def later(*args: Any) -> _Lazy:
        return _Lazy(fn, *args)

    later.__name__ = f"lazy_{fn.__name__}"
    return later


_twisted_write = tcp.Connection.write  # _newtls.ConnectionMixin.write: TLS, or FileDescriptor.write


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


_installed = False


def install() -> None:
    """Both changes, once per process."""
    global _installed
    if _installed:
        return
    for module in (autobahn_protocol, autobahn_twisted):
        module.hltype = _lazily(autobahn_util.hltype)  # type: ignore[attr-defined]
        module.hlval = _lazily(autobahn_util.hlval)  # type: ignore[attr-defined]
    autobahn_protocol.pformat = _lazily(pprint.pformat)  # type: ignore[attr-defined,assignment]
    # The plain-TCP branch of _newtls.ConnectionMixin.write, which tcp.Connection uses.
    tcp.Connection.write = write  # type: ignore[method-assign,assignment]
    _installed = True
