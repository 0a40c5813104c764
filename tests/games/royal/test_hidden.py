"""Decisions are secret until everybody inside has decided: a choice is only in its own
seat's view and in an event to that seat alone; then one public event shows them all."""

from games.royal import ROYAL, public_view, seat_view
from tests.games.royal.builders import decide, of, rigged


def _visible(events, seat):
    return [e.view(seat) for e in events if e.view(seat) is not None]


def test_a_decision_is_in_no_other_view_and_no_other_event():
    g = rigged(3, run=["8H", "JS"])
    g2, events = decide(g, {0: False})
    pub = public_view(g2)
    assert [s["decided"] for s in pub["seats"]] == [True, False, False]
    assert pub["revealed"] == {}
    assert seat_view(g2, 0)["decision"] is False
    for seat in (1, 2):
        assert seat_view(g2, seat)["decision"] is None
    for seat in (None, 1, 2):
        for e in _visible(events, seat):
            assert "press_on" not in e and "choices" not in e, (seat, e)
    (kept,) = [e for e in _visible(events, 0) if e["type"] == "decision_kept"]
    assert kept["press_on"] is False


def test_the_public_view_is_the_same_whatever_the_choice():
    g = rigged(3, run=["8H", "JS"])
    a, _ = decide(g, {0: False, 1: True})
    b, _ = decide(g, {0: True, 1: False})
    assert public_view(a) == public_view(b)
    assert seat_view(a, 2) == seat_view(b, 2)
    assert seat_view(a, 0) != seat_view(b, 0)


def test_the_reveal_shows_every_choice_at_once():
    g = rigged(3, run=["8H", "JS"])
    g, events = decide(g, {0: False, 1: True, 2: True})
    (revealed,) = of(events, "revealed")
    assert revealed.to is None
    assert revealed.data["choices"] == {"0": "get_out", "1": "press_on", "2": "press_on"}
    assert public_view(g)["revealed"] == {"0": False, "1": True, "2": True}
    # After the reveal nothing is secret: every seat's private decision is empty again.
    assert all(seat_view(g, s)["decision"] is None for s in range(3))


def test_private_keys_are_what_a_seat_view_adds():
    g = rigged(3, run=["8H", "JS"])
    g, _ = decide(g, {1: True})
    for seat in range(3):
        view = seat_view(g, seat)
        pub = public_view(g)
        assert set(view) - set(pub) == set(ROYAL.private_keys())
        assert {k: v for k, v in view.items() if k not in ROYAL.private_keys()} == pub


def test_the_view_says_who_has_decided_and_who_is_waited_for():
    g = rigged(4, run=["8H", "JS"])
    g, _ = decide(g, {2: True})
    pub = public_view(g)
    assert pub["waiting_for"] == [0, 1, 3]
    assert seat_view(g, 2)["can_decide"] is False and seat_view(g, 0)["can_decide"] is True
