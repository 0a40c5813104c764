"""A table's update as a patch of the version before (tables/broadcast.py): applied to
the public view a screen holds, it must give exactly the new public view; a screen's
copy (TableCopy, as static/heist/live.js keeps it) must turn a stream of patches into
exactly the whole messages, and refuse a patch it cannot apply rather than guess."""

from __future__ import annotations

import json

import pytest

from games.yankee import public_view, seat_view
from games.yankee.views import (
    TableCopies,
    TableCopy,
    apply_patch,
    merge_table_message,
    seat_private,
    unmerge_private,
    view_patch,
)
from tests.engine.test_leaks import Recorded


def roundtrip(x):
    return json.loads(json.dumps(x))


def whole_message(g, seat, meta):
    msg = {"type": "table", "version": g.version, "table": meta, "view": roundtrip(public_view(g)), "events": []}
    if seat is not None:
        msg["private"] = roundtrip(seat_private(g, seat))
    return msg


def patch_message(before, g, seat, meta):
    msg = {
        "type": "table",
        "version": g.version,
        "base": before.version,
        "table": {k: v for k, v in meta.items() if k != "roster"},
        "patch": roundtrip(view_patch(public_view(before), public_view(g))),
        "events": [],
    }
    if seat is not None:
        msg["private"] = roundtrip(seat_private(g, seat))
    return msg


META = {"id": 7, "letter": "A", "roster": [{"guest": 1, "name": "Ann"}], "roster_tag": "0000beef"}


@pytest.mark.parametrize("index", range(0, 60, 4))
def test_the_patch_of_every_action_gives_the_new_public_view(index):
    rec = Recorded(index)
    steps = 0
    for before, after in rec.transitions():
        old, new = roundtrip(public_view(before)), roundtrip(public_view(after))
        patch = roundtrip(view_patch(old, new))
        assert apply_patch(old, patch) == new
        assert old == roundtrip(public_view(before)), "applying changed the copy it was given"
        steps += 1
    assert steps > 5


def test_a_patch_is_smaller_than_the_view_it_replaces():
    rec = Recorded(9)  # ten players
    sizes = []
    for before, after in rec.transitions():
        patch = view_patch(public_view(before), public_view(after))
        sizes.append((len(json.dumps(patch)), len(json.dumps(public_view(after)))))
    assert sum(p for p, _ in sizes) < 0.5 * sum(v for _, v in sizes), sizes[:5]


def test_a_seat_count_that_changes_or_a_key_that_goes_is_carried_whole():
    old = {"seats": [{"seat": 0}], "gate": False, "x": 1}
    new = {"seats": [{"seat": 0}, {"seat": 1}], "gate": False}
    patch = view_patch(old, new)
    assert patch == {"set": {"seats": [{"seat": 0}, {"seat": 1}]}, "unset": ["x"]}
    assert apply_patch(old, patch) == new
    assert view_patch(new, new) == {}


@pytest.mark.parametrize("index", range(1, 60, 5))
def test_a_seat_view_unmerged_is_the_public_view(index):
    rec = Recorded(index)
    while rec.step():
        g = rec.game
        for seat in range(g.players):
            assert unmerge_private(roundtrip(seat_view(g, seat))) == roundtrip(public_view(g))


@pytest.mark.parametrize("index", range(2, 60, 6))
def test_a_copy_fed_patches_from_a_snapshot_gives_every_whole_message(index):
    """Every seat's and the public stream, from a snapshot (a seat's merged view) on:
    each patch, expanded, is exactly the whole message of that version."""
    rec = Recorded(index)
    for _ in range(rec.r.randrange(0, 8)):  # the snapshot is taken somewhere in the game
        if not rec.step():
            break
    g = rec.game
    seats = [*range(g.players), None]
    copies = {}
    for seat in seats:
        copies[seat] = TableCopy()
        view = seat_view(g, seat) if seat is not None else public_view(g)
        copies[seat].snapshot(roundtrip({"version": g.version, "table": META, "view": view}))
    checked = 0
    for before, g in rec.transitions():
        for seat in seats:
            got = copies[seat].take(patch_message(before, g, seat, META))
            assert got == merge_table_message(whole_message(g, seat, META)), (seat, g.version)
            if seat is not None:
                assert got["view"] == roundtrip(seat_view(g, seat))
            checked += 1
    assert checked > 10


def test_a_copy_refuses_a_patch_of_a_version_it_does_not_hold():
    rec = Recorded(3)
    copy = TableCopy()
    copy.snapshot(roundtrip({"version": rec.game.version, "table": META, "view": public_view(rec.game)}))
    first = rec.game
    rec.step()
    second = rec.game
    rec.step()
    assert copy.take(patch_message(second, rec.game, None, META)) is None, "a gap: version 1 was missed"
    assert copy.version == first.version, "nothing was taken"
    assert copy.take(patch_message(first, second, None, META))["version"] == second.version
    assert copy.take(patch_message(second, rec.game, None, META))["version"] == rec.game.version
    assert copy.take(patch_message(first, second, None, META)) is None, "old news is refused"
    assert copy.version == rec.game.version


def test_a_copy_refuses_a_patch_whose_roster_it_does_not_have():
    """A seat handed over renames the roster at the same version; a screen that missed
    that message must not go on patching the old names."""
    rec = Recorded(5)
    copy = TableCopy()
    copy.snapshot(roundtrip({"version": rec.game.version, "table": META, "view": public_view(rec.game)}))
    before = rec.game
    rec.step()
    renamed = {**META, "roster": [{"guest": 1, "name": "Bob"}], "roster_tag": "1234abcd"}
    assert copy.take(patch_message(before, rec.game, None, renamed)) is None
    copy.take(whole_message(before, None, renamed))  # the same version, its new details
    got = copy.take(patch_message(before, rec.game, None, renamed))
    assert got["table"]["roster"] == renamed["roster"], "the roster comes from the copy"


def test_a_screens_copies_follow_its_snapshot_streams():
    """A captain's phone reads its seat and the table's public view; a host every
    table's public view: each patch goes to the copy of its own stream."""
    rec = Recorded(6)
    before = rec.game
    rec.step()
    g = rec.game
    other = {**META, "id": 8}
    captain = TableCopies()
    captain.snapshot(
        roundtrip(
            {
                "role": "guest",
                "table": {"version": before.version, "table": META, "view": seat_view(before, 1)},
                "public": {"version": before.version, "table": META, "view": public_view(before)},
            }
        )
    )
    assert captain.take(patch_message(before, g, 1, META))["view"] == roundtrip(seat_view(g, 1))
    assert captain.take(patch_message(before, g, None, META))["view"] == roundtrip(public_view(g))
    host = TableCopies()
    host.snapshot(
        roundtrip(
            {
                "role": "host",
                "tables": [
                    {"version": before.version, "table": META, "view": public_view(before)},
                    {"version": before.version, "table": other, "view": public_view(before)},
                ],
            }
        )
    )
    assert host.take(patch_message(before, g, None, other))["table"]["id"] == 8
    assert host.take(patch_message(before, g, 1, META)) is None, "a host holds no seat's stream"
    host.snapshot({"role": "host", "tables": []})
    assert host.take(patch_message(before, g, None, META)) is None, "a snapshot replaces every stream"
