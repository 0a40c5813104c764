"""A table's update as a patch of the version before, for any game's public view.

Moved from games/yankee/views.py: the patch knows dicts and a "seats" list, no game.
"""

from __future__ import annotations

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
    is plain keys on top of the public view (Royal Heist's; static/heist/live.js
    `mergePrivate` for any game but Yankee Heist, whose peeks merge into its seats): the
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
