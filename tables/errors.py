"""The one error family: every refusal any layer makes is a `ServiceError` with a
stable `code` (what the screens and tests key on) and a message safe to show to the
sender. Defined here, low, so every layer above the engine may raise and catch it.
Every code is a member of `ErrorCode`, the one list (docs/PROTOCOL.md, "Error codes",
is checked against it by tests/test_error_codes.py).

| class        | code                | raised by |
|--------------|---------------------|-----------|
| ServiceError | the service's own (ErrorCode.STALE, NO_PARTY, INVALID, ...) | services, the command registry |
| Forbidden    | "forbidden"         | the role table (events/party/roles.py) |
| Illegal      | "illegal.<rule>"    | the engine's IllegalActionError, wrapped where the engine is called (`engine_rules`) |

Each transport maps the family once: the socket to an `error` frame
(events/live/socket/closing.py `error_frame`), HTTP to a status and JSON (events/web/http.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_noop

from games.definition import NamesRules
from games.errors import IllegalActionError

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class ErrorCode(StrEnum):
    """Every code a refusal carries: a ServiceError's, and those the socket sends
    outside the family (its own frame checks). A StrEnum, so a member is its string:
    the wire (JSON bodies, error frames) carries exactly the same text."""

    ALREADY = "already"  # a second hello on one socket
    BAD_CLAIM = "bad_claim"  # a hand-over code wrong, used or expired
    BAD_CODE = "bad_code"  # not the shape of a join code
    BAD_PAIRING = "bad_pairing"  # a tablet's pairing code wrong, used, revoked or expired
    BAD_SECRET = "bad_secret"  # a hello whose secret opens nothing here
    BUSY = "busy"  # no join code free, or HTTP admission full (config/admission.py)
    CLOSED = "closed"  # registration closed
    EXPIRED = "expired"  # the party is past its seven days
    FORBIDDEN = "forbidden"  # not this actor's command (Forbidden)
    FULL = "full"  # the party (or its late arrivals) at its cap
    GATE_CLOSED = "gate_closed"  # the gate (or the relay) opened while a table still plays before it
    HELLO_FIRST = "hello_first"  # a request before the hello
    HELLO_TIMEOUT = "hello_timeout"  # no hello soon enough after connecting
    ILLEGAL = "illegal"  # sent as "illegal.<rule>": the engine's rule (Illegal)
    INVALID = "invalid"  # a value out of bounds or of the wrong kind
    MALFORMED = "malformed"  # a frame or body that is not what the protocol says
    NO_GUEST = "no_guest"
    NO_PARTY = "no_party"
    NO_RELAY = "no_relay"  # a relay needs two tables
    NO_STORY = "no_story"  # no party, or its story not told yet
    NO_TABLE = "no_table"
    NOT_DRAWN = "not_drawn"  # the relay run while captains still have to draw
    NOT_OVER = "not_over"  # the party ended while a table plays
    NOT_PLAYING = "not_playing"  # a late arrival seated outside play
    NOT_SEATED = "not_seated"
    OVER = "over"  # that table has finished
    RATE_LIMITED = "rate_limited"
    RELAY_NOT_OPEN = "relay_not_open"
    RELAY_NOT_RUN = "relay_not_run"
    REMOVED = "removed"  # the socket's seat or tablet was taken away
    REUSED_ID = "reused_id"  # an act's request id already used for another action
    SEAT_IN_USE = "seat_in_use"  # a captain's hand-over of a seat still online
    SEATED = "seated"  # a lobby-only command after seating
    SEATING = "seating"  # the vault gifts do not match the tables
    STALE = "stale"  # an act against a version the table has left
    TOO_EARLY = "too_early"  # a step passed before its clock ran out
    TOO_FEW = "too_few"  # too few guests to seat
    TOO_LARGE = "too_large"  # a frame or body over the size limit


class ServiceError(Exception):
    """A refused request; `code` is stable, the message is safe to show to the sender.
    Nothing changed when one is raised."""

    code: str  # an ErrorCode, or for Illegal "illegal.<rule>"

    def __init__(self, code: ErrorCode, message: StrOrPromise) -> None:
        # A lazy message (a module's constant) is said in the language active where it
        # is sent: str(exc) renders it (the socket's error frame, HTTP's JSON).
        super().__init__(message)
        self.code = code


class Forbidden(ServiceError):
    """The actor may not do this (the role table says so)."""

    def __init__(self, message: StrOrPromise) -> None:
        super().__init__(ErrorCode.FORBIDDEN, message)


# What a guest is told of a refused action in a language other than English, one whole
# sentence per rule code. The engine's messages are detailed English composed with
# f-strings (a seat, a card, a phase): translating each would put Django in the engine
# (it must stay pure) or mark a hundred fragments; the rule code is stable and says
# enough, and English keeps the engine's detail (the tests and logs read it). These are
# the rules every game shares (games/errors.py); a game says its own rules in its own sentences
# (games/definition.py NamesRules).
RULE_TEXT: dict[str, str] = {
    "illegal": gettext_noop("The rules do not allow that now."),
    "malformed": gettext_noop("That action is not one the game understands."),
    "phase": gettext_noop("That cannot be done at this point of the game."),
    "turn": gettext_noop("It is not your turn to do that."),
    "seat": gettext_noop("There is no such seat at this table."),
}


def _illegal_text(error: IllegalActionError, definition: object | None) -> str:
    """The engine's own message in English; elsewhere its rule's sentence, translated:
    the game's where it words the rule, the host's where not."""
    language = translation.get_language()
    if language is None or language == settings.LANGUAGE_CODE:
        return str(error)
    own = definition.rule_texts() if isinstance(definition, NamesRules) else {}
    return translation.gettext(own.get(error.rule) or RULE_TEXT.get(error.rule, RULE_TEXT["illegal"]))


class Illegal(ServiceError):
    """The rules do not allow this action now: the engine's error, with the rule it names.
    Said when raised, in the active language (the socket's, the request's), in the words
    of `definition`, the game that refused it (None: the host's)."""

    def __init__(self, error: IllegalActionError, definition: object | None = None) -> None:
        super().__init__(ErrorCode.ILLEGAL, _illegal_text(error, definition))
        self.code = f"{ErrorCode.ILLEGAL}.{error.rule}"
        self.rule = error.rule


@contextmanager
def engine_rules(definition: object | None = None) -> Iterator[None]:
    """Around a call into `definition`'s engine: its IllegalActionError becomes `Illegal`."""
    try:
        yield
    except IllegalActionError as exc:
        raise Illegal(exc, definition) from exc
