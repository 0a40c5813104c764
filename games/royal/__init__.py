"""The Royal Heist rules engine: pure Python, no Django, no I/O, no clock.

    game, events = new_game(seed=..., players=5)
    game, events = apply(game, Decide(seat=0, press_on=True))

Everything random comes from the game's own seeded generator, so a game replays
exactly from its seed and its actions. `ROYAL` is the game behind the party's seam.
"""

from .actions import Action, Decide, OpenGate, TimeoutDecide, action_to_dict, parse_action
from .bots import Coin, DangerLimit, SatchelThreshold, Strategy, bot_action, strategy_action
from .catalogue import rules_for_screens
from .definition import ROYAL, RoyalDefinition
from .errors import (
    AlreadyDecidedError,
    IllegalActionError,
    MalformedActionError,
    NoSuchSeatError,
    NotInsideError,
    OutOfTurnError,
    WrongPhaseError,
)
from .legal import legal_actions, stand_in, waiting_for
from .rules import (
    HEISTS,
    MAX_GAMES,
    MAX_HEISTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    apply,
    gate_after,
    gate_point,
    new_game,
    replay,
)
from .state import Event, Game, Phase, Room
from .views import PRIVATE_KEYS, public_view, seat_private, seat_view

__all__ = [
    "HEISTS",
    "MAX_GAMES",
    "MAX_HEISTS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PRIVATE_KEYS",
    "ROYAL",
    "Action",
    "AlreadyDecidedError",
    "Coin",
    "DangerLimit",
    "Decide",
    "Event",
    "Game",
    "IllegalActionError",
    "MalformedActionError",
    "NoSuchSeatError",
    "NotInsideError",
    "OpenGate",
    "OutOfTurnError",
    "Phase",
    "Room",
    "RoyalDefinition",
    "SatchelThreshold",
    "Strategy",
    "TimeoutDecide",
    "WrongPhaseError",
    "action_to_dict",
    "apply",
    "bot_action",
    "gate_after",
    "gate_point",
    "legal_actions",
    "new_game",
    "parse_action",
    "public_view",
    "replay",
    "rules_for_screens",
    "seat_private",
    "seat_view",
    "stand_in",
    "strategy_action",
    "waiting_for",
]
