"""Game's fields are declared once; clone, to_dict and from_dict follow the declaration.

The stored JSON must not change: tables in the database hold Game.to_dict() rows written
by earlier code. tests/engine/fixtures/stored_games.json holds such rows, captured from
the hand-written to_dict this declaration replaced (commit 6ce38a7), with the setup and
actions that produced each, so the rows are checked against a real replay.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path

import pytest

from games.yankee import Gift, Phase, parse_action, replay
from games.yankee.state import PLAIN, Codec, Game, Pending, Window, _source, stored

FIXTURE = Path(__file__).parent / "fixtures" / "stored_games.json"
CASES = json.loads(FIXTURE.read_text())["cases"]
DECLARED = (Game, Pending, Window)


def _replayed(case: dict) -> Game:
    s = case["setup"]
    return replay(
        seed=s["seed"],
        gifts=[Gift(id=i + 1, description=f"gift {i + 1}", brought_by=i) for i in range(s["players"])],
        vault=[Gift(id=1001 + i, description=f"vault gift {i + 1}") for i in range(s["vault"])],
        gate=s["gate"],
        last_call_draw=s["last_call_draw"],
        actions=[parse_action(a) for a in case["actions"]],
    )


def test_the_fixture_covers_every_kind_of_value():
    states = [c["state"] for c in CASES]
    assert {s["phase"] for s in states} >= {"action", "reaction", "trim", "over"}
    assert any(s["pending"] and s["pending"]["window"] and s["pending"]["window"]["answers"] for s in states)
    assert any(s["pending"] and s["pending"]["moved"] for s in states)
    assert any(s["trims"] for s in states) and any(s["relayed"] for s in states)
    assert any("last_call_draw" in s for s in states) and any("last_call_draw" not in s for s in states)
    assert max(s["players"] for s in states) == 10


# Fields added since the fixture's rows were written, with what such a row loads as:
# written only while they differ from it, so other rows are byte for byte the old ones.
ADDED = {"trims_since": 0}  # the version that asked for the trims (issue 38)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_stored_rows_load_and_store_unchanged(case):
    stored_row = case["state"]
    game = _replayed(case)
    written = game.to_dict()
    assert {
        k: v for k, v in written.items() if k not in ADDED
    } == stored_row  # today's code writes what earlier code wrote
    assert set(written) - set(stored_row) <= set(ADDED)
    loaded = Game.from_dict(stored_row)
    assert loaded == dataclasses.replace(game, **ADDED)  # and reads it back to the very same game
    assert loaded.to_dict() == stored_row
    assert json.loads(json.dumps(loaded.to_dict())) == stored_row


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_types_after_loading_are_the_engines(case):
    g = Game.from_dict(case["state"])
    assert isinstance(g.rng, int) and isinstance(g.phase, Phase)
    assert isinstance(g.open, frozenset) and all(isinstance(p, frozenset) for p in g.peeks)
    assert all(isinstance(k, int) for k in g.descriptions) and all(isinstance(h, tuple) for h in g.hands)
    assert all(isinstance(k, int) for k in g.trims)
    if g.pending is not None:
        assert all(isinstance(m, tuple) and all(isinstance(p, tuple) for p in m) for m in g.pending.steps)
        w = g.pending.window
        if w is not None:
            assert isinstance(w.move, tuple) and isinstance(w.affected, tuple) and isinstance(w.forced, tuple)
            assert all(isinstance(k, int) for k in w.answers)


def test_rows_from_before_a_field_existed_load_with_its_default():
    row = copy.deepcopy(next(c["state"] for c in CASES if c["name"] == "reaction_window_10"))
    assert "last_call_draw" not in row
    del row["pending"]["window"]["version"]  # rows written before windows were versioned
    g = Game.from_dict(row)
    assert g.last_call_draw == 0 and g.pending.window.version == 0
    with pytest.raises(KeyError):
        Game.from_dict({k: v for k, v in row.items() if k != "players"})  # a field that was always stored


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_clone_is_equal_and_shares_nothing_the_rules_change_in_place(case):
    g = Game.from_dict(case["state"])
    before = g.to_dict()
    c = g.clone()
    assert c == g and c is not g
    # Change everything mutable in the clone: the original must not see it.
    for f in dataclasses.fields(Game):
        value = getattr(c, f.name)
        if isinstance(value, list):
            value.append(-1)
        elif isinstance(value, dict) and f.name != "descriptions":
            value[-1] = -1
    if c.pending is not None:
        c.pending.steps.append(((0, 1),))
        c.pending.moved.append(-1)
        c.pending.blocked += 1
        if c.pending.window is not None:
            c.pending.window.answers[-1] = None
    assert g.to_dict() == before


def test_only_immutable_or_copy_on_write_values_are_shared_by_clone():
    # A codec whose copy is "{v}" shares the value between a game and its clone.
    copy_on_write = {"descriptions"}  # rules.py replaces it, never changes it in place
    shared = {(cls.__name__, f.name) for cls in DECLARED for f in dataclasses.fields(cls)}
    shared = {(cls, name) for cls, name in shared if _codec(cls, name).copy == "{v}"}
    for case in CASES:
        g = Game.from_dict(case["state"])
        objs = {"Game": g, "Pending": g.pending, "Window": g.pending.window if g.pending else None}
        for cls, name in shared:
            if objs[cls] is None or name in copy_on_write:
                continue
            value = getattr(objs[cls], name)
            hash(value)  # immutable: ints, strs, None, enums, tuples and frozensets of them


def _codec(cls_name: str, field_name: str) -> Codec:
    cls = next(c for c in DECLARED if c.__name__ == cls_name)
    return next(f for f in dataclasses.fields(cls) if f.name == field_name).metadata["codec"]


def test_every_field_is_declared_with_a_codec_and_stored():
    for cls in DECLARED:
        for f in dataclasses.fields(cls):
            assert isinstance(f.metadata.get("codec"), Codec), f"{cls.__name__}.{f.name}"
    names = {f.name for f in dataclasses.fields(Game)}
    row = next(c["state"] for c in CASES if "last_call_draw" in c["state"])
    assert set(row) == names - set(ADDED)  # to_dict stores every field under its own name
    trimming = _replayed(next(c for c in CASES if c["state"]["phase"] == "trim"))
    assert trimming.to_dict()["trims_since"] == trimming.trims_since > 0  # the added ones too
    assert set(row["pending"] or {}) <= {f.name for f in dataclasses.fields(Pending)}


def test_a_field_without_a_codec_is_refused():
    @dataclasses.dataclass(slots=True)
    class Grown:
        players: int = dataclasses.field(metadata=stored(PLAIN))
        mood: str = "calm"  # added without saying how it is copied and stored

    with pytest.raises(TypeError, match=r"Grown\.mood declares no codec"):
        _source(Grown, "clone")


def test_optional_fields_need_a_default():
    @dataclasses.dataclass(slots=True)
    class Grown:
        mood: str = dataclasses.field(metadata=stored(PLAIN, optional=True))

    with pytest.raises(TypeError, match="no default"):
        _source(Grown, "clone")
