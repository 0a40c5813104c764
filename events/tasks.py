"""Background jobs (Celery; config/celery.py autodiscovers this module).

`sweep_clocks` runs every few seconds from beat: the step clocks' server pass.
`expire_parties` runs hourly from beat (CELERY_BEAT_SCHEDULE in config/settings/base.py):
rooms expire seven days after creation (rulebook, "Reconnect and host a bigger party").
Until the sweep deletes it, an expired party is refused everywhere with a clear message
(HTTP 410, WebSocket error `expired` and close 4410); after it, its code is unknown (404).
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from celery import shared_task
from django.db import transaction
from django.utils import timezone

from events.broadcast import groups
from events.party.clocks import clock_sweep

from .models import Party

log = logging.getLogger(__name__)


@shared_task(name="events.tasks.expire_parties", ignore_result=True)
def expire_parties() -> int:
    """Delete every party whose `expires_at` has passed, with its guests, vault gifts,
    tables and action logs (all cascade from the party). Returns how many parties."""
    now = timezone.now()
    with transaction.atomic():
        ids = list(Party.objects.filter(expires_at__lte=now).values_list("pk", flat=True))
        if ids:
            Party.objects.filter(pk__in=ids).delete()
    if ids:
        log.info("expired %d part%s", len(ids), "y" if len(ids) == 1 else "ies")
    return len(ids)


@shared_task(name="events.tasks.sweep_clocks", ignore_result=True)
def sweep_clocks() -> int:
    """Play every quiet guest's step whose clock ran out, where the host chose "the
    server plays it" (events/party/clocks.py: claimed with SKIP LOCKED, so this and the
    daphnes' own sweeps never play one step twice). Returns how many messages went out."""
    messages = clock_sweep()
    if messages:
        async_to_sync(groups.send_safely)(messages)
    return len(messages)
