"""The Blinks Heist rules engine: pure Python, no Django, no I/O, no clock.

Blinks Heist is played with real Blinks: thieves slid at a vault of gold Blinks. The
engine keeps the party's record of the table (the vault's health, the claims, whose
turn, the skips) from the throws the thrower records and the captain confirms:

    game, events = new_game(seed=..., players=5, vault=10)
    game, events = apply(game, Throw(seat=game.turn, throw=1, hit=3, touched=False))
    game, events = apply(game, Confirm(throw=1))

The seed draws who throws first. `BLINKS` is the game behind the party's seam.
"""

from .actions import Action, Confirm, EndTurn, Overrule, PassTurn, Throw, Undo, action_to_dict, parse_action
from .bots import Thrower, bot_action
from .catalogue import EVENTS, RULE_TEXT, rules_for_screens
from .definition import BLINKS, BlinksDefinition
from .errors import (
    AlreadyRecordedError,
    AlreadySettledError,
    ClaimedError,
    EndTurnError,
    IllegalActionError,
    MalformedActionError,
    NoSuchBlinkError,
    NoSuchSeatError,
    NoSuchThrowError,
    OutOfTurnError,
    UndoClosedError,
    WrongPhaseError,
)
from .legal import legal_actions, stand_in, waiting_for
from .rules import HEALTH, MAX_PLAYERS, MAX_VAULT, MIN_PLAYERS, MIN_VAULT, VAULT, apply, new_game, replay
from .state import Event, Game, Phase, Record
from .teams import COLOURS, TEAMS, balanced_teams, leaders, team_totals
from .views import PRIVATE_KEYS, public_view, seat_private, seat_view

__all__ = [
    "BLINKS",
    "COLOURS",
    "EVENTS",
    "HEALTH",
    "MAX_PLAYERS",
    "MAX_VAULT",
    "MIN_PLAYERS",
    "MIN_VAULT",
    "PRIVATE_KEYS",
    "RULE_TEXT",
    "TEAMS",
    "VAULT",
    "Action",
    "AlreadyRecordedError",
    "AlreadySettledError",
    "BlinksDefinition",
    "ClaimedError",
    "Confirm",
    "EndTurn",
    "EndTurnError",
    "Event",
    "Game",
    "IllegalActionError",
    "MalformedActionError",
    "NoSuchBlinkError",
    "NoSuchSeatError",
    "NoSuchThrowError",
    "OutOfTurnError",
    "Overrule",
    "PassTurn",
    "Phase",
    "Record",
    "Throw",
    "Thrower",
    "Undo",
    "UndoClosedError",
    "WrongPhaseError",
    "action_to_dict",
    "apply",
    "balanced_teams",
    "bot_action",
    "leaders",
    "legal_actions",
    "new_game",
    "parse_action",
    "public_view",
    "replay",
    "rules_for_screens",
    "seat_private",
    "seat_view",
    "stand_in",
    "team_totals",
    "waiting_for",
]
