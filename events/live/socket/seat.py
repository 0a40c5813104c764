"""The proof that a socket's secret still opens its seat or tablet. A guest's seat can
be handed to a substitute (a new secret) while its socket is open, and the host may
unpair a tablet; the `removed` broadcast that closes the socket can be lost (Redis
down), so before acting, resyncing or passing on a seat's private view the socket
checks again (for broadcasts, at most every REVALIDATE_SECONDS)."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext

from events.live.socket.db import in_db_thread
from events.live.socket.selectors import seat_row, tablet_held
from events.party.roles import Actor, Role

REVALIDATE_SECONDS = 10  # how stale a socket's proof of its seat may be for broadcasts


@dataclass(frozen=True)
class Verdict:
    """`held`: the socket may go on. `row`: the guest's row just read (its rights now).
    `lost`: the seat or tablet was lost just now, (error, notice) to tell the screen."""

    held: bool
    row: dict[str, Any] | None = None
    lost: tuple[str, str] | None = None


HELD = Verdict(True)


class SeatCheck:
    def __init__(self) -> None:
        self.secret: str | None = None  # a guest's or tablet's token digest, to notice a hand-over
        self.checked = 0.0  # when the secret was last proven
        self.revoked = False

    def proven(self, secret: str | None = None) -> None:
        """Just proven (a hello, or an act whose statement checks the seat)."""
        if secret is not None:
            self.secret = secret
        self.checked = time.monotonic()

    def due(self, actor: Actor | None) -> bool:
        """Must the next table update wait for a check?"""
        if self.revoked:
            return True
        if actor is None or actor.role not in (Role.GUEST, Role.TABLET):
            return False
        return time.monotonic() - self.checked >= REVALIDATE_SECONDS

    async def verdict(self, actor: Actor | None, *, cached: bool) -> Verdict:
        """Check the secret against the database (`cached`: only when the last proof is
        older than REVALIDATE_SECONDS)."""
        if self.revoked:
            return Verdict(False)
        if actor is None or actor.role not in (Role.GUEST, Role.TABLET):
            return HELD
        now = time.monotonic()
        if cached and now - self.checked < REVALIDATE_SECONDS:
            return HELD
        self.checked = now
        if actor.role is Role.TABLET:
            assert actor.tablet_id is not None  # a tablet's actor names its tablet
            if await in_db_thread(tablet_held)(actor.tablet_id, self.secret):
                return HELD
            return Verdict(
                False, lost=(gettext("the host unpaired this tablet"), gettext("The host unpaired this tablet."))
            )
        assert actor.guest_id is not None  # a guest's actor names its guest
        row = await in_db_thread(seat_row)(actor.guest_id)
        if row is None:
            return HELD
        if row["token_hash"] == self.secret and row["removed_at"] is None:
            return Verdict(True, row=row)
        return Verdict(
            False,
            lost=(
                gettext("this device no longer holds the seat"),
                gettext("Your seat was handed over to a substitute."),
            ),
        )


def rights_now(actor: Actor, row: dict[str, Any]) -> Actor:
    """A guest's actor as its row just read says: rights come from the database, never
    from the hello (a captain demoted or promoted while its `resubscribe` broadcast was
    lost acts with the role the database gives it now)."""
    return replace(actor, table_id=row["table_id"], seat=row["seat"], captain=row["is_captain"])
