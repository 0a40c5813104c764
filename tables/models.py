"""A table's live game: the engine state as JSON, one row per table, and the log of
every accepted action (for replay, audit and idempotent retries)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from games.definition import Definition
from games.registry import DEFAULT_GAME, game_named


class Table(models.Model):
    party = models.ForeignKey("events.Party", on_delete=models.CASCADE, related_name="tables")
    letter = models.CharField(max_length=2)  # A, B, C ... in the relay ring's order
    # The game this table plays (a name games/registry.py knows), copied from its party at seating:
    # everything the host asks of the game goes through `definition`.
    game = models.CharField(max_length=20, default=DEFAULT_GAME)
    seed = models.BigIntegerField()
    setup = models.JSONField()  # new_game's inputs: gifts, vault, gate (replay starts here)
    state = models.JSONField()  # the game's state, its definition's to_dict()
    version = models.PositiveIntegerField(default=1)
    roster = models.JSONField(default=list)  # per seat: {"guest": id, "name": ..., "gift_number": ...}
    # When a step the rules let be passed after a while began (games/definition.py
    # Clock.rules_pass; tables/clock.py).
    window_opened_at = models.DateTimeField(null=True, blank=True)
    # The party's step clock, copied here so that an action reads it with the row it
    # locks (no extra query): seconds a step may wait for one guest (0: off), and
    # whether the server itself plays the do-nothing choice when it runs out
    # (events/party/clocks.py). `step_due_at`: when the step waiting now runs out (None: no
    # clock, or nobody waited for), written in the action's own statement.
    step_clock = models.PositiveSmallIntegerField(default=0)
    step_clock_server = models.BooleanField(default=False)
    step_due_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["party", "letter"], name="one_letter_per_table")]
        indexes = [
            # The clock sweep's search (events/party/clocks.py): only tables the server plays for.
            models.Index(fields=["step_due_at"], name="table_step_due", condition=models.Q(step_clock_server=True)),
        ]
        ordering = ["party", "letter"]

    def __str__(self) -> str:
        return f"table {self.letter} of party {self.party_id}"

    @property
    def definition(self) -> Definition:
        """The table's game (a dict lookup: no query, nothing copied)."""
        return game_named(self.game)


class TableAction(models.Model):
    """One accepted action. `version` is the table version it produced."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions")
    version = models.PositiveIntegerField()
    action = models.JSONField()
    actor = models.CharField(max_length=40)  # "seat:3", "host", "captain:12", "relay"
    client_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="one_action_per_version"),
            models.UniqueConstraint(
                fields=["table", "client_id"], condition=~models.Q(client_id=""), name="idempotent_client_id"
            ),
        ]
        ordering = ["table", "version"]
