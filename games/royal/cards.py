"""The cards of Royal Heist: the 34-card run deck and the 16-card side stack.

A card is a short code, rank then suit: "7H" is the 7 of hearts, "QS" the Queen of
spades, "X1" and "X2" the two Jokers. Codes are JSON as they are and read the same on a
screen, in the stored state and in a test. The four 10s are set aside and never appear.
"""

from __future__ import annotations

from collections.abc import Callable

from games.marks import gettext_noop  # titles and rank names are translated where shown

SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
# A card's title by its suit, a whole phrase (word order differs by language).
TITLE_OF_SUIT = {
    "S": gettext_noop("%(rank)s of spades"),
    "H": gettext_noop("%(rank)s of hearts"),
    "D": gettext_noop("%(rank)s of diamonds"),
    "C": gettext_noop("%(rank)s of clubs"),
}
FACES = ("J", "Q", "K", "A")
JOKER = "X"  # the two Jokers' one rank ("The two Jokers count as one rank")
DANGER_RANKS = (*FACES, JOKER)
RANK_NAMES = {
    "J": gettext_noop("Jack"),
    "Q": gettext_noop("Queen"),
    "K": gettext_noop("King"),
    "A": gettext_noop("Ace"),
    JOKER: gettext_noop("Joker"),
}
SPOTS = tuple(range(2, 10))  # 2 to 9

# "the Jack, Queen, King, and Ace of every suit, the 2 to 9 of hearts and diamonds, and
# both Jokers."
RUN_DECK: tuple[str, ...] = (
    *(f"{face}{suit}" for suit in SUITS for face in FACES),
    *(f"{spot}{suit}" for suit in "HD" for spot in SPOTS),
    f"{JOKER}1",
    f"{JOKER}2",
)
# "the 2 to 9 of spades and clubs."
SIDE_STACK: tuple[str, ...] = tuple(f"{spot}{suit}" for suit in "SC" for spot in SPOTS)

assert len(RUN_DECK) == 34 and len(set(RUN_DECK)) == 34
assert len(SIDE_STACK) == 16 and not set(SIDE_STACK) & set(RUN_DECK)


def rank_of(card: str) -> str:
    """ "J", "Q", "K", "A", "X" (a Joker) or "2".."9"."""
    return card[0]


def is_danger(card: str) -> bool:
    """A Jack, Queen, King, Ace or Joker: pays nothing, and a second of its rank ends the heist."""
    return card[0] in DANGER_RANKS


def is_bonus(card: str) -> bool:
    """A 2 to 9 of diamonds: draws the top card of the side stack."""
    return card[1] == "D" and not is_danger(card)


def spot_value(card: str) -> int:
    """A 2 to 9's rank as a number of jewels (a hearts room, a diamond, a side-stack card)."""
    return int(card[0])


def title(card: str, say: Callable[[str], str] = str) -> str:
    """The card as a person says it: "7 of hearts", "Queen of spades", "Joker". `say`: the
    translation of a marked text (the server's gettext), English without."""
    rank = card[0]
    if rank == JOKER:
        return say(RANK_NAMES[JOKER])
    return say(TITLE_OF_SUIT[card[1]]) % {"rank": say(RANK_NAMES[rank]) if rank in RANK_NAMES else rank}


def kind(card: str) -> str:
    """ "danger", "loot" (hearts) or "bonus" (diamonds, with a side-stack card)."""
    if is_danger(card):
        return "danger"
    return "bonus" if is_bonus(card) else "loot"


__all__ = [
    "DANGER_RANKS",
    "FACES",
    "JOKER",
    "RANK_NAMES",
    "RUN_DECK",
    "SIDE_STACK",
    "SUITS",
    "is_bonus",
    "is_danger",
    "kind",
    "rank_of",
    "spot_value",
    "title",
]
