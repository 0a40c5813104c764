"""daphne 4.2.3, patched (bin/serve only): the HTTP factory its server builds, replaced.

config/front_door.py puts every connection daphne accepts behind a `Door`, by giving
daphne's `Server` its own subclass of `HTTPFactory` (whose `buildProtocol` sets its own
`WebRequest` subclass). daphne offers no setting for either: `Server.run` builds
`HTTPFactory(self)` by the name it imported into daphne.server, and that name is what
is replaced here. The subclasses rely on `HTTPFactory.buildProtocol` setting
`requestFactory`, and on `WebRequest.process` handing a ProtocolWrapper's
`wrappedProtocol` over on a WebSocket upgrade; `finish` is overridden around daphne's.
"""

from __future__ import annotations

from typing import Any

from daphne import http_protocol
from daphne import server as daphne_server

from config.patches.pins import Pin

PIN = Pin(
    library="daphne",
    version="4.2.3",
    patch="config/patches/daphne.py",
    sources={
        "daphne.server:Server.run": "447c6bd42c62e98c",
        "daphne.http_protocol:HTTPFactory.__init__": "5a2ab14fe1e58653",
        "daphne.http_protocol:HTTPFactory.buildProtocol": "35e878a6e0e41af2",
        "daphne.http_protocol:WebRequest.process": "e9babd1c97ce710b",
        "daphne.http_protocol:WebRequest.finish": "7e03ef03e35b5b66",
    },
)


def problems(http_factory: type | None = None) -> list[str]:
    found = PIN.problems()
    current = daphne_server.HTTPFactory
    if current is not http_protocol.HTTPFactory and not (http_factory and issubclass(current, http_factory)):
        found.append("config/patches/daphne.py: daphne.server.HTTPFactory is not daphne's own")
    return found


def apply(http_factory: type[Any]) -> None:
    """Have daphne's server build `http_factory` (a subclass of daphne's HTTPFactory)."""
    daphne_server.HTTPFactory = http_factory
