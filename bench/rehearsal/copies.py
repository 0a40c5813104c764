"""What a screen keeps of each table stream to take patches, for a game whose seat's
private part is plain keys (Royal Heist: you, inside, decision, can_decide).

games/yankee/views.py's TableCopies merges Yankee's private part (the gifts a seat
peeked at, in `seats` and `vault`) and fails on another game's view. static/heist/live.js
`mergePrivate` takes any other game's private keys as they come; this does the same.
"""

from __future__ import annotations

from typing import Any

from games.patch import apply_patch
from games.registry import game_named
from games.yankee.views import TableCopies


class PlainTableCopy:
    """One stream's copy: the public view and the table details at its version."""

    __slots__ = ("meta", "private_keys", "public", "version")

    def __init__(self, private_keys: tuple[str, ...]) -> None:
        self.private_keys = private_keys
        self.version: int | None = None
        self.public: dict[str, Any] | None = None
        self.meta: dict[str, Any] | None = None

    def snapshot(self, payload: dict[str, Any]) -> None:
        view = payload["view"]
        self.version, self.meta = payload["version"], payload["table"]
        # A snapshot carries a seat's whole view: the public view is it without the private keys.
        self.public = {k: v for k, v in view.items() if k not in self.private_keys} if "you" in view else view

    def take(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        if "patch" in msg:
            meta = self.meta
            if self.version != msg["base"] or self.public is None or meta is None:
                return None
            if meta.get("roster_tag") != msg["table"].get("roster_tag"):
                return None
            public = apply_patch(self.public, msg["patch"])
            whole = {k: v for k, v in msg.items() if k not in ("patch", "base")}
            whole["view"], whole["table"] = public, {**meta, **msg["table"]}
        else:
            whole, public = msg, msg["view"]
        if self.version is None or whole["version"] >= self.version:
            self.version, self.public, self.meta = whole["version"], public, whole["table"]
        private = whole.pop("private", None)
        if private is None:
            return whole
        whole["view"] = {**public, **{k: v for k, v in private.items() if k != "events"}}
        if "events" in private:
            whole["events"] = private["events"]
        return whole


class PlainTableCopies(TableCopies):
    """TableCopies (the same streams, the same snapshot rule) with PlainTableCopy."""

    __slots__ = ("private_keys",)

    def __init__(self, game: str) -> None:
        super().__init__()
        self.private_keys = tuple(game_named(game).private_keys())

    def _copy(self, table_id: int, stream: str) -> PlainTableCopy:  # type: ignore[override]
        copy = self.streams.get((table_id, stream))
        if copy is None:
            copy = self.streams[(table_id, stream)] = PlainTableCopy(self.private_keys)  # type: ignore[assignment]
        return copy  # type: ignore[return-value]


def table_copies(game: str) -> TableCopies:
    """As live.js: Yankee's merge for Yankee Heist, the plain one for any other game."""
    return TableCopies() if game == "yankee" else PlainTableCopies(game)
