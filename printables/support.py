"""The words on the 18 support cards (sheets 7-8 of the deck): 10 YOUR TURN references,
the four ROUND markers and four host aids. Written from the rulebook in our own words;
numbers (hand limit, deck sizes, cards removed for two players) come from the engine so
the paper and the app cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.yankee.cards import DECK_SIZE, TWO_PLAYER_REMOVED, deck_for
from games.yankee.rules import DEAL, HAND_LIMIT, MAX_VAULT


@dataclass(frozen=True)
class SupportCard:
    title: str  # top-left corner, like a play card's name
    kind: str  # the line under it
    heading: str  # a bigger line in the body (may be empty)
    body: tuple[str, ...]  # paragraphs


def _two_player_removed() -> str:
    return " and ".join(sorted(card.title for card in TWO_PLAYER_REMOVED))


YOUR_TURN = SupportCard(
    title="YOUR TURN",
    kind="REFERENCE",
    heading="",
    body=(
        "1  Draw 1 card.",
        "2  Then do exactly one:",
        "•  Play a MOVE or SCHEME and follow it.",
        "•  Cash in any 2 cards for a SWIPE: trade gifts with one player. They may block; the 2 cards are spent anyway.",
        "•  Regroup: discard 0, 1 or 2 and draw as many (0 is a pass).",
        "•  Vault (if there is one): discard 2, put your gift in, take any vault gift and show it.",
        f"3  Everyone whose gift moved, except you, draws 1 comeback card. Then anyone over {HAND_LIMIT} cards discards to {HAND_LIMIT}.",
    ),
)

ROUNDS = (
    SupportCard(
        title="THE SNOOP",
        kind="ROUND 1 OF 4",
        heading="Gifts stay wrapped.",
        body=(
            "One turn each, clockwise from START HERE.",
            "Peeks are private: keep what you learn to yourself, or bluff about it.",
            "When everyone has played: all unwrap and show the gift in front of them.",
            "Then pass START HERE one seat clockwise.",
        ),
    ),
    SupportCard(
        title="THE SCRAMBLE",
        kind="ROUND 2 OF 4",
        heading="Every gift is out in the open.",
        body=(
            "One turn each, clockwise from START HERE.",
            "A party of several tables waits here when the round ends: the relay comes next.",
            "Then pass START HERE one seat clockwise.",
        ),
    ),
    SupportCard(
        title="THE DOUBLE-CROSS",
        kind="ROUND 3 OF 4",
        heading="Gifts stay open when they move.",
        body=(
            "One turn each, clockwise from START HERE.",
            "No gift is ever locked: take one back on a later turn if you can.",
            "Then pass START HERE one seat clockwise.",
        ),
    ),
    SupportCard(
        title="LAST CALL",
        kind="ROUND 4 OF 4",
        heading="One final turn each.",
        body=(
            "Reactions and comeback draws work as always.",
            "Stop after the last action and its discards: no bonus steal, and cards left in hand are worth nothing.",
            "The gift in front of you is yours to keep.",
        ),
    ),
)

HOST_AIDS = (
    SupportCard(
        title="SETTING UP",
        kind="HOST AID",
        heading="About three minutes.",
        body=(
            "Deal the wrapped gifts at random; drawing your own is fine. Each player peeks at theirs in secret.",
            f"Shuffle the {DECK_SIZE} play cards and deal {DEAL} to each player, face down.",
            f"Two players: take out {_two_player_removed()} ({len(deck_for(2))} cards left); YANKEE HEIST makes one swap.",
            "Draw a name slip for the first START HERE.",
        ),
    ),
    SupportCard(
        title="BLOCK OR PASS?",
        kind="HOST AID",
        heading="Say the whole move before touching a gift.",
        body=(
            "Ask each player whose gift would move, once, clockwise from the active player.",
            "The first block stops that move; others keep their cards. A pass is final. No reactions to reactions.",
            "YANKEE HEIST asks again for its second swap. TRIPWIRE draws 2 at once.",
        ),
    ),
    SupportCard(
        title="THE RELAY",
        kind="HOST AID",
        heading="Several tables: between rounds 2 and 3.",
        body=(
            "Wait until every table has finished round 2. Announce the ring: A to B to C ... back to A.",
            "Each captain draws a seat slip. That player's gift goes to the next table's drawn seat, all at once.",
            "No blocks, no comeback cards. Then play rounds 3 and 4.",
        ),
    ),
    SupportCard(
        title="IF IN DOUBT",
        kind="HOST AID",
        heading="",
        body=(
            "Empty draw pile: shuffle the discards. Cards being played stay aside until the action ends.",
            "A card with no legal target cannot be played, but can pay for a SWIPE or a regroup.",
            f"Vault (1-{MAX_VAULT} extra gifts): never a target; leftovers go back to who gave them.",
            "Every steal is a swap: everyone always holds exactly one gift.",
        ),
    ),
)

YOUR_TURN_COPIES = 10


def support_cards() -> list[SupportCard]:
    """The 18 support cards in print order: 10 YOUR TURN, 4 rounds, 4 host aids."""
    return [YOUR_TURN] * YOUR_TURN_COPIES + list(ROUNDS) + list(HOST_AIDS)
