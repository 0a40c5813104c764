"""Who sees what: public_view has no hands and no unrevealed descriptions; seat_view
adds only the seat's own hand, peeks and answer."""

import json

from games.yankee import ConfirmReveal, PlayCard, React, Regroup, apply, public_view, seat_view
from tests.engine.builders import C, build, desc, gift_id, one, pass_turn, start, vault_desc

HAND_KEYS = {"hand", "hands", "draw_pile_cards", "answers", "descriptions", "peeks"}


def all_keys(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from all_keys(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from all_keys(v)


def test_public_view_shows_no_hand_and_no_wrapped_description():
    g, _ = start(4, seed=9, vault=2)
    v = public_view(g)
    text = json.dumps(v)
    assert not HAND_KEYS & set(all_keys(v))
    for s in range(4):
        assert desc(s) not in text
    assert vault_desc(0) not in text
    assert [entry["cards"] for entry in v["seats"]] == [len(h) for h in g.hands]
    assert [entry["description"] for entry in v["seats"]] == [None] * 4
    assert v["draw_pile"] == len(g.draw_pile) and v["active"] == g.active


def test_public_view_shows_descriptions_once_revealed():
    g = build(3, hands=[[], [], []], active=2, starter=0)
    g, _ = pass_turn(g)
    g, _ = apply(g, ConfirmReveal())
    v = public_view(g)
    assert [e["description"] for e in v["seats"]] == [desc(s) for s in range(3)]
    assert all(e["open"] for e in v["seats"])


def test_seat_view_shows_only_own_hand_and_own_peeks():
    g, _ = start(4, seed=10)
    for seat in range(4):
        v = seat_view(g, seat)
        assert [c["id"] for c in v["hand"]] == list(g.hands[seat])
        assert v["you"] == seat and v["gift"] == g.gifts[seat]
        text = json.dumps(v)
        for other in range(4):
            # its own dealt gift and the one it brought, nothing else
            shown = v["seats"][other]["description"]
            if g.gifts[other] in (g.gifts[seat], gift_id(seat)):
                assert shown == desc(g.gifts[other] - 10)
                assert v["seats"][other]["peeked"] is True
            else:
                assert shown is None and desc(g.gifts[other] - 10) not in text
        assert "hands" not in v


def test_seat_view_hand_entries_name_the_card():
    g = build(3, hands=[[C.YANKEE_HEIST], [], []])
    assert seat_view(g, 0)["hand"] == [
        {"id": g.hands[0][0], "card": "YANKEE_HEIST", "title": "YANKEE HEIST", "kind": "MOVE"}
    ]
    assert seat_view(g, 1)["hand"] == []


def test_case_the_joint_peek_shows_only_in_the_peekers_view():
    g = build(4, hands=[[C.CASE_THE_JOINT], [], [], []])
    g1, _ = apply(g, PlayCard(0, one(g, 0, C.CASE_THE_JOINT), (2,)))
    assert seat_view(g1, 0)["seats"][2]["description"] == desc(2)
    assert seat_view(g1, 1)["seats"][2]["description"] is None
    assert seat_view(g1, 3)["seats"][2]["description"] is None
    assert public_view(g1)["seats"][2]["description"] is None


def test_window_answers_only_in_the_answering_seats_view():
    g = build(5, hands=[[], [C.TRIPWIRE], [C.SWITCHEROO], [], [C.NOT_SO_FAST]], active=2)
    g1, _ = apply(g, PlayCard(2, one(g, 2, C.SWITCHEROO), (1, 4)))
    trip = one(g, 1, C.TRIPWIRE)
    g2, _ = apply(g1, React(1, trip))  # answers early; seat 4 (first in order) still to answer
    pub = public_view(g2)
    assert pub["window"] == {
        "active": 2,
        "label": "SWITCHEROO",
        "move": [[1, 4], [4, 1]],
        "affected": [4, 1],
        "waiting": [4],
        "version": g1.version,  # the version that opened it: answers name it
    }
    assert str(trip) not in json.dumps(pub["window"])
    v1, v4, v0 = seat_view(g2, 1), seat_view(g2, 4), seat_view(g2, 0)
    assert v1["answer"] == {"block": True, "card": trip} and v1["asked"] is False
    assert v4["answer"] is None and v4["asked"] is True
    assert v0["answer"] is None and v0["asked"] is False
    g3, _ = apply(g1, React(1, None))
    assert seat_view(g3, 1)["answer"] == {"block": False, "card": None}


def test_seat_view_lists_what_the_seat_may_do():
    g = build(4, hands=[[C.SNATCH, C.NOT_SO_FAST], [C.INSIDE_MAN], [], []], vault=1)
    v = seat_view(g, 0)
    assert v["playable"] == {str(one(g, 0, C.SNATCH)): [1, 2, 3]}
    assert v["can_swipe"] is True and v["can_use_vault"] is True
    v1 = seat_view(g, 1)
    assert v1["playable"] == {} and v1["can_swipe"] is False and v1["can_use_vault"] is False


def test_private_events_are_visible_only_to_their_owner():
    g = build(4, hands=[[], [], [], []], draw=[C.SNATCH])
    _, events = apply(g, Regroup(0, ()))
    drew = next(e for e in events if e.type == "drew")
    assert drew.view(1)["cards"] == [g.draw_pile[-1]]
    assert "cards" not in drew.view(0) and "cards" not in drew.view(None)
    assert drew.view(2)["count"] == 1
