"""What the screens need to know of the rules, as one JSON-able dict.

The phones, the host's dashboard and the big screen draw cards, ask for targets and
label gifts; they read these facts from here (sent by the server) instead of keeping a
copy of the rules in the JavaScript. Everything below is derived from the engine's own
declarations, so a rule changed in the engine reaches the screens with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import CARD_OF, TWO_PLAYER_REMOVED, Card, target_count
from .rules import HAND_LIMIT, MAX_PLAYERS, MAX_VAULT, MIN_PLAYERS, ROUND_NAMES
from .state import VAULT_ID_BASE


def rules_for_screens(say: Callable[[str], str] = str) -> dict[str, Any]:
    """The rules as the screens use them (a fresh dict each call; plain JSON types only).
    `say`: the translation of a marked text (the server passes gettext); the effects are
    said in it, the printed titles and round names stay as printed.

    {
      "cards": {                      # by engine name (a view's card["card"]), deck order
        "SNATCH": {
          "title": "SNATCH",          # the printed title
          "kind": "MOVE",             # MOVE | SCHEME | REACTION
          "copies": 10,               # in the 54-card deck
          "effect": "Swap your gift ...",
          "targets": 1,               # other players named when played, 3-10 players
          "targets_two_players": 1,   # the same at a two-player table (YANKEE HEIST: 1)
          "in_two_player_deck": true, # SWITCHEROO and THREE-GIFT GRIFT are removed
        }, ...
      },
      "deck": ["SNATCH", ...],        # card id -> engine name, 54 entries
      "rounds": {"1": "THE SNOOP", ...},
      "hand_limit": 5,
      "players": {"min": 2, "max": 10},
      "vault": {"max": 3, "id_base": 1000},  # vault gift id = id_base + its number (V1 = 1001)
    }
    """
    return {
        "cards": {
            card.name: {
                "title": card.title,
                "kind": card.kind.value,
                "copies": card.copies,
                "effect": say(card.effect),
                "targets": card.targets,
                "targets_two_players": target_count(card, 2),
                "in_two_player_deck": card not in TWO_PLAYER_REMOVED,
            }
            for card in Card
        },
        "deck": [card.name for card in CARD_OF],
        "rounds": {str(n): name for n, name in ROUND_NAMES.items()},
        "hand_limit": HAND_LIMIT,
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        "vault": {"max": MAX_VAULT, "id_base": VAULT_ID_BASE},
    }
