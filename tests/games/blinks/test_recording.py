"""Who records a throw, and a throw recorded twice applying once (docs/RULES.md, "Blinks
Heist": "Who records a throw").

The thrower records, the captain settles: nothing changes the vault before the
captain's tap; a record sent twice, a confirmation tapped twice, a stale record after an
undo: each refused, typed, the game unchanged, the throw counted once.
"""

import pytest

from games.blinks import (
    AlreadyRecordedError,
    AlreadySettledError,
    ClaimedError,
    Confirm,
    NoSuchBlinkError,
    NoSuchSeatError,
    NoSuchThrowError,
    OutOfTurnError,
    Overrule,
    Phase,
    Throw,
    Undo,
    WrongPhaseError,
    apply,
)
from tests.games.blinks.builders import of, record, table, throw, throws


def test_a_record_changes_nothing_until_the_captain_confirms():
    g = table(3)
    g, events = record(g, hit=2)
    assert g.phase is Phase.CONFIRM and g.pending is not None and g.pending.hit == 2
    assert g.health == [4] * 6 and g.turn == 0 and g.waiting() == ()
    assert [e.type for e in events] == ["recorded"]
    g, events = apply(g, Confirm(1))
    assert g.health[1] == 3 and g.turn == 1 and g.phase is Phase.THROW
    assert of(events, "damaged")[0].data == {"blink": 2, "health": 3, "seat": 0, "team": 0}


def test_a_throw_recorded_twice_applies_once():
    g = table(3)
    g, _ = record(g, hit=2)
    again = Throw(0, 1, 2, False)
    with pytest.raises(AlreadyRecordedError) as refused:
        apply(g, again)
    assert refused.value.rule == "recorded"
    g, _ = apply(g, Confirm(1))
    # still refused once settled, and once the turn has moved on: the phone's retry is late
    before = g.to_dict()
    with pytest.raises(AlreadyRecordedError):
        apply(g, again)
    assert g.to_dict() == before
    assert g.health[1] == 3 and sum(4 - h for h in g.health) == 1


def test_a_confirmation_tapped_twice_applies_once():
    g = table(3)
    g, _ = record(g, hit=5)
    g, _ = apply(g, Confirm(1))
    before = g.to_dict()
    with pytest.raises(AlreadySettledError) as refused:
        apply(g, Confirm(1))
    assert refused.value.rule == "settled" and g.to_dict() == before
    with pytest.raises(AlreadySettledError):
        apply(g, Overrule(1, None, False))
    assert g.health[4] == 3


def test_throw_numbers_are_never_reused():
    g = table(2)
    g, _ = throw(g, hit=1)
    g, _ = apply(g, Undo(1))
    # the retried record of the undone throw is refused: the re-record is throw 2
    with pytest.raises(AlreadyRecordedError):
        apply(g, Throw(0, 1, 1, False))
    g, _ = throw(g, hit=None)
    assert g.throws == 2 and g.health == [4] * 6


def test_the_next_number_only():
    g = table(2)
    with pytest.raises(NoSuchThrowError) as refused:
        apply(g, Throw(0, 2, None, False))
    assert refused.value.rule == "throw"
    with pytest.raises(NoSuchThrowError):
        apply(g, Confirm(1))  # nothing recorded yet


def test_only_the_thrower_records_and_only_a_blink_in_the_vault():
    g = table(3, vault=3)
    with pytest.raises(OutOfTurnError):
        apply(g, Throw(1, 1, None, False))
    with pytest.raises(NoSuchSeatError):
        apply(g, Throw(3, 1, None, False))
    for blink in (0, 4, -1):
        with pytest.raises(NoSuchBlinkError):
            apply(g, Throw(0, 1, blink, False))
    g, _ = throws(g, 1, 1, 1, 1)  # the fourth hit, seat 0's, claims Blink 1
    with pytest.raises(ClaimedError) as refused:
        record(g, hit=1)
    assert refused.value.rule == "claimed"


def test_a_record_waits_for_the_captain_before_the_next():
    g = table(2)
    g, _ = record(g, hit=None)
    with pytest.raises(WrongPhaseError):
        apply(g, Throw(0, 2, None, False))


def test_the_captain_s_call_decides_a_disagreement():
    g = table(3)
    g, _ = record(g, hit=3)  # the thrower says Blink 3
    g, events = apply(g, Overrule(1, 4, True))  # the captain saw Blink 4, and a touch
    assert g.health[2] == 4 and g.health[3] == 3 and g.skips[0]
    settled = of(events, "settled")[0].data
    assert settled == {"throw": 1, "seat": 0, "hit": 4, "touched": True, "by": "captain"}
    # the call may name a miss too, and must name a Blink in the vault
    g, _ = record(g, hit=4)
    with pytest.raises(NoSuchBlinkError):
        apply(g, Overrule(2, 7, False))
    g, _ = apply(g, Overrule(2, None, False))
    assert g.health[3] == 3
