"""A table's update as a patch of the version before, for any game's public view.

The patch knows dicts and a "seats" list, no game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Most of a `table` message repeats what the screen already has: an action changes a
# few of the public view's keys and one or two seats (tables/broadcast.py sends a
# screen that asked for them `view_patch(public_view(before), public_view(after))`).
# `apply_patch(public_view(before), patch)` equals `public_view(after)`
# (tests/engine/test_view_patch.py); static/heist/live.js `applyPatch` does the same.


def view_patch(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """From public view `old` to public view `new`: `set` holds each top-level key whose
    value changed (its new value), `unset` the keys gone, and `seats` [index, entry] for
    each seat that changed when the seat count did not (then `set` holds them all)."""
    patch: dict[str, Any] = {}
    changed: dict[str, Any] = {}
    for key, value in new.items():
        if key not in old or old[key] != value:
            changed[key] = value
    old_seats, new_seats = old.get("seats"), new.get("seats")
    if "seats" in changed and isinstance(old_seats, list) and isinstance(new_seats, list):
        if len(old_seats) == len(new_seats):
            del changed["seats"]
            patch["seats"] = [[i, e] for i, (o, e) in enumerate(zip(old_seats, new_seats, strict=True)) if o != e]
    if changed:
        patch["set"] = changed
    gone = [key for key in old if key not in new]
    if gone:
        patch["unset"] = gone
    return patch


def apply_patch(view: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """The public view `patch` (view_patch) makes of `view`; `view` is not changed."""
    out = dict(view)
    for key in patch.get("unset", ()):
        out.pop(key, None)
    out.update(patch.get("set", {}))
    if "seats" in patch:
        seats = list(out["seats"])
        for index, entry in patch["seats"]:
            seats[index] = entry
        out["seats"] = seats
    return out


def merge_plain_private(msg: dict[str, Any]) -> dict[str, Any]:
    """A `table` message as a seat's screen uses it, for a game whose seat's private part
    is plain keys on top of the public view (static/heist/live.js
    `mergePrivate`, for every game whose private part does not merge into its seats): the
    view and the private keys in one, the seat's own events beside; without a private
    part, the message unchanged."""
    private = msg.get("private")
    if private is None:
        return msg
    out = {k: v for k, v in msg.items() if k != "private"}
    out["view"] = {**msg["view"], **{k: v for k, v in private.items() if k != "events"}}
    if "events" in private:
        out["events"] = private["events"]
    return out


__all__ = ["apply_patch", "merge_plain_private", "view_patch"]


def without_keys(keys: frozenset[str]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A seat's whole view back to the public one, for a game whose private part is the
    plain `keys` on top of the view (the `unmerge` of `TableCopy`)."""

    def unmerge(view: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in view.items() if k not in keys}

    return unmerge


class TableCopy:
    """What a screen keeps of one table stream (its seat's, or the public one) to take
    patches: the public view and the table details at its version, as static/heist/live.js
    keeps them. For Python clients (the benchmarks, the tests).

    `unmerge` takes a seat's whole view back to the public one and `merge` makes a
    message's view the seat's whole one: each game's own (a game may merge
    a seat's peeks into its seats; a game whose private part is plain keys on top of the view
    uses `without_keys` and `merge_plain_private`)."""

    __slots__ = ("merge", "meta", "public", "unmerge", "version")

    def __init__(
        self,
        unmerge: Callable[[dict[str, Any]], dict[str, Any]],
        merge: Callable[[dict[str, Any]], dict[str, Any]],
    ) -> None:
        self.version: int | None = None
        self.public: dict[str, Any] | None = None
        self.meta: dict[str, Any] | None = None
        self.unmerge, self.merge = unmerge, merge

    def snapshot(self, payload: dict[str, Any]) -> None:
        """A snapshot's table payload (its view whole, a seat's merged)."""
        view = payload["view"]
        self.version, self.meta = payload["version"], payload["table"]
        self.public = self.unmerge(view) if "you" in view else view

    def take(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        """A `table` message as the screen uses it (whole, a seat's merged); None for a
        patch of a version this copy does not hold, or of other table details: the
        screen missed something and resyncs."""
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
        return self.merge(whole)


class TableCopies:
    """One screen's TableCopy of every table stream it reads (a seat's own, and the
    public one of each table it watches), filled from its snapshots and updates as
    static/heist/live.js `applySnapshot` and `applyTable` fill theirs."""

    __slots__ = ("make_copy", "streams")

    def __init__(self, make_copy: Callable[[], TableCopy]) -> None:
        self.streams: dict[tuple[int, str], TableCopy] = {}  # (table id, "seat"|"pub") -> copy
        self.make_copy = make_copy

    def _copy(self, table_id: int, stream: str) -> TableCopy:
        copy = self.streams.get((table_id, stream))
        if copy is None:
            copy = self.streams[(table_id, stream)] = self.make_copy()
        return copy

    def snapshot(self, snap: dict[str, Any]) -> None:
        """A snapshot replaces every stream: a guest's `table` is its seat's (a tablet's
        the public one), a captain's `public` and a host's `tables` the public ones."""
        self.streams.clear()
        own = "seat" if snap.get("role") == "guest" else "pub"
        payloads = [(snap.get("table"), own), (snap.get("public"), "pub")]
        payloads += [(payload, "pub") for payload in snap.get("tables") or ()]
        for payload, stream in payloads:
            if payload:
                self._copy(payload["table"]["id"], stream).snapshot(payload)

    def take(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        """`TableCopy.take` on the stream the `table` message belongs to."""
        stream = "seat" if "private" in msg or "you" in msg.get("view", {}) else "pub"
        return self._copy(msg["table"]["id"], stream).take(msg)
