"""`{% printables_menu party %}`: the host dashboard's Printables panel for the party's
game: the host's kinds and the game's (printables/game.py), and the game's deck and
rules card when it has them. The buttons are drawn by static/heist/printables.js."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from events.models import Party
from printables.game import printables_of
from printables.party import kinds_of
from printables.services import file_slug

register = template.Library()

HOST_LABELS = {  # msgids: the host's kinds' buttons
    "all": gettext_noop("Everything"),
    "poster": gettext_noop("Join poster"),
    "labels": gettext_noop("Gift labels"),
    "tents": gettext_noop("Table tents"),
}


@register.inclusion_tag("printables/menu.html")
def printables_menu(party: Party) -> dict[str, Any]:
    printables = printables_of(party.game)
    labels = HOST_LABELS | {sheet.kind: sheet.label for sheet in printables.sheets}
    kinds = [{"kind": kind, "label": _(labels[kind])} for kind in ("all", *kinds_of(party.game))]
    return {
        "party": party,
        "kinds": kinds,
        "slug": file_slug(party.game),
        "deck_url": reverse("deck-pdf", args=[party.game]) if printables.deck else None,
        "rules_url": reverse("rules-pdf", args=[party.game]) if printables.rules_card else None,
    }
