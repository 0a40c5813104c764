"""Blinks Heist on paper (printables/game.py): its one-page rules card, on US Letter or
A4 (rules_card.py). A party prints the host's poster and table tents: the game is
played with real Blinks, the party only keeps the record."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from printables.game import GamePrintables, Handout, Printables

from .rules_card import blinks_rules_pdf

PRINTABLES: GamePrintables = Printables(
    rules_card=Handout(blinks_rules_pdf, papers=("letter", "a4")),
    poster_steps=gettext_noop(
        "Type your name. Your phone shows your table, your team and your turn once the host seats everyone."
    ),
)
