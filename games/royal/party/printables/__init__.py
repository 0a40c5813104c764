"""Royal Heist on paper (printables/game.py): its one-page rules card, on US Letter or A4
(rules_card.py, its words in rules_words.py). A party prints the host's poster and
table tents only: the game is played with an ordinary deck of cards."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from printables.game import GamePrintables, Handout, Printables

from .rules_card import royal_rules_pdf

PRINTABLES: GamePrintables = Printables(
    rules_card=Handout(royal_rules_pdf, papers=("letter", "a4")),
    poster_steps=gettext_noop(
        "Type your name. Your phone shows your table and your seat once the host seats everyone."
    ),
)
