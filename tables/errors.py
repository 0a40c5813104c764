"""The one error family: every refusal any layer makes is a `ServiceError` with a
stable `code` (what the screens and tests key on) and a message safe to show to the
sender. Defined here, low, so every layer above the engine may raise and catch it.

| class        | code                | raised by |
|--------------|---------------------|-----------|
| ServiceError | the service's own ("stale", "no_party", "invalid", ...) | services, the command registry |
| Forbidden    | "forbidden"         | the role table (events/party/roles.py) |
| Illegal      | "illegal.<rule>"    | the engine's IllegalActionError, wrapped where the engine is called (`engine_rules`) |

Each transport maps the family once: the socket to an `error` frame
(events/consumers.py `_error_frame`), HTTP to a status and JSON (events/web/http.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from tables.engine import IllegalActionError


class ServiceError(Exception):
    """A refused request; `code` is stable, the message is safe to show to the sender.
    Nothing changed when one is raised."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Forbidden(ServiceError):
    """The actor may not do this (the role table says so)."""

    def __init__(self, message: str) -> None:
        super().__init__("forbidden", message)


class Illegal(ServiceError):
    """The rules do not allow this action now: the engine's error, with the rule it names."""

    def __init__(self, error: IllegalActionError) -> None:
        super().__init__(f"illegal.{error.rule}", str(error))
        self.rule = error.rule


@contextmanager
def engine_rules() -> Iterator[None]:
    """Around a call into the engine: its IllegalActionError becomes `Illegal`."""
    try:
        yield
    except IllegalActionError as exc:
        raise Illegal(exc) from exc
