"""What the screens need to know of the rules, as one JSON-able dict, derived from the
engine's own declarations so a rule changed here reaches the screens with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .letters import COMMON, DECK_BY_PLAYERS, QU, RARE, SHOWCASE_BONUS, VOWELS
from .rules import MAX_PLAYERS, MAX_TOKENS, MIN_PLAYERS, MIN_TOKENS, ROUNDS, gate_after
from .spelling import LANGUAGES, MAX_LETTERS, MIN_LETTERS
from .vault import CARDS


def rules_for_screens(say: Callable[[str], str] = str) -> dict[str, Any]:
    """The rules as the screens use them (a fresh dict each call; plain JSON only).
    `say`: the translation of a marked text (the server passes gettext): the Bonus Vault
    cards' texts.

    {
      "letters": {"common": [...13], "rare": [...8], "vowels": [...5], "qu": "Q"},
      "deck": {"2": [3, 1, 2], ...},       # common, rare, vowels by players
      "showcase": [1, 2],
      "tokens": {"min": 1, "max": 5},
      "word": {"min": 3, "max": 24},
      "rounds": 3, "gate_after": 1, "final_multiplier": 2,
      "vault": {"longest": {"text": ..., "points": 2}, ...},   # the 20 cards
      "languages": ["en", "es", "de"],
      "players": {"min": 2, "max": 6},
    }
    """
    return {
        "letters": {"common": list(COMMON), "rare": list(RARE), "vowels": list(VOWELS), "qu": QU},
        "deck": {str(n): list(split) for n, split in DECK_BY_PLAYERS.items()},
        "showcase": list(SHOWCASE_BONUS),
        "tokens": {"min": MIN_TOKENS, "max": MAX_TOKENS},
        "word": {"min": MIN_LETTERS, "max": MAX_LETTERS},
        "rounds": ROUNDS,
        "gate_after": gate_after(ROUNDS),
        "final_multiplier": 2,
        "vault": {card.code: {"text": say(card.text), "points": card.points} for card in CARDS},
        "languages": list(LANGUAGES),
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
    }


__all__ = ["rules_for_screens"]
