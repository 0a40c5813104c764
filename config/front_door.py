"""bin/serve's front door: daphne faces the venue's LAN with nothing in front of it.

Daphne has no request-header timeout: Twisted's HTTP channel only closes a connection
idle for 60 s, and every byte resets that clock, so 1,000 connections trickling a
partial request held 1,000 descriptors for as long as they liked (issue 29.4: daphne's
descriptors went 33 -> 1,033 and stayed). Production's nginx cuts such requests off
before daphne (and every connection daphne sees there comes from nginx): this is for
the embedded settings only (settings.FRONT_DOOR).

Two rules, in one place: every connection daphne accepts is wrapped in a `Door`.

1. **A request must arrive whole within `request_seconds`** of the connection opening,
   or of its last response: head and body (ours are at most 4 KB), else the
   connection is aborted. An idle keep-alive connection is closed after as long; a
   browser opens a new one when it needs it. A WebSocket, once its upgrade request has
   arrived, has autobahn's handshake timeout and the consumer's hello timeout instead.
2. **One address holds at most `per_address` open connections that have not proven a
   party secret.** A whole party comes from one venue NAT address, so a socket that
   said hello with a guest's, tablet's or host's secret stops counting
   (events/access/peers.py tells this module). When an address is at its cap, a new
   connection displaces that address's oldest one still waiting for a request, else its
   oldest WebSocket without a secret (a spectator, or a socket yet to say hello); only
   when every one is a request being served is the new one refused. So someone on the
   party's Wi-Fi holding connections open never locks a phone out: the phone's new
   connection displaces theirs, and once it proves its secret nothing displaces it.

It subclasses daphne's HTTPFactory and WebRequest, relies on daphne's ProtocolWrapper
hand-off in `WebRequest.process`, and has daphne's server build its factory: that patch,
and the pins of daphne and Twisted it was written for, are config/patches/daphne.py's
and config/patches/twisted.py's (tests/test_patches.py fails when either changes).
`install()` is called by config/asgi.py, in bin/serve's daphne only.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Protocol, cast

from daphne import http_protocol
from twisted.internet.protocol import connectionDone
from twisted.protocols.policies import ProtocolWrapper
from twisted.python import failure

from config import patches
from events.access import peers

WAITING = "waiting"  # for a whole request: the clock runs
SERVING = "serving"  # a request arrived and is being answered
SOCKET = "socket"  # upgraded to a WebSocket that has not proven a secret
VOUCHED = "vouched"  # proved a party secret: not counted, never displaced

ABORT_AFTER_SECONDS = 1.0  # from a close to a reset, for a peer that does not read


class DelayedCall(Protocol):
    """What `Clock.callLater` returns, as a Door uses it (Twisted's IDelayedCall)."""

    def active(self) -> bool: ...

    def cancel(self) -> None: ...


class Clock(Protocol):
    """The reactor's IReactorTime.callLater, as it is called. Twisted declares its
    interfaces' methods without `self` (zope.interface's style, which mypy reads right
    only with the mypy-zope plugin), so mypy takes `delay` for `self` and reads the
    reactor's `callLater(delay, f)` as `callLater(f)`: the reactor is cast to this."""

    def callLater(self, delay: float, callable: Callable[..., object], /, *args: object) -> DelayedCall: ...


_factories: list[FrontDoorFactory] = []  # daphne makes one per process
_listening = False  # to events/access/peers.py's vouches


class OpenConnections:
    """The connections of each address that count against its cap, oldest first.
    Pure bookkeeping (tested without sockets): a connection is any object with a
    `state` attribute."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self.counted: dict[Hashable, dict[Any, None]] = {}

    def admit(self, conn: Any, address: Hashable) -> tuple[bool, list[Any]]:
        """Count `conn` for `address`: (admitted?, the connections it displaces)."""
        conns = self.counted.setdefault(address, {})
        displaced = []
        if len(conns) >= self.per_address:
            victim = next((c for c in conns if c.state == WAITING), None)
            if victim is None:
                victim = next((c for c in conns if c.state == SOCKET), None)
            if victim is None:
                return False, []
            del conns[victim]
            displaced.append(victim)
        conns[conn] = None
        return True, displaced

    def release(self, conn: Any, address: Hashable) -> None:
        """`conn` closed, or proved a secret: it no longer counts."""
        conns = self.counted.get(address)
        if conns is not None:
            conns.pop(conn, None)
            if not conns:
                del self.counted[address]

    def count(self, address: Hashable) -> int:
        return len(self.counted.get(address, ()))


class Door(ProtocolWrapper):
    """One connection: daphne's HTTP channel inside (then, after an upgrade, its
    WebSocket protocol: daphne hands a ProtocolWrapper's `wrappedProtocol` over)."""

    factory: FrontDoorFactory

    def __init__(self, factory: FrontDoorFactory, wrapped: Any) -> None:
        # Twisted types the factory as a WrappingFactory; ProtocolWrapper calls only its
        # registerProtocol and unregisterProtocol, which FrontDoorFactory has (below).
        super().__init__(factory, wrapped)  # type: ignore[arg-type]
        self.state = WAITING
        self.in_flight = 0
        self.deadline: DelayedCall | None = None
        self.peer: tuple[str, int] | None = None
        self.closed = False

    def makeConnection(self, transport: Any) -> None:
        peer = transport.getPeer()
        self.peer = (str(getattr(peer, "host", "")), int(getattr(peer, "port", 0)))
        super().makeConnection(transport)  # type: ignore[no-untyped-call]
        admitted, displaced = self.factory.open.admit(self, self.peer[0])
        for other in displaced:
            other.shut()
        if not admitted:
            self.factory.open_doors.pop(self.peer, None)
            self.shut()
            return
        self._arm()

    # The clock: from opening, and from each response, to a whole request.
    def _arm(self) -> None:
        self._disarm()
        self.deadline = self.factory.clock().callLater(self.factory.request_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self.deadline is not None and self.deadline.active():
            self.deadline.cancel()
        self.deadline = None

    def _too_slow(self) -> None:
        self.deadline = None
        if self.state == WAITING:
            self.shut()

    def shut(self) -> None:
        """Close now (a FIN: a browser's idle keep-alive connection ends cleanly), and
        abort a second later if it has not gone: the peer may not be reading."""
        self._disarm()
        transport: Any = self.transport  # the TCP connection under this wrapper
        if transport is not None and not self.closed:
            transport.loseConnection()
            self.factory.clock().callLater(ABORT_AFTER_SECONDS, self._abort)

    def _abort(self) -> None:
        transport: Any = self.transport
        if transport is not None and not self.closed:
            transport.abortConnection()

    # Daphne's request (below) says where it is.
    def request_received(self, *, upgrade: bool) -> None:
        self._disarm()
        if upgrade:
            self.state = SOCKET  # autobahn's and the consumer's timeouts from here
        else:
            self.in_flight += 1
            self.state = SERVING

    def response_done(self) -> None:
        self.in_flight = max(0, self.in_flight - 1)
        if self.in_flight == 0 and self.state == SERVING and not self.closed:
            self.state = WAITING
            self._arm()

    def vouch(self) -> None:
        """A socket on this connection proved a party secret."""
        self._disarm()
        self.state = VOUCHED
        assert self.peer is not None
        self.factory.open.release(self, self.peer[0])

    def connectionLost(self, reason: failure.Failure = connectionDone) -> None:
        self.closed = True
        self._disarm()
        super().connectionLost(reason)  # type: ignore[no-untyped-call]


class FrontDoorRequest(http_protocol.WebRequest):
    """Daphne's request, telling its Door when it has arrived whole and when its
    response is done."""

    def _door(self) -> Door | None:
        channel = getattr(self, "channel", None)
        door = getattr(channel, "transport", None)
        return door if isinstance(door, Door) else None

    def process(self) -> Any:
        door = self._door()
        if door is not None:
            upgrade = (self.requestHeaders.getRawHeaders(b"upgrade") or [b""])[0].lower() == b"websocket"
            door.request_received(upgrade=upgrade)
        return super().process()

    def finish(self) -> Any:
        door = self._door()
        try:
            return super().finish()
        finally:
            if door is not None:
                door.response_done()


class FrontDoorFactory(http_protocol.HTTPFactory):
    """Daphne's HTTP factory, each connection behind a Door."""

    request_seconds: float = 10.0
    per_address: int = 256

    def __init__(self, server: Any) -> None:
        super().__init__(server)
        self.open = OpenConnections(self.per_address)
        self.open_doors: dict[tuple[str, int], Door] = {}
        _factories.append(self)

    # Twisted's HTTPFactory promises an HTTP channel; daphne's server only starts the
    # protocol it is given (a Door wraps the channel, as Twisted's WrappingFactory does).
    def buildProtocol(self, addr: Any) -> Door:  # type: ignore[override]
        channel = super().buildProtocol(addr)
        channel.requestFactory = FrontDoorRequest
        return Door(self, channel)

    def clock(self) -> Clock:
        return cast(Clock, self.reactor)  # see Clock

    # ProtocolWrapper's bookkeeping hooks (WrappingFactory's names).
    def registerProtocol(self, door: Door) -> None:
        assert door.peer is not None
        self.open_doors[door.peer] = door

    def unregisterProtocol(self, door: Door) -> None:
        if door.peer is not None:
            self.open.release(door, door.peer[0])
            if self.open_doors.get(door.peer) is door:
                del self.open_doors[door.peer]

    def vouch(self, host: str, port: int) -> None:
        door = self.open_doors.get((host, port))
        if door is not None:
            door.vouch()


def _vouch(host: str, port: int) -> None:
    for factory in _factories:
        factory.vouch(host, port)


def install(*, request_seconds: float, per_address: int) -> None:
    """Put every connection of this daphne process behind a Door (once)."""
    global _listening
    patches.apply(http_factory=FrontDoorFactory)  # refuses on a changed daphne or Twisted
    FrontDoorFactory.request_seconds = request_seconds
    FrontDoorFactory.per_address = per_address
    if not _listening:
        peers.listen(_vouch)
        _listening = True
