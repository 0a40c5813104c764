"""What the screens need to know of the rules, as one JSON-able dict, derived from the
engine's own declarations so a rule changed here reaches the screens with it; and the
catalogue of what the engine says: each refusal's rule with the sentence a guest reads,
each event type with what it tells."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.marks import gettext_noop

from .rules import HEALTH, MAX_PLAYERS, MAX_VAULT, MIN_PLAYERS, MIN_VAULT, VAULT
from .teams import COLOUR_NAMES, COLOURS

# One whole sentence per rule a refusal names (errors.py), for the guest who sent it.
RULE_TEXT = {
    "seat": gettext_noop("There is no such seat at this table."),
    "turn": gettext_noop("It is not your turn to throw."),
    "phase": gettext_noop("That cannot be done at this point of the game."),
    "malformed": gettext_noop("That action is not one the game understands."),
    "blink": gettext_noop("There is no such Blink in this vault."),
    "claimed": gettext_noop("That Blink is claimed already: it has left the vault."),
    "recorded": gettext_noop("That throw is recorded already: it counts once."),
    "settled": gettext_noop("That throw is settled already."),
    "throw": gettext_noop("That is not the throw the table is on."),
    "undo": gettext_noop("Only the last throw can be taken back, before the next is recorded."),
    "end_turn": gettext_noop("You can end your turn only after a hit, with the alternate rule."),
}

# Every event the engine emits (all public: the table sees every throw), and its fields.
EVENTS = {
    "game_started": ("players", "vault", "health", "alternate", "teams"),
    "turn": ("seat", "turn"),
    "recorded": ("throw", "seat", "hit", "touched"),
    "settled": ("throw", "seat", "hit", "touched", "by"),
    "damaged": ("blink", "health", "seat", "team"),
    "claimed": ("blink", "seat", "team", "left"),
    "skip_earned": ("seat", "reason"),
    "skipped": ("seat",),
    "undone": ("throw", "seat", "hit", "touched"),
    "turn_ended": ("seat", "throws"),
    "passed": ("seat",),
    "game_over": ("claims", "winners", "teams", "winning_teams"),
}


def rules_for_screens(say: Callable[[str], str] = str) -> dict[str, Any]:
    """The rules as the screens use them (a fresh dict each call; plain JSON types only).
    `say`: the translation of a marked text (the server passes gettext).

    {
      "health": 4,                              # each vault Blink's
      "vault": {"default": 10, "min": 3, "max": 30},
      "players": {"min": 2, "max": 8},
      "teams": [{"team": 0, "colour": "red", "name": "Red"}, ...],   # four
      "outcomes": ["hit", "miss", "touched"],   # a record: a hit (a Blink) or a miss, and a touch
      "pass_default": "pass_turn",              # what the throw clock's stand-in does
      "rules": {"claimed": "That Blink is claimed already: ...", ...},
      "events": {"damaged": ["blink", "health", "seat", "team"], ...},
    }
    """
    return {
        "health": HEALTH,
        "vault": {"default": VAULT, "min": MIN_VAULT, "max": MAX_VAULT},
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        "teams": [{"team": t, "colour": c, "name": say(COLOUR_NAMES[c])} for t, c in enumerate(COLOURS)],
        "outcomes": ["hit", "miss", "touched"],
        "pass_default": "pass_turn",
        "rules": {rule: say(text) for rule, text in RULE_TEXT.items()},
        "events": {kind: list(fields) for kind, fields in EVENTS.items()},
    }


__all__ = ["EVENTS", "RULE_TEXT", "rules_for_screens"]
