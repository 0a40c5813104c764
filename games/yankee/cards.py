"""The 54-card play deck of GAME.md: every card has a fixed id, 0 to 53.

Ids let every physical card be tracked to exactly one place (a hand, the draw pile,
the discards, or set aside while an action resolves), which is what the
card-conservation invariant checks.
"""

from __future__ import annotations

import enum

from games.marks import gettext_noop  # the effects are translated where shown


class Kind(enum.Enum):
    MOVE = "MOVE"
    SCHEME = "SCHEME"
    REACTION = "REACTION"


class Card(enum.Enum):
    """A card type: (printed title, kind, copies in the deck, other players it names when
    played, effect text). A reaction names nobody: it answers a move."""

    SNATCH = ("SNATCH", Kind.MOVE, 10, 1, gettext_noop("Swap your gift with one other player's gift."))
    SWITCHEROO = (
        "SWITCHEROO",
        Kind.MOVE,
        6,
        2,
        gettext_noop("Swap the gifts of two other players. Your gift does not move."),
    )
    THREE_GIFT_GRIFT = (
        "THREE-GIFT GRIFT",
        Kind.MOVE,
        4,
        2,
        gettext_noop("Rotate the gifts of you and two other players, in the direction you name."),
    )
    YANKEE_HEIST = (
        "YANKEE HEIST",
        Kind.MOVE,
        4,
        2,
        gettext_noop(
            "Discard one more card to play it. Name two different players: swap with the first, then with the second."
        ),
    )
    CASE_THE_JOINT = (
        "CASE THE JOINT",
        Kind.SCHEME,
        4,
        1,
        gettext_noop("Privately see the description of one other player's still-wrapped gift."),
    )
    INSIDE_MAN = ("INSIDE MAN", Kind.SCHEME, 6, 0, gettext_noop("Draw 2 cards."))
    PICKPOCKET = ("PICKPOCKET", Kind.SCHEME, 6, 1, gettext_noop("Take one card at random from another player's hand."))
    NOT_SO_FAST = ("NOT SO FAST", Kind.REACTION, 8, 0, gettext_noop("Block a move that threatens your gift."))
    TRIPWIRE = ("TRIPWIRE", Kind.REACTION, 6, 0, gettext_noop("Block a move that threatens your gift, then draw 2."))

    def __init__(self, title: str, kind: Kind, copies: int, targets: int, effect: str) -> None:
        self.title = title
        self.kind = kind
        self.copies = copies
        self.targets = targets
        self.effect = effect


# Card id -> card type. The order is fixed forever: stored games refer to these ids.
CARD_OF: tuple[Card, ...] = tuple(card for card in Card for _ in range(card.copies))
DECK_SIZE = len(CARD_OF)
assert DECK_SIZE == 54

REACTION_IDS = frozenset(cid for cid, card in enumerate(CARD_OF) if card.kind is Kind.REACTION)

# Rulebook setup step 4: two players play without these.
TWO_PLAYER_REMOVED = frozenset({Card.SWITCHEROO, Card.THREE_GIFT_GRIFT})


def target_count(card: Card, players: int) -> int:
    """How many other players `card` names at a table of `players`. The one exception to
    the printed count: with two players YANKEE HEIST names the one other player, once
    (one swap attempt; it still costs the extra card)."""
    if card is Card.YANKEE_HEIST and players == 2:
        return 1
    return card.targets


def deck_for(players: int) -> list[int]:
    """The card ids in play for a table of `players` (54, or 44 for two)."""
    if players == 2:
        return [cid for cid, card in enumerate(CARD_OF) if card not in TWO_PLAYER_REMOVED]
    return list(range(DECK_SIZE))


def card_of(card_id: int) -> Card:
    return CARD_OF[card_id]
