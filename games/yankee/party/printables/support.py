"""The words on the 18 support cards (sheets 7-8 of the deck): 10 YOUR TURN references,
the four ROUND markers and four host aids. Written from the rulebook in our own words;
numbers (hand limit, deck sizes, cards removed for two players) come from the engine so
the paper and the app cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.yankee.cards import DECK_SIZE, TWO_PLAYER_REMOVED, deck_for
from games.yankee.rules import DEAL, HAND_LIMIT, MAX_VAULT


@dataclass(frozen=True)
class SupportCard:
    title: str  # top-left corner, like a play card's name
    kind: str  # the line under it
    heading: str  # a bigger line in the body (may be empty)
    body: tuple[str, ...]  # paragraphs


def _two_player_removed() -> str:
    names = sorted(card.title for card in TWO_PLAYER_REMOVED)
    if len(names) == 2:
        return _("%(first)s and %(second)s") % {"first": names[0], "second": names[1]}
    return ", ".join(names)


def numbers() -> dict[str, Any]:
    """The engine's numbers the words name (%(name)s in a card's text), filled in when
    the card is printed, in the language it is printed in."""
    return {
        "hand_limit": HAND_LIMIT,
        "deck_size": DECK_SIZE,
        "deal": DEAL,
        "removed": _two_player_removed(),
        "left": len(deck_for(2)),
        "max_vault": MAX_VAULT,
    }


def translated(text: str) -> str:
    """One of the texts below (a msgid) in the active language, its numbers filled in."""
    return _(text) % numbers() if text else text


YOUR_TURN = SupportCard(
    title=gettext_noop("YOUR TURN"),
    kind=gettext_noop("REFERENCE"),
    heading="",
    body=(
        gettext_noop("1  Draw 1 card."),
        gettext_noop("2  Then do exactly one:"),
        gettext_noop("•  Play a MOVE or SCHEME and follow it."),
        gettext_noop(
            "•  Cash in any 2 cards for a SWIPE: trade gifts with one player. They may block; the 2 cards are spent anyway."
        ),
        gettext_noop("•  Regroup: discard 0, 1 or 2 and draw as many (0 is a pass)."),
        gettext_noop("•  Vault (if there is one): discard 2, put your gift in, take any vault gift and show it."),
        gettext_noop(
            "3  Everyone whose gift moved, except you, draws 1 comeback card. Then anyone over %(hand_limit)s cards discards to %(hand_limit)s."
        ),
    ),
)

ROUNDS = (
    SupportCard(
        title="THE SNOOP",
        kind=gettext_noop("ROUND 1 OF 4"),
        heading=gettext_noop("Gifts stay wrapped."),
        body=(
            gettext_noop("One turn each, clockwise from START HERE."),
            gettext_noop("Peeks are private: keep what you learn to yourself, or bluff about it."),
            gettext_noop("When everyone has played: all unwrap and show the gift in front of them."),
            gettext_noop("Then pass START HERE one seat clockwise."),
        ),
    ),
    SupportCard(
        title="THE SCRAMBLE",
        kind=gettext_noop("ROUND 2 OF 4"),
        heading=gettext_noop("Every gift is out in the open."),
        body=(
            gettext_noop("One turn each, clockwise from START HERE."),
            gettext_noop("A party of several tables waits here when the round ends: the relay comes next."),
            gettext_noop("Then pass START HERE one seat clockwise."),
        ),
    ),
    SupportCard(
        title="THE DOUBLE-CROSS",
        kind=gettext_noop("ROUND 3 OF 4"),
        heading=gettext_noop("Gifts stay open when they move."),
        body=(
            gettext_noop("One turn each, clockwise from START HERE."),
            gettext_noop("No gift is ever locked: take one back on a later turn if you can."),
            gettext_noop("Then pass START HERE one seat clockwise."),
        ),
    ),
    SupportCard(
        title="LAST CALL",
        kind=gettext_noop("ROUND 4 OF 4"),
        heading=gettext_noop("One final turn each."),
        body=(
            gettext_noop("Reactions and comeback draws work as always."),
            gettext_noop(
                "Stop after the last action and its discards: no bonus steal, and cards left in hand are worth nothing."
            ),
            gettext_noop("The gift in front of you is yours to keep."),
        ),
    ),
)

HOST_AIDS = (
    SupportCard(
        title=gettext_noop("SETTING UP"),
        kind=gettext_noop("HOST AID"),
        heading=gettext_noop("About three minutes."),
        body=(
            gettext_noop(
                "Deal the wrapped gifts at random; drawing your own is fine. Each player peeks at theirs in secret."
            ),
            gettext_noop("Shuffle the %(deck_size)s play cards and deal %(deal)s to each player, face down."),
            gettext_noop("Two players: take out %(removed)s (%(left)s cards left); YANKEE HEIST makes one swap."),
            gettext_noop("Draw a name slip for the first START HERE."),
        ),
    ),
    SupportCard(
        title=gettext_noop("BLOCK OR PASS?"),
        kind=gettext_noop("HOST AID"),
        heading=gettext_noop("Say the whole move before touching a gift."),
        body=(
            gettext_noop("Ask each player whose gift would move, once, clockwise from the active player."),
            gettext_noop(
                "The first block stops that move; others keep their cards. A pass is final. No reactions to reactions."
            ),
            gettext_noop("YANKEE HEIST asks again for its second swap. TRIPWIRE draws 2 at once."),
        ),
    ),
    SupportCard(
        title=gettext_noop("THE RELAY"),
        kind=gettext_noop("HOST AID"),
        heading=gettext_noop("Several tables: between rounds 2 and 3."),
        body=(
            gettext_noop("Wait until every table has finished round 2. Announce the ring: A to B to C ... back to A."),
            gettext_noop(
                "Each captain draws a seat slip. That player's gift goes to the next table's drawn seat, all at once."
            ),
            gettext_noop("No blocks, no comeback cards. Then play rounds 3 and 4."),
        ),
    ),
    SupportCard(
        title=gettext_noop("IF IN DOUBT"),
        kind=gettext_noop("HOST AID"),
        heading="",
        body=(
            gettext_noop("Empty draw pile: shuffle the discards. Cards being played stay aside until the action ends."),
            gettext_noop("A card with no legal target cannot be played, but can pay for a SWIPE or a regroup."),
            gettext_noop("Vault (1-%(max_vault)s extra gifts): never a target; leftovers go back to who gave them."),
            gettext_noop("Every steal is a swap: everyone always holds exactly one gift."),
        ),
    ),
)

YOUR_TURN_COPIES = 10


def support_cards() -> list[SupportCard]:
    """The 18 support cards in print order: 10 YOUR TURN, 4 rounds, 4 host aids."""
    return [YOUR_TURN] * YOUR_TURN_COPIES + list(ROUNDS) + list(HOST_AIDS)
