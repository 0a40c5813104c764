"""autobahn 26.11.1, patched: its debug-log arguments built only when a line is logged.

autobahn logs each frame it writes, and each connection it opens, at debug level, and
builds the arguments first, whether or not debug is on: `hltype(self.sendData)`,
`hlval(self.peer)`, `hlval(len(data))` colour their text with click (126,508 calls to
`click.style`, 7 % of daphne's event-loop thread in bench/live.py --profile-server, 10
tables of 10), and each new connection pretty-prints its 30-odd settings (`pformat`,
about 4 ms each under the profiler: a join burst of a thousand phones pays it a thousand
times). Here those names, as autobahn's two modules see them, make a small object
instead that formats to the very same text only if a log line is written.

The names are module globals any function of those modules may read, so the pin holds
the two modules' whole source, and the two functions made lazy.
"""

from __future__ import annotations

import pprint
from collections.abc import Callable
from typing import Any

from autobahn import util as autobahn_util
from autobahn.twisted import websocket as autobahn_twisted
from autobahn.websocket import protocol as autobahn_protocol

from config.patches.pins import Pin

PIN = Pin(
    library="autobahn",
    version="26.11.1",
    patch="config/patches/autobahn.py",
    sources={
        "autobahn.util:hltype": "7db6418e1bc5e63a",
        "autobahn.util:hlval": "c6a73ec8e6664a13",
        "autobahn.websocket.protocol": "3953efe83eb3225b",
        "autobahn.twisted.websocket": "be17f344b1ed478b",
    },
)


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


def problems() -> list[str]:
    return PIN.problems()


def apply() -> None:
    for module in (autobahn_protocol, autobahn_twisted):
        module.hltype = _lazily(autobahn_util.hltype)  # type: ignore[attr-defined]
        module.hlval = _lazily(autobahn_util.hlval)  # type: ignore[attr-defined]
    autobahn_protocol.pformat = _lazily(pprint.pformat)  # type: ignore[attr-defined,assignment]
