"""The rulebook's worked example, "a trap in the middle"."""

from games.yankee import Phase, PlayCard, React, apply
from tests.engine.builders import C, assert_cards_conserved, build, draws, gift_id, of_type, one, top

ALEX, BEA, CAM, DEV = 0, 1, 2, 3


def test_rulebook_example_alex_bea_cam():
    """Alex uses YANKEE HEIST and pays its extra card. Bea blocks the first swap with
    TRIPWIRE, so both gifts stay put and Bea draws 2. Alex then swaps with Cam. After
    both attempts, Cam draws 1 comeback card; Alex draws none. Bea gets no comeback card
    because her gift did not move."""
    g = build(
        4,
        hands=[[C.YANKEE_HEIST, C.PICKPOCKET, C.SNATCH], [C.TRIPWIRE, C.SNATCH], [C.NOT_SO_FAST], []],
        draw=[C.INSIDE_MAN, C.SNATCH, C.CASE_THE_JOINT, C.PICKPOCKET],
    )
    heist, extra = one(g, ALEX, C.YANKEE_HEIST), one(g, ALEX, C.PICKPOCKET)
    trip = one(g, BEA, C.TRIPWIRE)
    bea_two, cam_comeback = top(g, 3)[0:2], top(g, 3)[2]

    # Alex uses YANKEE HEIST and pays its extra card.
    g1, _ = apply(g, PlayCard(ALEX, heist, (BEA, CAM), extra=extra))
    assert g1.hands[ALEX] == (one(g, ALEX, C.SNATCH),)
    assert g1.pending.window.affected == (BEA,)

    # Bea blocks the first swap with TRIPWIRE: both gifts stay put and Bea draws 2.
    g2, events = apply(g1, React(BEA, trip))
    assert g2.gifts == g.gifts
    assert draws(events) == [(BEA, 2, "tripwire")]
    assert g2.hands[BEA] == (one(g, BEA, C.SNATCH), *bea_two)

    # Alex then swaps with Cam (who may block but passes).
    assert g2.phase is Phase.REACTION and g2.pending.window.affected == (CAM,)
    g3, events = apply(g2, React(CAM, None))
    assert g3.gifts == [gift_id(CAM), gift_id(BEA), gift_id(ALEX), gift_id(DEV)]

    # After both attempts, Cam draws 1 comeback card; Alex and Bea draw none.
    assert draws(events, "comeback") == [(CAM, 1, "comeback")]
    assert g3.hands[CAM] == (one(g, CAM, C.NOT_SO_FAST), cam_comeback)
    assert g3.hands[ALEX] == (one(g, ALEX, C.SNATCH),)
    assert len(g3.hands[BEA]) == 3 + 1  # her 3, plus her own turn draw (Bea is next)
    assert draws(events) == [(CAM, 1, "comeback"), (BEA, 1, "turn")]
    assert len(of_type(events, "gifts_moved")) == 1
    assert sorted(g3.discards) == sorted([heist, extra, trip])
    assert_cards_conserved(g3)
