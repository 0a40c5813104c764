"""Sentences for screens: about guests whose names may end in a full stop ("Jo A."), and
texts one broadcast carries to screens in different languages (issue 32)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

ENDS = (".", "!", "?", "…")

# The payload key a broadcast's text travels under, for each socket to say it in its own
# language (events/broadcast/groups.py `encode` moves it out of the JSON; the consumer's
# delivery renders it: events/live/consumers.py). Never on the wire.
SAID = "_said"


def sentence(text: str) -> str:
    """`text` with exactly one closing mark: "... to Jo A." stays so (not "Jo A.."), and a
    sentence without one gets its full stop."""
    body = text[:-1] if text.endswith(".") and not text.endswith("...") else text
    return body if body.endswith(ENDS) else body + "."


def said(msgid: str, params: Mapping[str, Any] | None = None, *, full_stop: bool = False) -> dict[str, Any]:
    """The `message` of a broadcast many screens read, each in its own language: the
    English as the wire has always carried it (never the sender's language: an HTTP
    request in Spanish may send it), and under SAID what each socket needs to say it in
    its own. `msgid` is marked with gettext_noop by the caller; `full_stop`: the text
    ends with a name, made one `sentence` after translation."""
    args = dict(params or {})
    return {"message": _render(msgid, args, full_stop), SAID: [msgid, args, full_stop]}


def say(carried: list[Any]) -> str:
    """A broadcast's text (`said`'s SAID) in the active language."""
    msgid, params, full_stop = carried
    return said_now(msgid, params, full_stop=full_stop)


def said_now(msgid: str, params: Mapping[str, Any], *, full_stop: bool = False) -> str:
    """A marked text with its parameters, in the active language."""
    return _render(gettext(msgid), params, full_stop)


def _render(text: str, params: Mapping[str, Any], full_stop: bool) -> str:
    text = text % params if params else text
    return sentence(text) if full_stop else text
