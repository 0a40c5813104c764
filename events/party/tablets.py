"""Captains' tablets: the host pairs a tablet to a table, the tablet trades the one-time
code for its own secret, the host may revoke it. Keyword-only `tablet_<verb>` services,
one transaction each, returning the messages to send after commit (events/broadcast/groups.py).

A tablet sees its table's public view only (never a hand: it joins no seat group) and
does the captain's duties at that table (events/party/roles.py)."""

from __future__ import annotations

import base64
import io
from datetime import timedelta

import qrcode
import qrcode.image.svg
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from events.broadcast.groups import tablet_group
from events.models import Tablet
from events.party.lobby import lobby_messages, locked_party, locked_party_by_code, party_bump
from events.party.public_url import base_url_for_origin
from events.party.secrets import CODE_ALPHABET, new_claim_code, new_token, normalize_code, token_hash
from tables.errors import ErrorCode, ServiceError
from tables.models import Table
from tables.outcome import Outcome
from tables.words import said

PAIRING_MINUTES = 10


def qr_data_uri(text: str) -> str:
    """An SVG QR code of `text` as a data: URI (an <img> shows it; no markup is parsed
    into the page)."""
    img = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    buf = io.BytesIO()
    img.save(buf)
    return "data:image/svg+xml;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def tablet_pair_start(*, party_id: int, table_id: int, origin: str = "") -> Outcome:
    """A one-time pairing code for a table (shown only to the host who asked), and the
    QR code of the tablet page with the code in its fragment: a fragment never reaches
    a server or a referrer, and the page drops it as soon as it has read it."""
    with transaction.atomic():
        party = locked_party(party_id)
        table = Table.objects.filter(pk=table_id, party=party).first()
        if table is None:
            raise ServiceError(ErrorCode.NO_TABLE, gettext("no such table at this party"))
        code = new_claim_code()
        tablet = Tablet.objects.create(
            party=party,
            table=table,
            pairing_hash=token_hash(code),
            pairing_expires=timezone.now() + timedelta(minutes=PAIRING_MINUTES),
        )
        path = f"/t/{party.code}/"
        # The address a tablet can open, not the host laptop's localhost (public_url.py).
        base = base_url_for_origin(origin)
        url = f"{base}{path}#{code}"
        return Outcome(
            data={
                "tablet": tablet.pk,
                "table": table.pk,
                "letter": table.letter,
                "pairing": code,
                "minutes": PAIRING_MINUTES,
                "path": path,
                "url": f"{base}{path}",
                "qr": qr_data_uri(url),
            }
        )


def tablet_pair(*, code: object, pairing: object) -> Outcome:
    """The tablet trades the one-time code for its own secret (returned once). Both
    come from the request's JSON as they are: anything, checked here."""
    code = normalize_code(code) if isinstance(code, str) else None
    if code is None:
        raise ServiceError(ErrorCode.BAD_CODE, gettext("that is not a join code"))
    if not isinstance(pairing, str) or not 4 <= len(pairing.strip()) <= 16:
        raise ServiceError(ErrorCode.BAD_PAIRING, gettext("that pairing code is not valid"))
    pairing = pairing.strip().upper().replace(" ", "").replace("-", "")
    if any(c not in CODE_ALPHABET for c in pairing):
        raise ServiceError(ErrorCode.BAD_PAIRING, gettext("that pairing code is not valid"))
    with transaction.atomic():
        party = locked_party_by_code(code)
        tablet = (
            Tablet.objects.select_for_update()
            .select_related("table")
            .filter(
                party=party,
                pairing_hash=token_hash(pairing),
                pairing_expires__gt=timezone.now(),
                revoked_at__isnull=True,
            )
            .first()
        )
        if tablet is None:
            raise ServiceError(
                ErrorCode.BAD_PAIRING, gettext("that pairing code is not valid (or was used, or has expired)")
            )
        token = new_token()
        tablet.token_hash = token_hash(token)
        tablet.pairing_hash, tablet.pairing_expires = "", None  # one time only
        tablet.paired_at = timezone.now()
        tablet.save(update_fields=["token_hash", "pairing_hash", "pairing_expires", "paired_at"])
        party_bump(party)
        data = {"tablet": tablet.pk, "token": token, "table": tablet.table_id, "letter": tablet.table.letter}
        return Outcome(data, lobby_messages(party))


def tablet_revoke(*, party_id: int, tablet_id: int) -> Outcome:
    """The host unpairs a tablet: its secret opens nothing any more and its socket is
    closed (and, should that broadcast be lost, refused at its next request)."""
    with transaction.atomic():
        party = locked_party(party_id)
        tablet = Tablet.objects.filter(pk=tablet_id, party=party, revoked_at__isnull=True).first()
        if tablet is None:
            raise ServiceError(ErrorCode.INVALID, gettext("no such tablet"))
        tablet.revoked_at = timezone.now()
        tablet.pairing_hash, tablet.pairing_expires = "", None
        tablet.save(update_fields=["revoked_at", "pairing_hash", "pairing_expires"])
        party_bump(party)
        msgs = lobby_messages(party)
        msgs.append(
            (tablet_group(tablet.pk), {"type": "removed", **said(gettext_noop("The host unpaired this tablet."))})
        )
        return Outcome(messages=msgs)
