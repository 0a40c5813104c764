"""Illegal actions raise the right IllegalActionError subclass with a clear message and
leave the input game unchanged; malformed wire frames are refused by parse_action."""

import copy

import pytest

from games.yankee import (
    CardNotInHandError,
    ConfirmReveal,
    Direction,
    DrawRelaySeat,
    Gift,
    IllegalActionError,
    IllegalCardError,
    IllegalTargetError,
    MalformedActionError,
    OutOfTurnError,
    PlayCard,
    React,
    Regroup,
    RelayExchange,
    Swipe,
    TimeoutPass,
    Trim,
    VaultExchange,
    WrongPhaseError,
    action_to_dict,
    apply,
    parse_action,
)
from tests.engine.builders import C, build, ids, one, vault_id


def action_game():
    """Seat 0's turn; a vault of 2; seat 1 holds the reactions."""
    return build(
        4,
        hands=[
            [C.SNATCH, C.SWITCHEROO, C.THREE_GIFT_GRIFT, C.YANKEE_HEIST, C.CASE_THE_JOINT, C.PICKPOCKET, C.NOT_SO_FAST],
            [C.NOT_SO_FAST, C.TRIPWIRE],
            [],
            [C.INSIDE_MAN],
        ],
        vault=2,
    )


def reaction_game():
    g = action_game()
    g1, _ = apply(g, PlayCard(0, one(g, 0, C.SNATCH), (1,)))
    return g1


def c(g, seat, card):
    return one(g, seat, card)


ACTION_CASES = [
    # (name, action factory, error class, message fragment)
    ("out of turn: play", lambda g: PlayCard(1, c(g, 1, C.TRIPWIRE), (0,)), OutOfTurnError, "seat 0's turn"),
    ("out of turn: regroup", lambda g: Regroup(3, ()), OutOfTurnError, "seat 0's turn"),
    ("out of turn: swipe", lambda g: Swipe(1, g.hands[1], 0), OutOfTurnError, "seat 0's turn"),
    ("out of turn: vault", lambda g: VaultExchange(1, g.hands[1], vault_id(0)), OutOfTurnError, "turn"),
    ("acting seat does not exist", lambda g: Regroup(9, ()), IllegalTargetError, "no seat 9"),
    ("card not in hand", lambda g: PlayCard(0, c(g, 3, C.INSIDE_MAN)), CardNotInHandError, "not in your hand"),
    ("no such card id", lambda g: PlayCard(0, 999), CardNotInHandError, "not in your hand"),
    ("negative card id", lambda g: PlayCard(0, -1), CardNotInHandError, "not in your hand"),
    ("reaction as an action", lambda g: PlayCard(0, c(g, 0, C.NOT_SO_FAST)), IllegalCardError, "reaction"),
    ("snatch yourself", lambda g: PlayCard(0, c(g, 0, C.SNATCH), (0,)), IllegalTargetError, "yourself"),
    ("snatch nonexistent seat", lambda g: PlayCard(0, c(g, 0, C.SNATCH), (4,)), IllegalTargetError, "no seat 4"),
    ("snatch negative seat", lambda g: PlayCard(0, c(g, 0, C.SNATCH), (-1,)), IllegalTargetError, "no seat -1"),
    ("snatch a vault gift", lambda g: PlayCard(0, c(g, 0, C.SNATCH), (vault_id(0),)), IllegalTargetError, "no seat 90"),
    ("snatch nobody", lambda g: PlayCard(0, c(g, 0, C.SNATCH), ()), IllegalTargetError, "names 1"),
    ("snatch two", lambda g: PlayCard(0, c(g, 0, C.SNATCH), (1, 2)), IllegalTargetError, "names 1"),
    ("switcheroo with yourself", lambda g: PlayCard(0, c(g, 0, C.SWITCHEROO), (0, 1)), IllegalTargetError, "yourself"),
    (
        "switcheroo same player twice",
        lambda g: PlayCard(0, c(g, 0, C.SWITCHEROO), (2, 2)),
        IllegalTargetError,
        "two different",
    ),
    (
        "grift without direction",
        lambda g: PlayCard(0, c(g, 0, C.THREE_GIFT_GRIFT), (1, 2)),
        MalformedActionError,
        "direction",
    ),
    (
        "direction on a snatch",
        lambda g: PlayCard(0, c(g, 0, C.SNATCH), (1,), direction=Direction.CLOCKWISE),
        MalformedActionError,
        "only THREE-GIFT GRIFT",
    ),
    (
        "heist same target twice",
        lambda g: PlayCard(0, c(g, 0, C.YANKEE_HEIST), (1, 1), extra=c(g, 0, C.SNATCH)),
        IllegalTargetError,
        "two different",
    ),
    (
        "heist without extra",
        lambda g: PlayCard(0, c(g, 0, C.YANKEE_HEIST), (1, 2)),
        MalformedActionError,
        "one more card",
    ),
    (
        "case the joint on a vault gift",
        lambda g: PlayCard(0, c(g, 0, C.CASE_THE_JOINT), (vault_id(1),)),
        IllegalTargetError,
        "no seat 91",
    ),
    (
        "pickpocket an empty hand",
        lambda g: PlayCard(0, c(g, 0, C.PICKPOCKET), (2,)),
        IllegalTargetError,
        "cards in hand",
    ),
    ("swipe yourself", lambda g: Swipe(0, g.hands[0][:2], 0), IllegalTargetError, "yourself"),
    ("swipe one card", lambda g: Swipe(0, g.hands[0][:1], 1), MalformedActionError, "exactly 2"),
    (
        "swipe with someone else's card",
        lambda g: Swipe(0, (g.hands[0][0], g.hands[1][0]), 1),
        CardNotInHandError,
        "not in seat 0's hand",
    ),
    ("regroup three", lambda g: Regroup(0, g.hands[0][:3]), MalformedActionError, "0, 1 or 2"),
    ("regroup the same card twice", lambda g: Regroup(0, (g.hands[0][0],) * 2), MalformedActionError, "twice"),
    ("vault gift not in vault", lambda g: VaultExchange(0, g.hands[0][:2], 12), IllegalTargetError, "not in the vault"),
    ("react in the action phase", lambda g: React(1, c(g, 1, C.TRIPWIRE)), WrongPhaseError, "reaction"),
    ("timeout pass for a seat whose turn it is not", lambda g: TimeoutPass(1), OutOfTurnError, "seat 0's turn"),
    ("trim in the action phase", lambda g: Trim(0, g.hands[0][:2]), WrongPhaseError, "trim"),
    ("confirm reveal in the action phase", lambda g: ConfirmReveal(), WrongPhaseError, "reveal"),
    ("relay draw in the action phase", lambda g: DrawRelaySeat(), WrongPhaseError, "relay"),
    ("relay exchange in the action phase", lambda g: RelayExchange(Gift(500, "x")), WrongPhaseError, "relay"),
    ("not an action", lambda g: object(), MalformedActionError, "not an action"),
]

REACTION_CASES = [
    ("play during a window", lambda g: PlayCard(0, c(g, 0, C.SWITCHEROO), (2, 3)), WrongPhaseError, "reaction phase"),
    ("regroup during a window", lambda g: Regroup(0, ()), WrongPhaseError, "reaction phase"),
    ("active player reacts", lambda g: React(0, c(g, 0, C.NOT_SO_FAST)), OutOfTurnError, "not threatened"),
    ("unaffected player reacts", lambda g: React(3, None), OutOfTurnError, "not threatened"),
    ("react with a non-reaction", lambda g: React(1, 999), CardNotInHandError, "not in your hand"),
    (
        "react with someone else's card",
        lambda g: React(1, c(g, 0, C.NOT_SO_FAST)),
        CardNotInHandError,
        "not in your hand",
    ),
    ("timeout pass for an unaffected seat", lambda g: TimeoutPass(2), OutOfTurnError, "not threatened"),
    ("timeout pass for a nonexistent seat", lambda g: TimeoutPass(8), IllegalTargetError, "no seat 8"),
]


@pytest.mark.parametrize("name, make, error, fragment", ACTION_CASES, ids=[c[0] for c in ACTION_CASES])
def test_illegal_actions_in_the_action_phase(name, make, error, fragment):
    g = action_game()
    before = copy.deepcopy(g.to_dict())
    with pytest.raises(error) as err:
        apply(g, make(g))
    assert fragment in err.value.message
    assert isinstance(err.value, IllegalActionError) and isinstance(err.value, ValueError)
    assert err.value.rule == error.rule
    assert g.to_dict() == before


@pytest.mark.parametrize("name, make, error, fragment", REACTION_CASES, ids=[c[0] for c in REACTION_CASES])
def test_illegal_actions_during_a_reaction_window(name, make, error, fragment):
    g = reaction_game()
    before = copy.deepcopy(g.to_dict())
    with pytest.raises(error) as err:
        apply(g, make(g))
    assert fragment in err.value.message
    assert g.to_dict() == before


def test_react_with_a_non_reaction_card_in_hand():
    g = build(4, hands=[[C.SNATCH], [C.INSIDE_MAN], [], []])
    g1, _ = apply(g, PlayCard(0, one(g, 0, C.SNATCH), (1,)))
    before = g1.to_dict()
    with pytest.raises(IllegalCardError, match="INSIDE MAN is not a reaction"):
        apply(g1, React(1, one(g, 1, C.INSIDE_MAN)))
    assert g1.to_dict() == before


def test_a_failed_action_leaves_no_trace_and_a_good_one_does_not_touch_the_input():
    g = action_game()
    before = copy.deepcopy(g.to_dict())
    hands = list(g.hands)
    apply(g, PlayCard(0, one(g, 0, C.SNATCH), (1,)))
    assert g.to_dict() == before and g.hands == hands


def test_error_rule_codes():
    assert [
        e.rule
        for e in (
            IllegalActionError,
            MalformedActionError,
            WrongPhaseError,
            OutOfTurnError,
            CardNotInHandError,
            IllegalTargetError,
            IllegalCardError,
        )
    ] == ["illegal", "malformed", "phase", "turn", "hand", "target", "card"]


# --- the wire form --------------------------------------------------------------------------

MALFORMED_FRAMES = [
    ("not an object", [1, 2], "JSON object"),
    ("a string", "play", "JSON object"),
    ("no type", {"seat": 0}, "unknown action type"),
    ("unknown type", {"type": "cheat", "seat": 0}, "unknown action type"),
    ("non-string type", {"type": 3}, "unknown action type"),
    ("extra field", {"type": "regroup", "seat": 0, "cards": [], "gift": 1}, "unexpected fields"),
    ("missing seat", {"type": "play", "card": 3}, "missing field 'seat'"),
    ("missing card", {"type": "play", "seat": 0}, "missing field 'card'"),
    ("string seat", {"type": "play", "seat": "0", "card": 3}, "'seat' must be an integer"),
    ("bool seat", {"type": "react", "seat": True, "card": None}, "'seat' must be an integer"),
    ("float card", {"type": "play", "seat": 0, "card": 3.0}, "'card' must be an integer"),
    ("three targets", {"type": "play", "seat": 0, "card": 3, "targets": [1, 2, 3]}, "at most 2"),
    ("targets not a list", {"type": "play", "seat": 0, "card": 3, "targets": 1}, "list"),
    ("string target", {"type": "play", "seat": 0, "card": 3, "targets": ["1"]}, "list"),
    ("bad direction", {"type": "play", "seat": 0, "card": 3, "targets": [1, 2], "direction": "up"}, "direction"),
    ("unhashable direction", {"type": "play", "seat": 0, "card": 3, "direction": []}, "direction"),
    ("swipe without cards", {"type": "swipe", "seat": 0, "target": 1}, "missing field 'cards'"),
    ("swipe three cards", {"type": "swipe", "seat": 0, "cards": [1, 2, 3], "target": 1}, "at most 2"),
    ("swipe without target", {"type": "swipe", "seat": 0, "cards": [1, 2]}, "missing field 'target'"),
    ("regroup three", {"type": "regroup", "seat": 0, "cards": [1, 2, 3]}, "at most 2"),
    ("vault without gift", {"type": "vault", "seat": 0, "cards": [1, 2]}, "missing field 'gift'"),
    ("trim without cards", {"type": "trim", "seat": 0}, "missing field 'cards'"),
    ("timeout without seat", {"type": "timeout_pass"}, "missing field 'seat'"),
    ("confirm with a field", {"type": "confirm_reveal", "seat": 0}, "unexpected fields"),
    ("relay without gift", {"type": "relay_exchange"}, "relay_exchange needs gift"),
    ("relay gift extra key", {"type": "relay_exchange", "gift": {"id": 1, "description": "x", "by": 0}}, "needs gift"),
    ("relay gift bad description", {"type": "relay_exchange", "gift": {"id": 1, "description": 5}}, "description"),
    (
        "relay gift bad id",
        {"type": "relay_exchange", "gift": {"id": "1", "description": "x"}},
        "'id' must be an integer",
    ),
]


@pytest.mark.parametrize("name, frame, fragment", MALFORMED_FRAMES, ids=[f[0] for f in MALFORMED_FRAMES])
def test_parse_action_rejects_malformed_frames(name, frame, fragment):
    with pytest.raises(MalformedActionError) as err:
        parse_action(frame)
    assert fragment in err.value.message


ALL_ACTIONS = [
    PlayCard(0, 3, (1,)),
    PlayCard(2, 40, ()),
    PlayCard(1, 17, (0, 2), direction=Direction.COUNTERCLOCKWISE),
    PlayCard(1, 20, (0, 2), extra=5),
    Swipe(0, (1, 2), 3),
    Regroup(0, ()),
    Regroup(0, (4, 5)),
    VaultExchange(1, (6, 7), 90),
    React(2, 50),
    React(2, None),
    Trim(3, (1, 2, 3)),
    TimeoutPass(2),
    ConfirmReveal(),
    DrawRelaySeat(),
    RelayExchange(Gift(500, "teapot")),
]


@pytest.mark.parametrize("action", ALL_ACTIONS, ids=repr)
def test_wire_form_round_trips(action):
    d = action_to_dict(action)
    assert parse_action(d) == action
    assert parse_action(copy.deepcopy(d)) == action


def test_parsed_actions_are_applied_like_built_ones():
    g = action_game()
    snatch = one(g, 0, C.SNATCH)
    a = parse_action({"type": "play", "seat": 0, "card": snatch, "targets": [2]})
    assert apply(g, a)[0].to_dict() == apply(g, PlayCard(0, snatch, (2,)))[0].to_dict()
    assert ids(g, 0, C.SNATCH) == [snatch]
