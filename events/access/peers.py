"""Which connections proved a party secret, for whoever counts connections per
address below the application: bin/serve's front door (config/front_door.py) stops
counting a connection against its address once its socket says hello with a guest's,
a tablet's or the host's secret (a whole party shares one venue NAT address). Nothing
listens elsewhere, and then this does nothing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

_listeners: list[Callable[[str, int], None]] = []


def listen(listener: Callable[[str, int], None]) -> None:
    _listeners.append(listener)


def secret_proven(client: Sequence[Any] | None) -> None:
    """The socket from `client` (the ASGI scope's [host, port]) proved a secret."""
    if not client or len(client) < 2 or client[1] is None:
        return
    for listener in _listeners:
        listener(str(client[0]), int(client[1]))
