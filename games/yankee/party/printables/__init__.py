"""Yankee Heist on paper (printables/game.py): the print-and-play deck (deck.py, its
support cards in support.py) and, among a party's printables, the name and relay slips
and a scorecard per table (sheets.py)."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from printables.game import GamePrintables, Handout, PartySheet, Printables

from .deck import deck_pdf
from .sheets import draw_scorecard, draw_slips


def _deck(paper: str) -> bytes:
    return deck_pdf()  # US Letter only: the cut grid is the rulebook's 3 x 3 cards


PRINTABLES: GamePrintables = Printables(
    deck=Handout(_deck),
    sheets=(
        PartySheet("slips", gettext_noop("Name & relay slips"), draw_slips),
        PartySheet("scorecard", gettext_noop("Scorecards"), draw_scorecard),
    ),
    poster_steps=gettext_noop(
        "Type your name and, in secret, what your gift is. Then write the number your phone shows on your wrapped gift."
    ),
)
