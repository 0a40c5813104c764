"""What a client's frame must look like before the consumer handles it (docs/PROTOCOL.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeGuard

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy, gettext_noop

from tables.errors import ErrorCode
from tables.words import said_now

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# A refusal's text with its numbers, said when sent: parsing runs outside any language.
_said = lazy(said_now, str)

MAX_FRAME = 4096  # the largest legal frame is a few hundred bytes
CLIENT_ID_MAX = 64


@dataclass(frozen=True)
class Refusal:
    """A frame refused unread: the `error` frame's code and message; `too_large`: the
    socket closes too."""

    code: ErrorCode
    message: StrOrPromise  # lazy: said in the socket's language when sent (the consumer's `_error`)
    too_large: bool = False


def parse(text_data: str | None) -> dict[str, Any] | Refusal:
    """The frame as a JSON object with a type and a valid `re`, or why not."""
    if text_data is None:
        return Refusal(ErrorCode.MALFORMED, gettext_lazy("send JSON text frames"))
    if len(text_data) > MAX_FRAME // 4 and len(text_data.encode("utf-8", "surrogatepass")) > MAX_FRAME:
        return Refusal(
            ErrorCode.TOO_LARGE,
            _said(gettext_noop("frames are limited to %(limit)s bytes"), {"limit": MAX_FRAME}),
            too_large=True,
        )
    try:
        frame = json.loads(text_data)
    except (ValueError, RecursionError):  # RecursionError: [[[[... nested past the parser's depth
        return Refusal(ErrorCode.MALFORMED, gettext_lazy("that frame is not JSON"))
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        return Refusal(ErrorCode.MALFORMED, gettext_lazy("a frame is a JSON object with a type"))
    re = frame.get("re")
    if re is not None and not _valid_re(re):
        # printable: an act's id is stored with the action, and PostgreSQL refuses NUL
        # and lone surrogates (the query would crash the consumer)
        return Refusal(
            ErrorCode.MALFORMED,
            _said(
                gettext_noop("re must be a printable string of at most %(limit)s characters"), {"limit": CLIENT_ID_MAX}
            ),
        )
    return frame


def plain_re(text_data: str | bytes | None) -> str | None:
    """The `re` of a frame refused unread, if it is a JSON object with a printable one."""
    if not isinstance(text_data, str) or len(text_data) > MAX_FRAME:
        return None
    try:
        frame = json.loads(text_data)
    except (ValueError, RecursionError):
        return None
    re = frame.get("re") if isinstance(frame, dict) else None
    return re if _valid_re(re) else None


def _valid_re(re: object) -> TypeGuard[str]:
    return isinstance(re, str) and len(re) <= CLIENT_ID_MAX and re.isprintable()
