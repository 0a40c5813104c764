"""The party relay: one room-wide moment between rounds 2 and 3.

One row per party, created when the host opens the relay (every table at the gate),
marked run exactly once, with the exchange it made recorded for every screen that
reconnects later and for the audit.
"""

from django.db import models
from django.utils import timezone


class Relay(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Captains are drawing seats"
        DONE = "done", "The relay has run"

    party = models.OneToOneField("events.Party", on_delete=models.CASCADE, related_name="relay")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    ring = models.JSONField()  # table letters in relay order: A -> B -> ... -> back to A
    result = models.JSONField(null=True, blank=True)  # per table: seat, guest, gift out, gift in
    opened_at = models.DateTimeField(default=timezone.now)
    run_at = models.DateTimeField(null=True, blank=True)
