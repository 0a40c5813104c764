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
    would refuse is still accepted "on probation", counted apart. A proven secret takes
    the socket out of those counts; a guest's socket counts against its seat's cap."""

    def __init__(self) -> None:
        self.address = ""
        self.exempt = False
        self.address_counted = False
        self.probation = False
        self.pass_key = ""
        self.pass_counted = False
        self.seat_key: int | None = None  # counted in socket_limits.seats once a guest said hello

    def show_pass(self, code: str, holds_pass: bool) -> None:
        """The handshake's party pass: exempt from the address limits while the party's
        cap has room."""
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
