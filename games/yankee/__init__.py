"""The Yankee Heist rules engine: pure Python, no Django, no I/O, no clock.

    game, events = new_game(seed=..., gifts=[Gift(...), ...])
    game, events = apply(game, PlayCard(seat=..., card=..., targets=(...)))

Everything random comes from the game's own seeded generator, so a game replays
exactly from its seed and its actions.
"""

from .actions import (
    Action,
    ConfirmReveal,
    DrawRelaySeat,
    PlayCard,
    React,
    Regroup,
    RelayExchange,
    Swipe,
    TimeoutPass,
    Trim,
    VaultExchange,
    action_to_dict,
    parse_action,
)
from .cards import CARD_OF, Card, Kind, card_of, deck_for, target_count
from .catalogue import rules_for_screens
from .errors import (
    CardNotInHandError,
    IllegalActionError,
    IllegalCardError,
    IllegalTargetError,
    MalformedActionError,
    OutOfTurnError,
    WrongPhaseError,
)
from .legal import CLOCKED_PHASES, card_targets, playable_cards, reaction_cards, stand_in, waiting_for
from .rules import HAND_LIMIT, ROUND_NAMES, apply, new_game, replay
from .state import VAULT_ID_BASE, Direction, Event, Game, Gift, Phase, gift_label
from .views import public_view, seat_view

__all__ = [
    "CARD_OF",
    "CLOCKED_PHASES",
    "HAND_LIMIT",
    "ROUND_NAMES",
    "VAULT_ID_BASE",
    "Action",
    "Card",
    "CardNotInHandError",
    "ConfirmReveal",
    "Direction",
    "DrawRelaySeat",
    "Event",
    "Game",
    "Gift",
    "IllegalActionError",
    "IllegalCardError",
    "IllegalTargetError",
    "Kind",
    "MalformedActionError",
    "OutOfTurnError",
    "Phase",
    "PlayCard",
    "React",
    "Regroup",
    "RelayExchange",
    "Swipe",
    "TimeoutPass",
    "Trim",
    "VaultExchange",
    "WrongPhaseError",
    "action_to_dict",
    "apply",
    "card_of",
    "card_targets",
    "deck_for",
    "gift_label",
    "new_game",
    "parse_action",
    "playable_cards",
    "public_view",
    "reaction_cards",
    "replay",
    "rules_for_screens",
    "seat_view",
    "stand_in",
    "target_count",
    "waiting_for",
]
