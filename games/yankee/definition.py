"""Yankee Heist behind the seam (games/definition.py): `YANKEE`, the engine as the host sees it.

Nothing here changes a rule: every method hands over to the engine (rules.py, legal.py,
views.py, bots.py). What this module adds is what the seam asks and the engine had left
to the host: the setup's options, every legal action listed, who may send which action,
and the step clocks' names and seconds (as tables/clock.py and docs/RULES.md, "When a
guest does not answer", time them today).

Results: Yankee Heist has no score and no winner (everybody leaves with a gift), so
`standings` gives every seat score 0, rank 1 and winner False.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from games.definition import (
    ChecksSeen,
    Clock,
    Features,
    GameDefinition,
    HidesInformation,
    HoldsGifts,
    NamesDuties,
    NamesRules,
    NamesWireTypes,
    RelaysGifts,
    Role,
    Setup,
    Standing,
)
from games.event import Event
from games.marks import gettext_noop as _

from . import bots, catalogue, hidden, legal, rules, views
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
from .cards import Card, card_of, target_count
from .errors import MalformedActionError
from .state import VAULT_ID_BASE, Direction, Game, Gift, Phase, gift_label, open_window

# The step each clocked phase is (the names static/heist/standin.js and docs/RULES.md
# use), and its default seconds: the party's default step clock (events/models.py
# DEFAULT_STEP_CLOCK, 2 minutes) for a turn, a trim and the reveal; a reaction keeps the
# rulebook's "the host can pass an unanswered reaction after 60 seconds" whatever the
# party's clock (tables/clock.py REACTION_TIMEOUT_SECONDS), the shorter of the two.
# The words of the host's stand-in buttons and alerts for each clocked step
# (games/definition.py NamesSteps); the reveal is the captain's duty, no seat's to stand in for.
STEP_TEXTS: Mapping[str, Mapping[str, str]] = {
    "turn": {
        "stand_in": _("Pass the turn for %(name)s"),
        "before": _("The turn may be played for them in "),
        "waited": _("Table %(letter)s: a turn has waited %(seconds)s s for %(names)s"),
    },
    "trim": {
        "stand_in": _("Discard at random for %(name)s"),
        "before": _("The discard may be played for them in "),
        "waited": _("Table %(letter)s: a discard has waited %(seconds)s s for %(names)s"),
    },
    "reaction": {
        "stand_in": _("Pass for %(name)s"),
        "waited": _("Table %(letter)s: a reaction has waited %(seconds)s s for %(names)s"),
    },
}
# What the host's dashboard says of the step clock and the captain's duties
# (games/definition.py NamesDuties): the steps STEP_SECONDS times, each one's stand-in
# (docs/RULES.md, "When a guest does not answer"), the rulebook's reaction pass that
# holds with the clock off, and what a captain's tablet does (the reveal, the passes,
# the relay's draw and delivery, a hand-over); the host's form says the first in two
# short hints.
DUTY_TEXTS: Mapping[str, str] = {
    "clock": _(
        "How long a quiet guest's turn, reaction, discard or reveal may wait. Then the table's captain or you "
        "may play the rules' do-nothing choice for them: pass the turn, discard at random, let the move happen, "
        "start round 2."
    ),
    "clock_off": _("Off: every step waits for its guest (a reaction may still be passed after 60 s)."),
    "tablet": _(
        "No tablet yet. The captain's duties (reveal, passing for a quiet guest once the step clock runs out, "
        "relay draw and delivery, hand-over) can run on a tablet at the table."
    ),
    "clock_hint": _("how long a turn, a reaction, a discard or the reveal may wait for one quiet guest"),
    "stand_in_hint": _("else the captain or you may: pass, discard at random, let it happen"),
}
# The sentence a guest reads of a refusal by one of Yankee Heist's own rules when the
# party speaks another language than English (games/definition.py NamesRules; the shared
# rules' are the host's): its cards, its reaction window, its relay draw.
RULE_TEXTS: Mapping[str, str] = {
    "hand": _("That card is not in your hand."),
    "target": _("That card cannot name that target."),
    "card": _("That card cannot be played this way."),
    "window": _("That answer came too late: the reaction window has closed."),
    "answered": _("This seat has already answered (a pass is final)."),
    "relay_drawn": _("The relay seat is already drawn."),
    "relay_not_drawn": _("Draw the relay seat first."),
}
STEP_OF_PHASE = {Phase.ACTION: "turn", Phase.REACTION: "reaction", Phase.TRIM: "trim", Phase.REVEAL: "reveal"}
DEFAULT_STEP_SECONDS = 120.0
REACTION_SECONDS = 60.0
STEP_SECONDS: Mapping[str, float] = {
    "turn": DEFAULT_STEP_SECONDS,
    "reaction": REACTION_SECONDS,
    "trim": DEFAULT_STEP_SECONDS,
    "reveal": DEFAULT_STEP_SECONDS,
}

# Who sends what (`role_of`, and by wire type `WIRE_ROLES`). A clock's pass
# (TimeoutPass) is a duty: the captain, the tablet or the host plays it once the step's
# clock ran out, and the server's own clock plays it as the captain would.
_SEAT_TYPES = (PlayCard, Swipe, Regroup, VaultExchange, React, Trim)
_DUTY_TYPES = (ConfirmReveal, DrawRelaySeat, TimeoutPass)
_SEATED_TYPES = (PlayCard, Swipe, Regroup, VaultExchange, React, Trim, TimeoutPass)  # actions naming a seat

# The same by wire type: the host refuses a frame its sender may never send before
# parsing it (games/definition.py NamesWireTypes).
SEAT_ACTIONS = frozenset({"play", "swipe", "regroup", "vault", "react", "trim"})
DUTY_ACTIONS = frozenset({"confirm_reveal", "timeout_pass", "draw_relay_seat"})
SERVER_ACTIONS = frozenset({"relay_exchange"})  # only the relay service, never a client
WIRE_ROLES: Mapping[str, Role] = {
    **dict.fromkeys(SEAT_ACTIONS, Role.SEAT),
    **dict.fromkeys(DUTY_ACTIONS, Role.DUTY),
    **dict.fromkeys(SERVER_ACTIONS, Role.SERVER),
}

TABLE_MAX = 10  # tables/seating.py MAX_TABLE: a party seats 11+ guests at tables of 5 to 10
_OPTIONS = frozenset({"gifts", "vault", "last_call_draw"})


def _gift(entry: object, *, vault: bool) -> Gift:
    """One gift of the setup's options: {id, description, brought_by} (a vault gift has no bringer)."""
    keys = {"id", "description"} if vault else {"id", "description", "brought_by"}
    if not isinstance(entry, Mapping) or not set(entry) <= keys or not {"id", "description"} <= set(entry):
        raise MalformedActionError(f"a {'vault ' if vault else ''}gift is {{{', '.join(sorted(keys))}}}: {entry!r}")
    gift_id, description = entry["id"], entry["description"]
    brought_by = None if vault else entry.get("brought_by")
    if type(gift_id) is not int or not isinstance(description, str):
        raise MalformedActionError(f"a gift's id is an integer and its description a string: {entry!r}")
    if brought_by is not None and type(brought_by) is not int:
        raise MalformedActionError(f"a gift's brought_by is a seat number or null: {entry!r}")
    return Gift(gift_id, description, brought_by)


def _gifts(options: Mapping[str, Any], players: int) -> list[Gift]:
    """The players' gifts from the options; without any, gift s + 1 brought by seat s (a
    table set up by a test or a bot party, where nobody brought anything real)."""
    given = options.get("gifts")
    if given is None:
        return [Gift(s + 1, f"gift {s + 1}", s) for s in range(players)]
    if not isinstance(given, Sequence) or isinstance(given, str):
        raise MalformedActionError("the gifts option is a list of {id, description, brought_by}")
    gifts = [_gift(entry, vault=False) for entry in given]
    if len(gifts) != players:
        raise MalformedActionError(f"a table of {players} needs {players} gifts, not {len(gifts)}")
    return gifts


def _since(state: Game) -> int:
    """The version the step began at: a reaction window's opening, the trims' call; a
    turn and the reveal are one action each, so they began at this very version."""
    if state.phase is Phase.REACTION:
        return open_window(state).version
    if state.phase is Phase.TRIM:
        return state.trims_since
    return state.version


# A turn's own action depends on the table its player saw, and only one seat takes it:
# checked against the screen's version (games/definition.py `is_stale`). A reaction
# names its window instead (a late tap never answers the next one), and answers and
# trims by several phones at once all count: not checked.
TURN_ACTIONS = (PlayCard, Swipe, Regroup, VaultExchange)


class YankeeDefinition:
    """Yankee Heist as a `GameDefinition[Game, Action]`."""

    name = "yankee"
    title = "Yankee Heist"
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    table_max = TABLE_MAX
    features = Features(gifts=True, vaults=True, relay=True, gate=True)

    # --- setup, actions, rules -------------------------------------------------------------
    def setup(self, setup: Setup) -> tuple[Game, list[Event]]:
        if setup.games != 1:
            raise MalformedActionError("a Yankee Heist table plays one game: its gifts go home")
        options = setup.options
        unknown = set(options) - _OPTIONS
        if unknown:
            raise MalformedActionError(f"Yankee Heist has no option {sorted(unknown)}")
        vault = options.get("vault", ())
        if not isinstance(vault, Sequence) or isinstance(vault, str):
            raise MalformedActionError("the vault option is a list of {id, description}")
        return rules.new_game(
            seed=setup.seed,
            gifts=_gifts(options, setup.players),
            vault=[_gift(entry, vault=True) for entry in vault],
            gate=setup.gate,
            last_call_draw=options.get("last_call_draw", 0),
        )

    def parse_action(self, data: Any) -> Action:
        return parse_action(data)

    def action_to_dict(self, action: Action) -> dict[str, Any]:
        return action_to_dict(action)

    def apply(self, state: Game, action: Action) -> tuple[Game, list[Event]]:
        return rules.apply(state, action)

    def replay(self, setup: Setup, actions: Sequence[Action]) -> Game:
        game, _ = self.setup(setup)
        for action in actions:
            game, _ = rules.apply(game, action)
        return game

    # --- storage -----------------------------------------------------------------------------
    def to_dict(self, state: Game) -> dict[str, Any]:
        return state.to_dict()

    def from_dict(self, data: Mapping[str, Any]) -> Game:
        return Game.from_dict(data)

    def version(self, state: Game) -> int:
        return state.version

    # --- views --------------------------------------------------------------------------------
    def public_view(self, state: Game) -> dict[str, Any]:
        return views.public_view(state)

    def seat_view(self, state: Game, seat: int) -> dict[str, Any]:
        return views.seat_view(state, seat)

    def private_keys(self) -> tuple[str, ...]:
        return views.PRIVATE_KEYS

    def seat_private(self, state: Game, seat: int) -> dict[str, Any]:
        return views.seat_private(state, seat)

    def reshuffle_hidden(self, state: Game, viewer: int | None, rng: random.Random) -> Game:
        return hidden.reshuffle_hidden(state, viewer, rng)

    # --- who acts ------------------------------------------------------------------------------
    def waiting_for(self, state: Game) -> tuple[int, ...]:
        return legal.waiting_for(state)

    def legal_actions(self, state: Game, seat: int | None) -> list[Action]:
        """Every action `apply` accepts now from `seat` (None: the captain's duties and the
        clock's passes), each in every form the engine accepts: cards in any order, a
        reaction's answer naming its window or not. Not the relay's arrival: that gift
        comes from another table (`relay_arrival`)."""
        if seat is None:
            return list(_duties(state))
        if not 0 <= seat < state.players:
            return []
        return list(_seat_actions(state, seat))

    def role_of(self, action: Action) -> Role:
        if isinstance(action, _SEAT_TYPES):
            return Role.SEAT
        if isinstance(action, _DUTY_TYPES):
            return Role.DUTY
        return Role.SERVER

    def seat_of(self, action: Action) -> int | None:
        return action.seat if isinstance(action, _SEATED_TYPES) else None

    def bot_action(self, state: Game, rng: random.Random, seat: int | None = None) -> Action | None:
        return bots.bot_action(state, rng, seat)

    # --- clocks and the party --------------------------------------------------------------
    def clock(self, state: Game, seconds: Mapping[str, float]) -> Clock | None:
        """The clock of the step the game waits on (None at the gate and the end). A step
        whose seconds are 0 has no clock (the party's clock is off), except a reaction,
        which the rulebook lets the host pass after 60 seconds whatever the clock."""
        step = STEP_OF_PHASE.get(state.phase)
        stand_in = legal.stand_in(state)
        if step is None or stand_in is None:
            return None
        limit = float(seconds.get(step, STEP_SECONDS[step]))
        if step == "reaction":
            limit = min(limit, REACTION_SECONDS) if limit > 0 else REACTION_SECONDS
        if limit <= 0:
            return None
        return Clock(
            step=step,
            waiting=legal.waiting_for(state),
            stand_in=stand_in,
            seconds=limit,
            since=_since(state),
            rules_pass=REACTION_SECONDS if step == "reaction" else None,
        )

    def clock_steps(self) -> Mapping[str, float]:
        return dict(STEP_SECONDS)

    def step_texts(self) -> Mapping[str, Mapping[str, str]]:
        return STEP_TEXTS

    def duty_texts(self) -> Mapping[str, str]:
        return DUTY_TEXTS

    def rule_texts(self) -> Mapping[str, str]:
        return RULE_TEXTS

    def at_gate(self, state: Game) -> bool:
        return state.phase is Phase.GATE

    def gate_opened(self, state: Game) -> Action | None:
        """Once the host opens the gate, the captain draws the relay seat; after that the
        game waits for the relay's gift from another table (`relay_arrival`), so None."""
        if state.phase is Phase.GATE and state.relay_seat is None:
            return DrawRelaySeat()
        return None

    def checks_seen(self, action: Action) -> bool:
        return isinstance(action, TURN_ACTIONS)

    def wire_roles(self) -> Mapping[str, Role]:
        return WIRE_ROLES

    # --- the party's gifts (HoldsGifts) --------------------------------------------------
    def vault_gift_id(self, number: int) -> int:
        return VAULT_ID_BASE + number

    def gift_label(self, gift_id: int) -> str:
        return gift_label(gift_id)

    def seat_gifts(self, state: Game) -> Sequence[int]:
        return state.gifts

    def vault_gifts(self, state: Game) -> Sequence[int]:
        return state.vault

    def gift_description(self, state: Game, gift_id: int) -> str:
        # A game keeps the description of every gift it ever held (a relayed gift's too).
        return state.descriptions.get(gift_id, "")

    def told_to_the_room(self, state: Game, gift_id: int) -> bool:
        # The game's `open` set: unwrapped at the round-1 reveal, taken from the vault,
        # arriving by relay.
        return gift_id in state.open

    # --- the relay (RelaysGifts) -----------------------------------------------------------
    def draws_relay_seat(self, action: Action) -> bool:
        return isinstance(action, DrawRelaySeat)

    def relay_seat(self, state: Game) -> int | None:
        return state.relay_seat

    def relay_arrival(self, state: Game, gift_id: int, description: str) -> Action:
        """The relay's gift arriving at this table's drawn seat (the relay service sends it)."""
        return RelayExchange(Gift(gift_id, description))

    def is_over(self, state: Game) -> bool:
        return state.phase is Phase.OVER

    def standings(self, state: Game) -> list[Standing]:
        return [Standing(seat=s, score=0, rank=1, winner=False) for s in range(state.players)]

    # --- what the screens, printables and story need ---------------------------------------
    def rules_for_screens(self, say: Callable[[str], str] = str) -> dict[str, Any]:
        return catalogue.rules_for_screens(say)


def _ordered(items: Sequence[int], k: int) -> Iterator[tuple[int, ...]]:
    """Every ordered choice of k distinct items (cards are named in any order)."""
    return itertools.permutations(items, k)


def _seat_actions(g: Game, seat: int) -> Iterator[Action]:
    if g.phase is Phase.ACTION and seat == g.active:
        yield from _turn_actions(g, seat)
    elif g.phase is Phase.REACTION:
        w = open_window(g)
        if seat in w.waiting():
            for card in (None, *legal.reaction_cards(g, seat)):
                yield React(seat, card, w.version)
                yield React(seat, card, None)
    elif g.phase is Phase.TRIM and seat in g.trims:
        for cards in _ordered(g.hands[seat], g.trims[seat]):
            yield Trim(seat, cards)


def _turn_actions(g: Game, seat: int) -> Iterator[Action]:
    hand = g.hands[seat]
    for card_id, targets in legal.playable_cards(g, seat).items():
        card = card_of(card_id)
        chosen = list(_ordered(targets, target_count(card, g.players)))
        extras: list[int | None] = [c for c in hand if c != card_id] if card is Card.YANKEE_HEIST else [None]
        directions: list[Direction | None] = list(Direction) if card is Card.THREE_GIFT_GRIFT else [None]
        for t, extra, direction in itertools.product(chosen, extras, directions):
            yield PlayCard(seat, card_id, t, extra, direction)
    if legal.can_swipe(g, seat):
        for cards in _ordered(hand, 2):
            for target in range(g.players):
                if target != seat:
                    yield Swipe(seat, cards, target)
            for gift in g.vault:
                yield VaultExchange(seat, cards, gift)
    for k in range(min(2, len(hand)) + 1):
        for cards in _ordered(hand, k):
            yield Regroup(seat, cards)


def _duties(g: Game) -> Iterator[Action]:
    """The captain's duties and the clock's passes the game accepts now."""
    if g.phase is Phase.REVEAL:
        yield ConfirmReveal()
    elif g.phase is Phase.GATE and g.relay_seat is None:
        yield DrawRelaySeat()
    elif g.phase is Phase.ACTION:
        yield TimeoutPass(g.active)
    elif g.phase is Phase.REACTION:
        w = open_window(g)
        for seat in w.waiting():
            yield TimeoutPass(seat, w.version)
            yield TimeoutPass(seat, None)
    elif g.phase is Phase.TRIM:
        for seat in sorted(g.trims):
            yield TimeoutPass(seat)


YANKEE = YankeeDefinition()
# The type checker holds YANKEE to the whole seam and to its optional parts.
_SEAM: GameDefinition[Game, Action] = YANKEE
_HIDES: HidesInformation[Game] = YANKEE
_GIFTS: HoldsGifts = YANKEE
_RELAYS: RelaysGifts = YANKEE
_CHECKS: ChecksSeen = YANKEE
_WIRE: NamesWireTypes = YANKEE
_DUTIES: NamesDuties = YANKEE
_RULES: NamesRules = YANKEE
DEFINITION = YANKEE  # what games/registry.py reads

__all__ = [
    "DEFINITION",
    "DUTY_ACTIONS",
    "DUTY_TEXTS",
    "REACTION_SECONDS",
    "SEAT_ACTIONS",
    "SERVER_ACTIONS",
    "STEP_OF_PHASE",
    "STEP_SECONDS",
    "YANKEE",
    "YankeeDefinition",
]
