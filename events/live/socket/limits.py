"""A socket's limits: its frame budget, and its places in this process's counts of open
sockets (events/live/socket_limits.py) per seat, per address, on probation and per party pass."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from events.live import socket_limits
from events.live.socket_limits import TokenBucket


class FrameBudget:
    """The per-socket frame budget (FRAME_RATE): a frame over it is refused unread, and a
    socket that keeps sending regardless is closed."""

    def __init__(self) -> None:
        self.frames = TokenBucket(*settings.FRAME_RATE[:2])
        self.refused_in_a_row = 0

    def take(self) -> bool:
        if self.frames.take():
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        return False

    def exhausted(self) -> bool:
        """Refused too often in a row: the socket closes (4429)."""
        return bool(self.refused_in_a_row >= settings.FRAME_RATE[2])


class Slots:
    """Where this socket counts. A whole party shares the venue's address: the address
    limits (miss guard, connect rate, open sockets) apply only to sockets that show no
    sign of belonging to the party (events/access/gate.py). The party's pass, sent with the
    handshake, exempts a socket at once (its sockets without a secret are capped per
    party instead: a big screen or two); a socket without it that the address limits
    would refuse is still accepted "on probation", counted apart. A socket showing a
    secret's own pass skips all of these, counted per secret until its hello proves
    that secret (a spectator's hello on it is counted again as any spectator's). A
    proven secret takes the socket out of those counts; a guest's socket counts
    against its seat's cap."""

    def __init__(self) -> None:
        self.address = ""
        self.exempt = False
        self.address_counted = False
        self.probation = False
        self.pass_key = ""
        self.pass_counted = False
        self.seat_key: int | None = None  # counted in socket_limits.seats once a guest said hello
        self.code = ""
        self.pass_shown = False
        self.own: tuple[str, str] | None = None  # (code, key) counted in socket_limits.arriving

    def show_own(self, code: str, key: str | None) -> None:
        """The handshake's own pass: the socket of that secret's device is let in,
        outside every address count, while that secret has fewer than a seat's cap of
        sockets arriving."""
        self.code = code.upper()
        if key is not None and socket_limits.arriving.add((self.code, key), settings.SOCKET_LIMITS["per_seat"]):
            self.own = (self.code, key)
            self.exempt = True

    def as_spectator(self) -> bool:
        """A socket that came in on an own pass but said hello as a spectator (the big
        screen in the host's browser): counted as any spectator is; False when there
        is no room for it."""
        self._drop_own()
        self.show_pass(self.code, self.pass_shown)  # exempt again only on the pass
        return self.count_address(True) and not self.probation

    def _drop_own(self) -> None:
        if self.own is not None:
            socket_limits.arriving.remove(self.own)
            self.own = None

    def show_pass(self, code: str, holds_pass: bool) -> None:
        """The handshake's party pass: exempt from the address limits while the party's
        cap has room."""
        self.code, self.pass_shown = code.upper(), holds_pass
        if self.own is not None:
            return  # exempt already, on its own pass
        self.exempt = holds_pass
        if self.exempt:
            self.pass_key = code.upper()
            if socket_limits.passes.add(self.pass_key, _per_address()):
                self.pass_counted = True
            else:
                self.exempt = False

    def count_address(self, allowed: bool) -> bool:
        """A socket without the pass: counted against its address, or on probation.
        False: refused outright (before accept)."""
        if self.exempt:
            return True
        if allowed and socket_limits.addresses.add(self.address, _per_address()):
            self.address_counted = True
        elif socket_limits.probation.add(self.address, _per_address()):
            self.probation = True
        else:
            return False
        return True

    def proven(self) -> None:
        """A secret proved: this socket no longer counts against its address."""
        self._drop_own()
        if self.address_counted:
            socket_limits.addresses.remove(self.address)
            self.address_counted = False
        if self.probation:
            socket_limits.probation.remove(self.address)
            self.probation = False
        if self.pass_counted:
            socket_limits.passes.remove(self.pass_key)
            self.pass_counted = False

    def open_seat(self, guest_id: int, socket: Any) -> list[Any]:
        """Count `socket` for its seat; the oldest sockets it pushes over the cap."""
        return socket_limits.seats.add(guest_id, socket, settings.SOCKET_LIMITS["per_seat"])

    def release(self, socket: Any) -> None:
        """Give back every place this socket holds (once)."""
        self.proven()
        if self.seat_key is not None:
            socket_limits.seats.remove(self.seat_key, socket)
            self.seat_key = None


def _per_address() -> int:
    return int(settings.SOCKET_LIMITS["per_address"])
