"""The rules of Yankee Heist as one pure function: `apply(game, action) -> (game, events)`.

No I/O, no clock, no global random: the only randomness is the game's own seeded
generator (`rng.py`), whose state travels inside the game. The input game is never
modified; an illegal action raises an `IllegalActionError` and changes nothing.

Rule references in comments quote the rulebook ("How to heist") or GAME.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from games import rng as _rng

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
)
from .cards import DECK_SIZE, REACTION_IDS, Card, Kind, card_of, deck_for, target_count
from .errors import (
    CardNotInHandError,
    IllegalActionError,
    IllegalCardError,
    IllegalTargetError,
    MalformedActionError,
    OutOfTurnError,
    WrongPhaseError,
)
from .state import Direction, Event, Game, Gift, Move, Pending, Phase, Window, open_window, swap

HAND_LIMIT = 5
DEAL = 3
ROUNDS = 4
MIN_PLAYERS, MAX_PLAYERS = 2, 10
MAX_VAULT = 3
# The rulebook's names of the four rounds.
ROUND_NAMES = {1: "THE SNOOP", 2: "THE SCRAMBLE", 3: "THE DOUBLE-CROSS", 4: "LAST CALL"}


_new_tuple = tuple.__new__


class _Log(list[Event]):
    """The events of one action, all stamped with the version the action produces."""

    __slots__ = ("version",)  # set right after creation: no Python-level __init__
    version: int

    def emit(self, type_: str, to: tuple[int, ...] | None = None, **data: Any) -> None:
        # tuple.__new__ skips the NamedTuple's Python-level __new__: emit is the hottest
        # call in a game (about 300 events per 10-player game).
        self.append(_new_tuple(Event, (type_, data, to, self.version, None, ())))

    def emit_secret(self, type_: str, data: dict[str, Any], secret: dict[str, Any], owners: tuple[int, ...]) -> None:
        """An event everybody sees, with `secret` fields only `owners` see."""
        self.append(_new_tuple(Event, (type_, data, None, self.version, secret, owners)))


# --- setup --------------------------------------------------------------------------------


def new_game(
    *,
    seed: int | str,
    gifts: Sequence[Gift],
    vault: Sequence[Gift] = (),
    gate: bool = False,
    last_call_draw: int = 0,
) -> tuple[Game, list[Event]]:
    """Set up a table: deal gifts and cards, choose the starter, start round 1.

    `gifts` are the players' gifts, one per player (so len(gifts) is the table size);
    `brought_by` on each lets its bringer see its description. `vault` holds 0-3 extra
    wrapped gifts. `gate` stops the game after round 2 for the party relay.
    `last_call_draw` turns on the house rule LAST CALL refill (0, the rulebook's game,
    by default): at the start of round 4 every player holding fewer than 5 cards draws
    up to that many, never past 5.
    """
    if type(seed) is not int and type(seed) is not str:  # bool is an int subclass: refuse it too
        raise MalformedActionError(f"a seed is an int or a str, not {type(seed).__name__}")
    n = len(gifts)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise MalformedActionError(f"a table seats {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
    if len(vault) > MAX_VAULT:
        raise MalformedActionError(f"a vault holds 1 to {MAX_VAULT} gifts, not {len(vault)}")
    ids = [g.id for g in gifts] + [g.id for g in vault]
    if len(set(ids)) != len(ids):
        raise MalformedActionError("gift ids must be unique")
    if type(last_call_draw) is not int or not 0 <= last_call_draw <= HAND_LIMIT:
        raise MalformedActionError(f"last_call_draw is 0 to {HAND_LIMIT}, not {last_call_draw!r}")
    for g in gifts:
        if g.brought_by is not None and not 0 <= g.brought_by < n:
            raise MalformedActionError(f"gift {g.id} brought by a seat that does not exist")

    state = _rng.seed_state(seed)
    # Setup 1: randomly give everyone one wrapped gift; drawing your own is allowed.
    dealt = [g.id for g in gifts]
    state = _rng.shuffle(state, dealt)
    # Setup 2: shuffle the play cards (44 for two players) and deal 3 to each player.
    deck = deck_for(n)
    state = _rng.shuffle(state, deck)
    hands: list[list[int]] = [[] for _ in range(n)]
    for _ in range(DEAL):
        for seat in range(n):
            hands[seat].append(deck.pop())
    # Setup 3: randomly choose a starter.
    starter, state = _rng.below(state, n)

    # Each player secretly peeks at the gift dealt to them, and of course knows the one
    # they brought.
    peeks = [{dealt[s]} for s in range(n)]
    for g in gifts:
        if g.brought_by is not None:
            peeks[g.brought_by].add(g.id)

    game = Game(
        players=n,
        seed=seed,
        rng=state,
        version=1,
        phase=Phase.ACTION,
        round=1,
        starter=starter,
        turn=0,
        gifts=dealt,
        vault=[g.id for g in vault],
        open=frozenset(),
        descriptions={g.id: g.description for g in [*gifts, *vault]},
        peeks=tuple(frozenset(p) for p in peeks),
        hands=[tuple(h) for h in hands],
        draw_pile=deck,
        discards=[],
        aside=[],
        gate=gate,
        last_call_draw=last_call_draw,
    )
    log = _Log()
    log.version = 1
    log.emit("game_started", players=n, starter=starter, gifts=list(dealt), vault=list(game.vault), gate=gate)
    for seat in range(n):
        log.emit("dealt", (seat,), seat=seat, cards=list(hands[seat]))
        log.emit("peeked", (seat,), seat=seat, gift=dealt[seat], description=game.descriptions[dealt[seat]], own=True)
    log.emit("round_started", round=1, starter=starter)
    _begin_turn(game, log)
    return game, list(log)


# --- the one entry point ------------------------------------------------------------------


def apply(game: Game, action: Action) -> tuple[Game, list[Event]]:
    """Apply one action. Returns the new game and its events; raises IllegalActionError.

    The steps of games/dispatch.py written out, not called: this is the engine's hottest
    function, and the shared one measured about 5% slower per apply (bench/engine.py,
    16.7 against 15.9 µs, nine runs each, interleaved)."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise MalformedActionError(f"not an action: {type(action).__name__}")
    g = game.clone()
    g.version += 1
    log = _Log()
    log.version = g.version
    handler(g, action, log)
    return g, list(log)


def apply_in_place(game: Game, action: Action) -> tuple[Game, list[Event]]:
    """`apply` without the copy, for the simulator only: `game` itself becomes the new
    state and is returned. The server keeps `apply`: an illegal action may leave `game`
    half changed here, so call this only with actions known to be legal (the simulator's
    bots choose from `legal.py`). tests/simulate checks both give identical games."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise MalformedActionError(f"not an action: {type(action).__name__}")
    game.version += 1
    log = _Log()
    log.version = game.version
    handler(game, action, log)
    return game, log


# --- shared steps -------------------------------------------------------------------------


def _draw(g: Game, seat: int, k: int, log: _Log, reason: str) -> None:
    """Draw k cards; an empty pile is rebuilt from the discards (never from the cards
    set aside while an action resolves); with both empty, draw what exists."""
    pile = g.draw_pile
    if k == 1 and pile:  # the common case: one card from a non-empty pile
        card = pile.pop()
        g.hands[seat] = (*g.hands[seat], card)
        log.emit_secret("drew", {"seat": seat, "count": 1, "wanted": 1, "reason": reason}, {"cards": [card]}, (seat,))
        return
    got: list[int] = []
    for _ in range(k):
        if not pile:
            if not g.discards:
                break
            pile = g.draw_pile = g.discards
            g.discards = []
            g.rng = _rng.shuffle(g.rng, pile)
            log.emit("reshuffled", cards=len(pile))
        got.append(pile.pop())
    if got:
        g.hands[seat] = (*g.hands[seat], *got)
    log.emit_secret("drew", {"seat": seat, "count": len(got), "wanted": k, "reason": reason}, {"cards": got}, (seat,))


def _take_cards(g: Game, seat: int, cards: Sequence[int], count: int | None = None) -> None:
    """Remove `cards` from seat's hand after checking all of them (all or nothing)."""
    if count is not None and len(cards) != count:
        raise MalformedActionError(f"this needs exactly {count} card(s), got {len(cards)}")
    if len(set(cards)) != len(cards):
        raise MalformedActionError("the same card was named twice")
    hand = g.hands[seat]
    for c in cards:
        if c not in hand:
            raise CardNotInHandError(f"card {c} is not in seat {seat}'s hand")
    g.hands[seat] = tuple(c for c in hand if c not in cards)


def _take_card(g: Game, seat: int, card: int) -> None:
    """Remove one card already known to be in seat's hand (the hot path of _take_cards)."""
    hand = g.hands[seat]
    i = hand.index(card)
    g.hands[seat] = hand[:i] + hand[i + 1 :]


def _require(g: Game, phase: Phase, what: str) -> None:
    if g.phase is not phase:
        raise WrongPhaseError(f"cannot {what} now: the game is in its {g.phase.value} phase")


def _require_turn(g: Game, seat: int, what: str) -> None:
    _check_seat(g, seat)
    _require(g, Phase.ACTION, what)
    if seat != g.active:
        raise OutOfTurnError(f"it is seat {g.active}'s turn, not seat {seat}'s")


def _check_seat(g: Game, seat: int) -> None:
    if not 0 <= seat < g.players:
        raise IllegalTargetError(f"there is no seat {seat} at this table")


def _other(g: Game, seat: int, target: int) -> None:
    _check_seat(g, target)
    if target == seat:
        raise IllegalTargetError("you cannot target yourself")


def _clockwise(g: Game, active: int, seats: Iterable[int]) -> tuple[int, ...]:
    """`seats` in clockwise order starting after `active`."""
    distinct = set(seats)
    if len(distinct) == 1:
        return tuple(distinct)
    n = g.players
    return tuple(sorted(distinct, key=lambda s: (s - active) % n))


# --- turns and rounds ---------------------------------------------------------------------


def _begin_turn(g: Game, log: _Log) -> None:
    g.phase = Phase.ACTION
    log.emit("turn_started", seat=g.active, round=g.round, turn=g.turn)
    # 1 / Draw one card, automatically.
    _draw(g, g.active, 1, log, "turn")


def _end_action(g: Game, log: _Log, active: int, moved: Sequence[int] = ()) -> None:
    """3 / Comeback draws, the spent cards to the discards, then trims to 5."""
    if moved:
        # Each non-active player whose gift actually moved draws exactly one comeback
        # card, clockwise from the player after the active one, after all immediate
        # effects.
        for seat in _clockwise(g, active, moved):
            _draw(g, seat, 1, log, "comeback")
    if g.aside:
        g.discards.extend(g.aside)
        g.aside = []
    g.pending = None
    # max(map(len)) runs in C: most actions leave every hand at 5 or fewer.
    if max(map(len, g.hands)) > HAND_LIMIT:
        g.trims = {s: len(h) - HAND_LIMIT for s, h in enumerate(g.hands) if len(h) > HAND_LIMIT}
    if g.trims:
        g.phase = Phase.TRIM
        g.trims_since = log.version
        log.emit("trim_required", seats={str(s): k for s, k in g.trims.items()})
    else:
        _advance(g, log)


def _advance(g: Game, log: _Log) -> None:
    g.turn += 1
    if g.turn < g.players:
        _begin_turn(g, log)
        return
    log.emit("round_ended", round=g.round)
    if g.round == 1:
        # THE SNOOP ends: everyone unwraps and shows their current gift.
        g.phase = Phase.REVEAL
        log.emit("reveal_due")
    elif g.round == 2 and g.gate and not g.relayed:
        g.phase = Phase.GATE
        log.emit("at_gate")
    elif g.round == ROUNDS:
        g.phase = Phase.OVER
        log.emit("game_over", result=list(g.gifts), vault=list(g.vault))
    else:
        _next_round(g, log)


def _next_round(g: Game, log: _Log) -> None:
    # Move START HERE one seat clockwise; the new starter begins.
    g.round += 1
    g.starter = (g.starter + 1) % g.players
    g.turn = 0
    log.emit("round_started", round=g.round, starter=g.starter)
    if g.round == ROUNDS and g.last_call_draw:
        # House rule LAST CALL refill: more reactions in hand for the final round, so
        # the last steals are answerable more often. Clockwise from the starter.
        for i in range(g.players):
            seat = (g.starter + i) % g.players
            k = min(g.last_call_draw, HAND_LIMIT - len(g.hands[seat]))
            if k > 0:
                _draw(g, seat, k, log, "last_call")
    _begin_turn(g, log)


# --- gift moves and reaction windows ------------------------------------------------------


def _next_step(g: Game, log: _Log) -> None:
    """Open the window for the next move of the pending action, or end the action."""
    p = g.pending
    assert p is not None
    if not p.steps:
        _end_action(g, log, p.active, p.moved)
        return
    move = p.steps.pop(0)
    active = p.active
    affected = _clockwise(g, active, [src for src, _ in move if src != active])
    p.window = Window(move, affected, version=log.version)
    g.phase = Phase.REACTION
    log.emit(
        "window_opened",
        active=p.active,
        label=p.label,
        move=[list(pair) for pair in move],
        affected=list(affected),
    )


def _resolve_window(g: Game, log: _Log) -> None:
    """Settle the window once the clockwise-first answer that decides it is in.

    Answers may arrive in any order (phones answer at once); the outcome is the one
    asking each affected player in clockwise order would give: the first block
    cancels the move, a later player's block is not used and they keep their card.
    """
    p = g.pending
    assert p is not None and p.window is not None
    w = p.window
    blocker, card = None, None
    for seat in w.affected:
        if seat not in w.answers:
            return  # still waiting for this player's answer
        card = w.answers[seat]
        if card is not None:
            blocker = seat
            break
    if blocker is not None and card is not None:
        _take_card(g, blocker, card)  # checked in hand when the answer came in
        g.aside.append(card)  # reactions stay aside until the action ends
        p.blocked += 1
        log.emit("blocked", seat=blocker, card=card, card_name=card_of(card).title, move=[list(x) for x in w.move])
        if card_of(card) is Card.TRIPWIRE:
            _draw(g, blocker, 2, log, "tripwire")  # a blocking TRIPWIRE draws its 2 at once
        for seat in w.affected:
            if seat != blocker and w.answers.get(seat) is not None:
                log.emit("reaction_unused", (seat,), seat=seat, card=w.answers[seat])
    else:
        before = list(g.gifts)
        # All affected gifts move simultaneously within a swap or rotation.
        for src, dst in w.move:
            g.gifts[dst] = before[src]
        for _src, dst in w.move:
            if dst != p.active and dst not in p.moved and g.gifts[dst] != before[dst]:
                p.moved.append(dst)
        log.emit(
            "gifts_moved",
            label=p.label,
            moves=[{"from": s, "to": d, "gift": before[s]} for s, d in w.move],
        )
    p.window = None
    _next_step(g, log)


# --- handlers -----------------------------------------------------------------------------


def _play(g: Game, a: PlayCard, log: _Log) -> None:
    _require_turn(g, a.seat, "play a card")
    seat, n = a.seat, g.players
    if not 0 <= a.card < DECK_SIZE or a.card not in g.hands[seat]:
        raise CardNotInHandError(f"card {a.card} is not in your hand")
    card = card_of(a.card)
    if card.kind is Kind.REACTION:
        raise IllegalCardError(f"{card.title} is a reaction: it is played only when a move threatens your gift")
    if a.extra is not None and card is not Card.YANKEE_HEIST:
        raise MalformedActionError("only YANKEE HEIST takes an extra card")
    if a.direction is not None and card is not Card.THREE_GIFT_GRIFT:
        raise MalformedActionError("only THREE-GIFT GRIFT takes a direction")
    t = a.targets
    need = target_count(card, n)  # two players: YANKEE HEIST names one, still costs the extra card
    if len(t) != need:
        raise IllegalTargetError(f"{card.title} names {need} other player(s), not {len(t)}")
    for target in t:
        _other(g, seat, target)
    if len(set(t)) != len(t):
        raise IllegalTargetError(f"{card.title} needs two different players")

    steps: list[Move] = []
    if card is Card.SNATCH:
        steps = [swap(seat, t[0])]
    elif card is Card.SWITCHEROO:
        steps = [swap(t[0], t[1])]
    elif card is Card.THREE_GIFT_GRIFT:
        if a.direction is None:
            raise MalformedActionError("THREE-GIFT GRIFT needs a direction")
        a_, p_, q_ = _clockwise(g, seat, (seat, *t))
        ring = (a_, p_, q_) if a.direction is Direction.CLOCKWISE else (a_, q_, p_)
        steps = [tuple((ring[i], ring[(i + 1) % 3]) for i in range(3))]
    elif card is Card.YANKEE_HEIST:
        if a.extra is None:
            raise MalformedActionError("YANKEE HEIST needs one more card to pay with")
        if a.extra == a.card or a.extra not in g.hands[seat]:
            raise CardNotInHandError("YANKEE HEIST's extra card must be another card in your hand")
        steps = [swap(seat, target) for target in t]
    elif card is Card.CASE_THE_JOINT:
        if g.gifts[t[0]] in g.open:
            raise IllegalTargetError("CASE THE JOINT needs a still-wrapped gift")
    elif card is Card.PICKPOCKET:
        if not g.hands[t[0]]:
            raise IllegalTargetError("PICKPOCKET needs a player with cards in hand")

    # Pay: the card (and YANKEE HEIST's extra) is set aside until the action ends.
    # Both cards were checked to be in hand above.
    _take_card(g, seat, a.card)
    g.aside.append(a.card)
    if a.extra is not None:
        _take_card(g, seat, a.extra)
        g.aside.append(a.extra)
    log.emit(
        "card_played",
        seat=seat,
        card=a.card,
        card_name=card.title,
        targets=list(t),
        extra=a.extra,
        direction=a.direction.value if a.direction else None,
    )

    if steps:
        g.pending = Pending(seat, card.title, a.card, steps, [])
        _next_step(g, log)
        return
    if card is Card.CASE_THE_JOINT:
        gift = g.gifts[t[0]]
        peeks = list(g.peeks)
        peeks[seat] = peeks[seat] | {gift}
        g.peeks = tuple(peeks)
        log.emit("peeked", (seat,), seat=seat, gift=gift, description=g.descriptions[gift], own=False)
    elif card is Card.INSIDE_MAN:
        _draw(g, seat, 2, log, "inside_man")
    elif card is Card.PICKPOCKET:
        victim = g.hands[t[0]]
        i, g.rng = _rng.below(g.rng, len(victim))
        stolen = victim[i]
        g.hands[t[0]] = victim[:i] + victim[i + 1 :]
        g.hands[seat] = (*g.hands[seat], stolen)
        log.emit_secret("pickpocketed", {"seat": seat, "target": t[0]}, {"card": stolen}, (seat, t[0]))
    _end_action(g, log, seat)


def _swipe(g: Game, a: Swipe, log: _Log) -> None:
    _require_turn(g, a.seat, "cash in cards")
    _other(g, a.seat, a.target)
    # Both cards are spent even if blocked.
    _take_cards(g, a.seat, a.cards, 2)
    g.aside.extend(a.cards)
    log.emit("swipe", seat=a.seat, target=a.target, cards=list(a.cards))
    g.pending = Pending(a.seat, "SWIPE", None, [swap(a.seat, a.target)], [])
    _next_step(g, log)


def _regroup(g: Game, a: Regroup, log: _Log) -> None:
    _require_turn(g, a.seat, "regroup")
    if len(a.cards) > 2:
        raise MalformedActionError("regroup discards 0, 1 or 2 cards")
    _take_cards(g, a.seat, a.cards)
    g.discards.extend(a.cards)
    log.emit("regrouped", seat=a.seat, count=len(a.cards), cards=list(a.cards))
    if a.cards:
        _draw(g, a.seat, len(a.cards), log, "regroup")
    _end_action(g, log, a.seat)


def _vault(g: Game, a: VaultExchange, log: _Log) -> None:
    _require_turn(g, a.seat, "use the vault")
    if not g.vault:
        raise IllegalTargetError("this table has no vault")
    if a.gift not in g.vault:
        raise IllegalTargetError(f"gift {a.gift} is not in the vault")
    _take_cards(g, a.seat, a.cards, 2)
    g.aside.extend(a.cards)
    mine = g.gifts[a.seat]
    g.vault[g.vault.index(a.gift)] = mine  # the gift keeps its wrapped/open state
    g.gifts[a.seat] = a.gift
    g.open = g.open | {a.gift}  # reveal the gift you take immediately, even in round 1
    log.emit(
        "vault_exchanged",
        seat=a.seat,
        gave=mine,
        took=a.gift,
        description=g.descriptions[a.gift],
        cards=list(a.cards),
    )
    _end_action(g, log, a.seat)  # cannot be blocked, gives no comeback draw


def _window(g: Game, seat: int, window: int | None) -> Window:
    _check_seat(g, seat)
    _require(g, Phase.REACTION, "answer a reaction")
    w = open_window(g)
    if window is not None and window != w.version:
        raise IllegalActionError("that answer was for an earlier reaction window, which has closed", rule="window")
    if seat not in w.affected:
        raise OutOfTurnError(f"seat {seat}'s gift is not threatened by this move")
    if seat in w.answers:
        raise IllegalActionError("this seat has already answered this window (a pass is final)", rule="answered")
    return w


def _react(g: Game, a: React, log: _Log) -> None:
    w = _window(g, a.seat, a.window)
    if a.card is not None:
        if not 0 <= a.card < DECK_SIZE or a.card not in g.hands[a.seat]:
            raise CardNotInHandError(f"card {a.card} is not in your hand")
        if a.card not in REACTION_IDS:
            raise IllegalCardError(f"{card_of(a.card).title} is not a reaction card")
    w.answers[a.seat] = a.card
    log.emit("reaction_answered", seat=a.seat)
    _resolve_window(g, log)


def _timeout_pass(g: Game, a: TimeoutPass, log: _Log) -> None:
    """The rules' do-nothing choice for a guest whose step's clock ran out (docs/RULES.md,
    "When a guest does not answer"): a turn is passed (a regroup of 0 cards, the
    rulebook's pass), a reaction is let happen (a pass), a trim discards the excess at
    random. Who may send it and when is the service's (the clock is not the engine's)."""
    _check_seat(g, a.seat)
    if g.phase is Phase.REACTION:
        w = _window(g, a.seat, a.window)
        w.answers[a.seat] = None
        w.forced = (*w.forced, a.seat)
        log.emit("reaction_timed_out", seat=a.seat)
        _resolve_window(g, log)
        return
    if a.window is not None:
        # A pass meant for a reaction window must not pass the turn or the trim that
        # followed it (a late tap on the captain's tablet).
        raise IllegalActionError("that pass was for a reaction window, which has closed", rule="window")
    if g.phase is Phase.ACTION:
        _require_turn(g, a.seat, "pass a turn")
        # "Regroup: Discard 0 ... Choosing 0 is a pass."
        log.emit("turn_timed_out", seat=a.seat)
        log.emit("regrouped", seat=a.seat, count=0, cards=[])
        _end_action(g, log, a.seat)
        return
    if g.phase is Phase.TRIM:
        excess = g.trims.get(a.seat)
        if excess is None:
            raise OutOfTurnError(f"seat {a.seat} has no more than {HAND_LIMIT} cards")
        # The excess, chosen uniformly at random by the game's own generator: nobody
        # chooses for the guest, and the choice replays from the seed.
        hand = list(g.hands[a.seat])
        chosen = []
        for _ in range(excess):
            i, g.rng = _rng.below(g.rng, len(hand))
            chosen.append(hand.pop(i))
        log.emit("trim_timed_out", seat=a.seat)
        _discard_trim(g, a.seat, chosen, excess, log)
        return
    raise WrongPhaseError(f"nobody's answer is awaited in the {g.phase.value} phase")


def _trim(g: Game, a: Trim, log: _Log) -> None:
    _check_seat(g, a.seat)
    _require(g, Phase.TRIM, "trim a hand")
    excess = g.trims.get(a.seat)
    if excess is None:
        raise OutOfTurnError(f"seat {a.seat} has no more than {HAND_LIMIT} cards")
    _discard_trim(g, a.seat, a.cards, excess, log)


def _discard_trim(g: Game, seat: int, cards: Sequence[int], excess: int, log: _Log) -> None:
    _take_cards(g, seat, cards, excess)
    g.discards.extend(cards)
    del g.trims[seat]
    log.emit("trimmed", seat=seat, cards=list(cards))
    if not g.trims:
        g.trims_since = 0  # stored only while trims are asked for
        _advance(g, log)


def _confirm_reveal(g: Game, a: ConfirmReveal, log: _Log) -> None:
    _require(g, Phase.REVEAL, "confirm the reveal")
    # Every held gift is unwrapped; vault gifts keep their state.
    g.open = g.open | set(g.gifts)
    log.emit(
        "revealed",
        gifts=[{"seat": s, "gift": gift, "description": g.descriptions[gift]} for s, gift in enumerate(g.gifts)],
    )
    _next_round(g, log)


def _draw_relay_seat(g: Game, a: DrawRelaySeat, log: _Log) -> None:
    _require(g, Phase.GATE, "draw the relay seat")
    if g.relay_seat is not None:
        raise IllegalActionError(f"the relay seat is already drawn: seat {g.relay_seat}", rule="relay_drawn")
    # Uniformly at random among occupied seats (every seat at a table is occupied).
    g.relay_seat, g.rng = _rng.below(g.rng, g.players)
    log.emit("relay_seat_drawn", seat=g.relay_seat, gift=g.gifts[g.relay_seat])


def _relay_exchange(g: Game, a: RelayExchange, log: _Log) -> None:
    _require(g, Phase.GATE, "run the relay")
    if g.relay_seat is None:
        raise IllegalActionError("draw the relay seat first", rule="relay_not_drawn")
    if a.gift.id in g.gifts or a.gift.id in g.vault:
        raise IllegalTargetError(f"gift {a.gift.id} is already at this table")
    seat = g.relay_seat
    out = g.gifts[seat]
    g.gifts[seat] = a.gift.id
    g.descriptions = {**g.descriptions, a.gift.id: a.gift.description}
    g.open = g.open | {a.gift.id}  # relayed gifts were revealed after round 1
    g.relayed = True
    log.emit("relay_exchanged", seat=seat, gave=out, received=a.gift.id, description=a.gift.description)
    _next_round(g, log)


# Each handler takes the action type it is keyed by (Any: a dict cannot say so per key).
_HANDLERS: dict[type[Any], Callable[[Game, Any, _Log], None]] = {
    PlayCard: _play,
    Swipe: _swipe,
    Regroup: _regroup,
    VaultExchange: _vault,
    React: _react,
    TimeoutPass: _timeout_pass,
    Trim: _trim,
    ConfirmReveal: _confirm_reveal,
    DrawRelaySeat: _draw_relay_seat,
    RelayExchange: _relay_exchange,
}


def replay(
    *,
    seed: int | str,
    gifts: Sequence[Gift],
    vault: Sequence[Gift] = (),
    gate: bool = False,
    last_call_draw: int = 0,
    actions: Sequence[Action],
) -> Game:
    """Rebuild a game from its seed, setup and accepted actions."""
    game, _ = new_game(seed=seed, gifts=gifts, vault=vault, gate=gate, last_call_draw=last_call_draw)
    for action in actions:
        game, _ = apply(game, action)
    return game


__all__ = ["HAND_LIMIT", "IllegalActionError", "apply", "apply_in_place", "new_game", "replay"]
