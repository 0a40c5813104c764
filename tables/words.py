"""Sentences about guests whose names may end in a full stop ("Jo A.")."""

from __future__ import annotations

ENDS = (".", "!", "?", "…")


def sentence(text: str) -> str:
    """`text` with exactly one closing mark: "... to Jo A." stays so (not "Jo A.."), and a
    sentence without one gets its full stop."""
    body = text[:-1] if text.endswith(".") and not text.endswith("...") else text
    return body if body.endswith(ENDS) else body + "."
