"""Reading an action's wire form, the part every game shares: a JSON object whose
"type" names one of the game's actions and whose other keys are that action's fields.
Each game builds its actions from there (games/*/actions.py)."""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Any

from .errors import MalformedActionError


def action_type(d: Any, fields: Mapping[str, Set[str]]) -> tuple[str, dict[str, Any]]:
    """`d`'s action type and `d` itself, checked strictly: a dict, its "type" a key of
    `fields`, no keys but "type" and that type's fields. A field's presence and type
    are the game's to check. Raises MalformedActionError."""
    if not isinstance(d, dict):
        raise MalformedActionError("an action must be a JSON object")
    kind = d.get("type")
    if not isinstance(kind, str) or kind not in fields:
        raise MalformedActionError(f"unknown action type {kind!r}")
    extra = set(d) - fields[kind] - {"type"}
    if extra:
        raise MalformedActionError(f"unexpected fields for {kind}: {sorted(extra)}")
    return kind, d


__all__ = ["action_type"]
