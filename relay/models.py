"""The party relay: one room-wide moment at the gate, before every table plays on.

One row per party, created when the host opens the relay (every table at the gate),
run exactly once, with the exchange it makes recorded for every screen that reconnects
later and for the audit. Running it starts the walk: each drawn player carries their
gift to the next table, and each table's entry in `result` records when its incoming
gift arrived and who confirmed it (relay/services.py, docs/RULES.md).
"""

from django.db import models
from django.utils import timezone


class Relay(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Captains are drawing seats"
        WALK = "walk", "The carriers are walking the gifts to the next tables"
        DONE = "done", "Every gift has arrived; every table plays on"

    party = models.OneToOneField("events.Party", on_delete=models.CASCADE, related_name="relay")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    ring = models.JSONField()  # table letters in relay order: A -> B -> ... -> back to A
    # Per table: seat, guest, gift out, gift in, and the walk: when its incoming gift
    # arrived, who confirmed it, whether it plays on (`playing`, relay/services.py).
    result = models.JSONField(null=True, blank=True)
    opened_at = models.DateTimeField(default=timezone.now)
    run_at = models.DateTimeField(null=True, blank=True)
