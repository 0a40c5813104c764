"""A party (the host's event): its join code, its guests and their gifts, its vault gifts.

A single table of 2 to 10 guests is a party with one table; 11+ guests make several
tables (tables/models.py). Secrets (host token, seat tokens) are stored only as
SHA-256 digests: a database leak gives nobody a seat.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.definition import gifts_of
from games.registry import DEFAULT_GAME, game_named

PARTY_LIFETIME = timedelta(days=7)  # rulebook: rooms expire after seven days


def _expires_at() -> datetime:
    return timezone.now() + PARTY_LIFETIME


# A step clock: how long one step the game's clock names (a turn, a choice, a vote...)
# may wait for one guest before the captain and the host may play the rules' do-nothing
# choice for them (docs/RULES.md, "When a guest does not answer"). 0 is off.
STEP_CLOCKS = (0, 60, 120)
DEFAULT_STEP_CLOCK = 120


class Party(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", "Guests are joining"
        PLAYING = "playing", "Tables are playing"
        OVER = "over", "The party is over"

    code = models.CharField(max_length=6, unique=True)
    name = models.CharField(max_length=80)
    # Which game the party's tables play: a name games/registry.py knows (party_create
    # checks it; no column choices, so adding a game needs no migration); its tables copy it.
    game = models.CharField(max_length=20, default=DEFAULT_GAME)
    # How many games each table plays in a row, banks adding up (games.definition.Setup.games;
    # 1 to the game's Features.max_games).
    games = models.PositiveSmallIntegerField(default=1)
    budget = models.CharField(max_length=40, blank=True)
    # The room's language (issue 32): the big screen, the tablets and the printables speak
    # it; a phone speaks its own where we have a catalogue (events/party/language.py).
    language = models.CharField(max_length=8, choices=settings.LANGUAGES, default="en")
    jokes_welcome = models.BooleanField(default=True)
    vault_size = models.PositiveSmallIntegerField(default=0)  # per table, 0 to 3
    # the host's choices of the game's own rules (games.definition.TakesHostOptions), checked
    options = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField()  # every random choice of the party derives from it
    host_token_hash = models.CharField(max_length=64, unique=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY)
    registration_open = models.BooleanField(default=True)
    seating = models.JSONField(null=True, blank=True)  # the recorded seating draw, for audit
    revision = models.PositiveIntegerField(default=1)  # bumped by every party-level change
    step_clock = models.PositiveSmallIntegerField(default=DEFAULT_STEP_CLOCK)  # STEP_CLOCKS
    step_clock_server = models.BooleanField(default=False)  # the server plays it when it runs out (opt-in)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(default=_expires_at, db_index=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    @property
    def expired(self) -> bool:
        return self.expires_at <= timezone.now()


class Guest(models.Model):
    party = models.ForeignKey(Party, on_delete=models.CASCADE, related_name="guests")
    name = models.CharField(max_length=40)
    description = models.CharField(max_length=200)  # secret: what the gift they brought is
    gift_number = models.PositiveIntegerField()  # the label written on the physical gift
    token_hash = models.CharField(max_length=64, unique=True)
    table = models.ForeignKey("tables.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="guests")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    is_captain = models.BooleanField(default=False)
    joined_at = models.DateTimeField(default=timezone.now)
    removed_at = models.DateTimeField(null=True, blank=True)
    claim_hash = models.CharField(max_length=64, blank=True)  # a substitute's one-time code
    claim_expires = models.DateTimeField(null=True, blank=True)
    # The guest's own phone offered the seat to a substitute (consent to a hand-over).
    handover_offered_until = models.DateTimeField(null=True, blank=True)
    # Registered after the deal (docs/RULES.md, "Late arrivals"): no seat of their own;
    # the host may seat them as a substitute, and they take their own gift home.
    late = models.BooleanField(default=False)
    # The group the host put this guest in by hand in the lobby, for a game whose party
    # plays in groups (games/definition.py PlaysInGroups: teams); None: drawn at seating.
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    sockets = models.IntegerField(default=0)  # open WebSockets, for the host's "disconnected" marks
    last_seen = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["party", "gift_number"], name="one_label_per_gift"),
            models.UniqueConstraint(
                fields=["table", "seat"], condition=models.Q(table__isnull=False), name="one_guest_per_seat"
            ),
        ]
        ordering = ["gift_number"]

    def __str__(self) -> str:
        return f"{self.name} (gift {self.gift_number})"


class GuestSocket(models.Model):
    """One open guest WebSocket, for presence (events/live/presence.py): rows of a process
    that died are recognised and dropped, where a counter stayed high."""

    guest = models.ForeignKey(Guest, on_delete=models.CASCADE, related_name="open_sockets")
    channel = models.CharField(max_length=200, unique=True)  # the consumer's channel name
    server = models.CharField(max_length=100)  # the address it was accepted on
    process = models.CharField(max_length=32)  # the process serving it
    seen_at = models.DateTimeField()  # hello or the last ping

    class Meta:
        indexes = [models.Index(fields=["server", "process"])]


class VaultGift(models.Model):
    """An extra gift for a table's vault; goes back to its contributor at the end."""

    party = models.ForeignKey(Party, on_delete=models.CASCADE, related_name="vault_gifts")
    number = models.PositiveIntegerField()
    contributor = models.CharField(max_length=40)
    description = models.CharField(max_length=200)
    table = models.ForeignKey(
        "tables.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="vault_gifts"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["party", "number"], name="one_label_per_vault_gift")]
        ordering = ["number"]

    @property
    def gift_id(self) -> int:
        """The game's id for this gift: guests' gifts use their label number, vault gifts
        the game's `vault_gift_id(number)`, so one id space serves the whole party
        (defined once, in the game; games/definition.py HoldsGifts). Read through
        `party.vault_gifts`, the party is already at hand (no query)."""
        return gifts_of(game_named(self.party.game)).vault_gift_id(self.number)


class SeatHandOver(models.Model):
    """The durable record of every hand-over: who asked, why it was allowed (the host,
    the guest's own offer, or the seat offline), and who claimed the seat. A captain
    taking a seat is a power over another guest's game; this is its audit trail."""

    class Reason(models.TextChoices):
        HOST = "host", "Asked by the host"
        CONSENT = "consent", "Offered by the guest"
        OFFLINE = "offline", "The seat was offline"

    party = models.ForeignKey(Party, on_delete=models.CASCADE, related_name="handovers")
    guest = models.ForeignKey(Guest, on_delete=models.CASCADE, related_name="handovers")
    table = models.ForeignKey("tables.Table", null=True, on_delete=models.SET_NULL, related_name="+")
    seat = models.PositiveSmallIntegerField()
    leaving_name = models.CharField(max_length=40)
    requested_by = models.CharField(max_length=40)  # "host" or "captain:<guest id>"
    reason = models.CharField(max_length=10, choices=Reason.choices)
    created_at = models.DateTimeField(default=timezone.now)
    claimed_at = models.DateTimeField(null=True, blank=True)
    claimed_by = models.CharField(max_length=40, blank=True)  # the substitute's name
    # The late arrival who took the seat (None: a substitute by hand-over code, who
    # took over the leaver's guest row).
    substitute = models.ForeignKey(Guest, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # The table's version when the substitute took the seat: the story names the leaver
    # for what happened before it, the substitute after.
    table_version = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]


class Tablet(models.Model):
    """A captain's tablet paired to one table. The host starts a pairing (a one-time
    code, shown as a QR code on the dashboard); the tablet trades it for its own
    secret. Both are stored only as SHA-256 digests, like the seats' secrets. A tablet
    belongs to the table, not to a guest: a new captain needs no new pairing."""

    party = models.ForeignKey(Party, on_delete=models.CASCADE, related_name="tablets")
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="tablets")
    pairing_hash = models.CharField(max_length=64, blank=True)  # the one-time code, until used
    pairing_expires = models.DateTimeField(null=True, blank=True)
    token_hash = models.CharField(max_length=64, blank=True)  # the tablet's secret, once paired
    created_at = models.DateTimeField(default=timezone.now)
    paired_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["token_hash"], condition=~models.Q(token_hash=""), name="one_tablet_per_secret"
            ),
        ]
        ordering = ["table", "pk"]

    def __str__(self) -> str:
        return f"tablet {self.pk} at {self.table}"
