"""The two non-card actions (SWIPE, regroup) and the optional vault exchange."""

import pytest

from games.yankee import (
    CardNotInHandError,
    IllegalTargetError,
    MalformedActionError,
    OutOfTurnError,
    Phase,
    PlayCard,
    React,
    Regroup,
    Swipe,
    VaultExchange,
    apply,
    card_targets,
    public_view,
    waiting_for,
)
from tests.engine.builders import (
    C,
    act,
    assert_cards_conserved,
    build,
    draws,
    gift_id,
    of_type,
    one,
    top,
    vault_desc,
    vault_id,
)

G, V = gift_id, vault_id


# --- SWIPE ----------------------------------------------------------------------------------


def test_swipe_spends_any_two_cards_to_exchange_gifts():
    g = build(4, hands=[[C.NOT_SO_FAST, C.TRIPWIRE, C.SNATCH], [], [], []])
    cards = (one(g, 0, C.NOT_SO_FAST), one(g, 0, C.TRIPWIRE))  # reactions are "any cards" too
    g1, events = apply(g, Swipe(0, cards, 3))
    assert of_type(events, "swipe")[0].data == {"seat": 0, "target": 3, "cards": list(cards)}
    assert g1.hands[0] == (one(g, 0, C.SNATCH),) and g1.aside == list(cards)
    assert waiting_for(g1) == (3,) and g1.pending.label == "SWIPE"
    g2, events = apply(g1, React(3, None))
    assert g2.gifts == [G(3), G(1), G(2), G(0)]
    assert draws(events, "comeback") == [(3, 1, "comeback")]
    assert g2.discards == list(cards)


def test_swipe_cards_are_spent_even_if_blocked():
    g = build(4, hands=[[C.SNATCH, C.INSIDE_MAN], [C.NOT_SO_FAST], [], []])
    cards = tuple(g.hands[0])
    g1, events = act(g, Swipe(0, cards, 1), React(1, one(g, 1, C.NOT_SO_FAST)))
    assert g1.gifts == g.gifts
    assert g1.hands[0] == ()
    assert sorted(g1.discards) == sorted([*cards, one(g, 1, C.NOT_SO_FAST)])
    assert draws(events, "comeback") == []


def test_swipe_needs_exactly_two_cards_in_hand_and_another_player():
    g = build(4, hands=[[C.SNATCH, C.INSIDE_MAN, C.PICKPOCKET], [C.TRIPWIRE], [], []])
    a, b, c = g.hands[0]
    with pytest.raises(MalformedActionError, match="exactly 2"):
        apply(g, Swipe(0, (a,), 1))
    with pytest.raises(MalformedActionError, match="exactly 2"):
        apply(g, Swipe(0, (a, b, c), 1))
    with pytest.raises(MalformedActionError, match="twice"):
        apply(g, Swipe(0, (a, a), 1))
    with pytest.raises(CardNotInHandError):
        apply(g, Swipe(0, (a, g.hands[1][0]), 1))
    with pytest.raises(IllegalTargetError, match="yourself"):
        apply(g, Swipe(0, (a, b), 0))
    with pytest.raises(IllegalTargetError, match="no seat 4"):
        apply(g, Swipe(0, (a, b), 4))


# --- regroup --------------------------------------------------------------------------------


def test_regroup_zero_is_a_pass():
    g = build(4, hands=[[C.SNATCH, C.TRIPWIRE], [], [], []])
    g1, events = apply(g, Regroup(0, ()))
    assert g1.hands[0] == g.hands[0] and g1.gifts == g.gifts and g1.discards == []
    assert of_type(events, "regrouped")[0].data == {"seat": 0, "count": 0, "cards": []}
    assert draws(events) == [(1, 1, "turn")]
    assert g1.active == 1


@pytest.mark.parametrize("k", [1, 2])
def test_regroup_discards_k_and_draws_k(k):
    g = build(4, hands=[[C.SNATCH, C.TRIPWIRE, C.PICKPOCKET], [], [], []], draw=[C.INSIDE_MAN, C.INSIDE_MAN, C.SNATCH])
    gone = g.hands[0][:k]
    new = top(g, k)
    g1, events = apply(g, Regroup(0, gone))
    assert g1.hands[0] == (*g.hands[0][k:], *new)
    assert g1.discards == list(gone)
    assert draws(events)[0] == (0, k, "regroup")
    # no further card may be played after regrouping: the turn has passed
    assert g1.active == 1
    with pytest.raises(OutOfTurnError):
        apply(g1, PlayCard(0, g1.hands[0][0], (1,)))


def test_regroup_more_than_two_or_foreign_cards_is_rejected():
    g = build(4, hands=[[C.SNATCH, C.TRIPWIRE, C.PICKPOCKET], [C.INSIDE_MAN], [], []])
    with pytest.raises(MalformedActionError, match="0, 1 or 2"):
        apply(g, Regroup(0, g.hands[0]))
    with pytest.raises(CardNotInHandError):
        apply(g, Regroup(0, g.hands[1]))


# --- the vault ------------------------------------------------------------------------------


def test_vault_exchange_in_round_one():
    g = build(4, hands=[[C.SNATCH, C.TRIPWIRE, C.INSIDE_MAN], [], [], []], vault=3)
    cards = g.hands[0][:2]
    g1, events = apply(g, VaultExchange(0, cards, V(1)))
    # your gift goes where the taken one was; the vault keeps its size
    assert g1.gifts == [V(1), G(1), G(2), G(3)]
    assert g1.vault == [V(0), G(0), V(2)] and len(g1.vault) == len(g.vault)
    # the taken gift is revealed at once, even in round 1; the given gift stays wrapped
    assert g1.open == {V(1)}
    assert public_view(g1)["seats"][0]["description"] == vault_desc(1)
    assert public_view(g1)["vault"][1] == {"gift": G(0), "open": False, "description": None}
    ev = of_type(events, "vault_exchanged")[0]
    assert ev.to is None
    assert ev.data == {"seat": 0, "gave": G(0), "took": V(1), "description": vault_desc(1), "cards": list(cards)}
    # cannot be blocked (no window) and earns no comeback; it was the whole action
    assert of_type(events, "window_opened") == []
    assert draws(events) == [(1, 1, "turn")]
    assert g1.phase is Phase.ACTION and g1.active == 1
    assert g1.discards == list(cards) and g1.hands[0] == (one(g, 0, C.INSIDE_MAN),)
    assert_cards_conserved(g1)


def test_gift_returned_to_the_vault_keeps_its_open_state():
    g = build(4, hands=[[C.SNATCH, C.TRIPWIRE], [], [], []], vault=1, round=2)
    assert G(0) in g.open
    g1, _ = apply(g, VaultExchange(0, g.hands[0], V(0)))
    assert g1.vault == [G(0)] and G(0) in g1.open and V(0) in g1.open


def test_vault_exchange_errors():
    g = build(4, hands=[[C.SNATCH, C.TRIPWIRE, C.PICKPOCKET], [], [], []])
    with pytest.raises(IllegalTargetError, match="no vault"):
        apply(g, VaultExchange(0, g.hands[0][:2], V(0)))
    g = build(4, hands=[[C.SNATCH, C.TRIPWIRE, C.PICKPOCKET], [], [], []], vault=2)
    with pytest.raises(IllegalTargetError, match="not in the vault"):
        apply(g, VaultExchange(0, g.hands[0][:2], G(1)))  # a player's gift is not a vault gift
    with pytest.raises(MalformedActionError, match="exactly 2"):
        apply(g, VaultExchange(0, g.hands[0][:1], V(0)))
    with pytest.raises(OutOfTurnError):
        apply(g, VaultExchange(1, g.hands[0][:2], V(0)))


def test_vault_gifts_are_never_targets_of_cards():
    g = build(
        4,
        hands=[[C.CASE_THE_JOINT, C.SNATCH, C.SWITCHEROO, C.PICKPOCKET], [C.TRIPWIRE], [], []],
        vault=2,
    )
    for c in g.hands[0]:
        targets = card_targets(g, 0, c)
        assert targets is None or set(targets) <= {1, 2, 3}
    for bad in (V(0), V(1), 4, -1):
        with pytest.raises(IllegalTargetError):
            apply(g, PlayCard(0, one(g, 0, C.SNATCH), (bad,)))
        with pytest.raises(IllegalTargetError):
            apply(g, PlayCard(0, one(g, 0, C.CASE_THE_JOINT), (bad,)))
    # and nobody has peeked at a wrapped vault gift
    assert all(not {V(0), V(1)} & p for p in g.peeks)


def test_vault_gift_description_only_public_once_taken():
    g = build(3, hands=[[C.SNATCH, C.TRIPWIRE], [], []], vault=1)
    assert public_view(g)["vault"] == [{"gift": V(0), "open": False, "description": None}]
