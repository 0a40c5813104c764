"""What a game's action produced, with who may see what of it: the one event shape every
game emits and the host filters per viewer (tables/broadcast.py, the story)."""

from __future__ import annotations

from typing import Any, NamedTuple


class Event(NamedTuple):
    """One thing that happened, with who may see what of it.

    `to` is None for everybody, else the only seats that may see the event at all.
    `secret` holds extra fields that only the seats in `owners` see (the cards a player
    drew: everybody sees that Bea drew 2, only Bea sees which). `view` applies both.

    A NamedTuple, not a frozen dataclass: a game emits hundreds of these and a frozen
    dataclass's __init__ costs several times more.
    """

    type: str
    data: dict[str, Any]
    to: tuple[int, ...] | None = None
    version: int = 0
    secret: dict[str, Any] | None = None
    owners: tuple[int, ...] = ()

    def visible_to(self, seat: int | None) -> bool:
        """Whether `seat` (None: a public screen) may see this event at all."""
        return self.to is None or (seat is not None and seat in self.to)

    def view(self, seat: int | None) -> dict[str, Any] | None:
        """The event as `seat` (None: a public screen) may see it, or None."""
        if not self.visible_to(seat):
            return None
        out = {"type": self.type, "version": self.version, **self.data}
        if self.secret is not None and seat is not None and seat in self.owners:
            out.update(self.secret)
        return out
