"""The rules of Word Heist as one pure function: `apply(game, action, lexicon)`.

No I/O, no clock, no global random: the only randomness is the game's own SplitMix64
state (games/rng.py); the dictionary is the `Lexicon` the caller hands in (the rules never
open a file). The input game is never changed; an illegal action raises an
`IllegalActionError` and changes nothing. The decisions the rulebook leaves open are
docs/RULES.md's "Word Heist" section.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from games import rng as _rng
from games.dispatch import dispatch

from .actions import Action, Clue, Halt, OpenGate, StandIn, Vote, Write
from .errors import (
    AlreadyDoneError,
    BadCluesError,
    BadVoteError,
    MalformedActionError,
    NoSuchSeatError,
    NotAWordError,
    NotInTableauError,
    OutOfTurnError,
    OwnWordError,
    ReusedWordError,
    WrongPhaseError,
)
from .letters import COMMON, DECK_BY_PLAYERS, RARE, VOWELS, card_counts, makeable, showcase_of
from .lexicon import Lexicon
from .scoring import score_round, verdicts
from .spelling import LANGUAGES, MAX_LETTERS, MIN_LETTERS, fold
from .state import Event, Game, Phase
from .vault import CODES

MIN_PLAYERS, MAX_PLAYERS = 2, 6
ROUNDS = 3
MIN_TOKENS, MAX_TOKENS = 1, 5
VAULT_PER_ROUND = 2


class _Log(list[Event]):
    """The events of one action, stamped with its version; it carries the dictionary the
    action is judged with."""

    def __init__(self, version: int, lexicon: Lexicon) -> None:
        super().__init__()
        self.version = version
        self.lexicon = lexicon

    def emit(self, type_: str, to: tuple[int, ...] | None = None, **data: Any) -> None:
        self.append(Event(type_, data, to, self.version))


def gate_after(rounds: int) -> int:
    """The round after which a party's table stops at the gate: half-way, rounded down."""
    return rounds // 2


# --- setup --------------------------------------------------------------------------------


def deal_cards(state: int, players: int) -> tuple[tuple[str, ...], int]:
    """Setup step 2: each pile shuffled, the player count's cards of each taken."""
    common, rare, vowels = DECK_BY_PLAYERS[players]
    cards: list[str] = []
    for pile, n in ((COMMON, common), (RARE, rare), (VOWELS, vowels)):
        shuffled = list(pile)
        state = _rng.shuffle(state, shuffled)
        cards += shuffled[:n]
    return tuple(cards), state


def new_game(
    seed: int | str, players: int, lexicon: Lexicon, gate: bool = False, rounds: int = ROUNDS
) -> tuple[Game, list[Event]]:
    """Deal the letter cards, shuffle the Bonus Vault cards and start round 1."""
    if type(seed) is not int and type(seed) is not str:
        raise MalformedActionError(f"a seed is an int or a str, not {type(seed).__name__}")
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise MalformedActionError(f"Word Heist is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
    if type(rounds) is not int or not 1 <= rounds <= ROUNDS:
        raise MalformedActionError(f"a game has 1 to {ROUNDS} rounds, not {rounds!r}")
    if type(gate) is not bool:
        raise MalformedActionError("gate is true or false")
    if gate and gate_after(rounds) < 1:
        raise MalformedActionError("a one-round game has no half-way for a party's gate")
    if lexicon.language not in LANGUAGES:
        raise MalformedActionError(f"Word Heist speaks {', '.join(LANGUAGES)}, not {lexicon.language!r}")
    state = _rng.seed_state(seed)
    cards, state = deal_cards(state, players)
    vault = list(CODES)
    state = _rng.shuffle(state, vault)
    game = Game(
        players=players,
        seed=seed,
        rng=state,
        version=1,
        phase=Phase.WORD,
        language=lexicon.language,
        rounds=rounds,
        round=0,
        gate=gate,
        gate_opened=False,
        cards=cards,
        tableau=(),
        vault_deck=vault,
        vault=(),
        words={},
        known={},
        clues={},
        halts={},
        votes={},
        gallery=[],
        scores=[0] * players,
        last_round=None,
    )
    log = _Log(1, lexicon)
    log.emit("game_started", players=players, rounds=rounds, gate=gate, language=lexicon.language, cards=list(cards))
    _start_round(game, log)
    return game, list(log)


def apply(game: Game, action: Action, lexicon: Lexicon) -> tuple[Game, list[Event]]:
    """Apply one action. Returns the new game and its events; raises IllegalActionError."""
    if lexicon.language != game.language:
        raise MalformedActionError(f"this table plays in {game.language!r}, not {lexicon.language!r}")
    g, log = dispatch(game, action, _HANDLERS, lambda version: _Log(version, lexicon))
    return g, list(log)


def replay(
    seed: int | str, players: int, actions: Sequence[Action], lexicon: Lexicon, gate: bool = False, rounds: int = ROUNDS
) -> Game:
    game, _ = new_game(seed, players, lexicon, gate=gate, rounds=rounds)
    for action in actions:
        game, _ = apply(game, action, lexicon)
    return game


# --- a round ------------------------------------------------------------------------------


def _start_round(g: Game, log: _Log) -> None:
    """New Round: the same letters reshuffled into a new Tableau (its first two cards the
    new Showcase Letters), two new Bonus Vault cards, every board wiped."""
    g.round += 1
    tableau = list(g.cards)
    g.rng = _rng.shuffle(g.rng, tableau)
    g.tableau = tuple(tableau)
    g.vault = tuple(g.vault_deck.pop() for _ in range(VAULT_PER_ROUND))
    g.words, g.known, g.clues, g.halts, g.votes = {}, {}, {}, {}, {}
    g.phase = Phase.WORD
    log.emit(
        "round_started",
        round=g.round,
        tableau=list(g.tableau),
        showcase=list(showcase_of(g.tableau)),
        vault=list(g.vault),
        final=g.round == g.rounds,
    )


def used_roots(g: Game, lexicon: Lexicon) -> set[str]:
    return {lexicon.root(str(e["word"])) for e in g.gallery}


def check_word(g: Game, text: str, lexicon: Lexicon) -> str:
    """The folded word if the Tableau can make it and the Word Gallery does not hold it
    (nor its root); else the refusal. Whether the dictionary knows it is not checked here."""
    word = fold(text, g.language) if isinstance(text, str) else None
    if word is None or not MIN_LETTERS <= len(word) <= MAX_LETTERS:
        raise NotAWordError(f"{text!r} is not a word of {MIN_LETTERS} to {MAX_LETTERS} letters")
    if not makeable(word, g.tableau):
        raise NotInTableauError(f"{word} uses letters that are not in the Tableau")
    if any(e["word"] == word for e in g.gallery) or lexicon.root(word) in used_roots(g, lexicon):
        raise ReusedWordError(f"{word} (or a word with its root) is in the Word Gallery already")
    return word


def cluable(word: str) -> bool:
    """Whether some clue placement fits `word`: a letter card it uses at most MAX_TOKENS
    times (JAJAJAJAJAJA, six Js and six As, has none)."""
    return min(card_counts(word).values()) <= MAX_TOKENS


def check_cluable(word: str) -> None:
    if not cluable(word):
        raise BadCluesError(f"{word} cannot be clued: each of its letters appears more than {MAX_TOKENS} times")


def check_seat(g: Game, seat: int, phase: Phase, what: str) -> None:
    if type(seat) is not int or not 0 <= seat < g.players:
        raise NoSuchSeatError(f"there is no seat {seat!r} at this table")
    if g.phase is not phase:
        raise WrongPhaseError(f"nobody can {what} now: the game is in its {g.phase.value} phase")
    if seat not in g.waiting():
        if phase is Phase.CLUES and g.words.get(seat) is None:
            raise OutOfTurnError(f"seat {seat} has no word to clue this round")
        raise AlreadyDoneError(f"seat {seat} has done that already this round")


def _write(g: Game, a: Write, log: _Log) -> None:
    check_seat(g, a.seat, Phase.WORD, "write a Heist word")
    word = check_word(g, a.word, log.lexicon)
    check_cluable(word)  # else the seat could only wait for the clock at the clues
    _record_word(g, a.seat, word, log.lexicon.knows(word), log)


def _record_word(g: Game, seat: int, word: str | None, known: bool, log: _Log) -> None:
    g.words[seat] = word
    if word is not None:
        g.known[seat] = known
    log.emit("wrote", seat=seat, stood_in=word is None)
    log.emit("word_kept", (seat,), seat=seat, word=word, known=known)
    if not g.waiting():
        _to_clues(g, log)


def _to_clues(g: Game, log: _Log) -> None:
    g.phase = Phase.CLUES
    log.emit("clues_open", seats=list(g.waiting()))
    if not g.waiting():
        _to_halt(g, log)


def clue_problem(word: str, tokens: Iterable[tuple[str, int]], tableau: Sequence[str]) -> str | None:
    """Why these clue tokens break "Drop Clues", or None: 1 to 5 tokens in all, each on a
    Tableau card the word uses, exactly as many on a card as the word uses it (Q(u): the Qs)."""
    counts = card_counts(word)
    seen: set[str] = set()
    total = 0
    for letter, n in tokens:
        if letter in seen:
            return f"{letter} is named twice"
        seen.add(letter)
        if letter not in tableau:
            return f"{letter!r} is not a card of the Tableau"
        if type(n) is not int or n < 1:
            return f"{letter} needs at least 1 token, or none named"
        if counts[letter] != n:
            return f"{letter} needs exactly {counts[letter]} token(s): the word has it {counts[letter]} time(s)"
        total += n
    if not MIN_TOKENS <= total <= MAX_TOKENS:
        return f"drop {MIN_TOKENS} to {MAX_TOKENS} clue tokens, not {total}"
    return None


def _clue(g: Game, a: Clue, log: _Log) -> None:
    check_seat(g, a.seat, Phase.CLUES, "drop clues")
    word = g.words[a.seat]
    assert word is not None  # waiting() holds only seats with a word
    problem = clue_problem(word, a.tokens, g.tableau)
    if problem is not None:
        raise BadCluesError(problem)
    _record_clues(g, a.seat, dict(a.tokens), log)


def _record_clues(g: Game, seat: int, tokens: dict[str, int], log: _Log) -> None:
    g.clues[seat] = tokens
    log.emit("clued", seat=seat, stood_in=not tokens)
    log.emit("clues_kept", (seat,), seat=seat, tokens=dict(tokens))
    if not g.waiting():
        _to_halt(g, log)


def _to_halt(g: Game, log: _Log) -> None:
    """Everybody's clue tokens appear on the Tableau at once."""
    g.phase = Phase.HALT
    log.emit("clues_shown", clues={str(s): dict(t) for s, t in sorted(g.clues.items()) if t})


def check_halt(g: Game, seat: int, text: str | None, lexicon: Lexicon) -> str | None:
    if text is None:
        return None
    word = check_word(g, text, lexicon)
    if word == g.words.get(seat):
        raise OwnWordError("your Heist and Halt words cannot be the same")
    return word


def _halt(g: Game, a: Halt, log: _Log) -> None:
    check_seat(g, a.seat, Phase.HALT, "halt")
    _record_halt(g, a.seat, check_halt(g, a.seat, a.word, log.lexicon), log)


def _record_halt(g: Game, seat: int, word: str | None, log: _Log) -> None:
    g.halts[seat] = word
    log.emit("halted", seat=seat)
    log.emit("halt_kept", (seat,), seat=seat, word=word)
    if not g.waiting():
        _reveal(g, log)


def _reveal(g: Game, log: _Log) -> None:
    """The Score Phase's reveal: every word and guess shown, then the challenge vote."""
    g.phase = Phase.VOTE
    log.emit(
        "revealed",
        words={str(s): w for s, w in sorted(g.words.items())},
        known={str(s): g.known[s] for s in g.clued()},
        clued=list(g.clued()),
        halts={str(s): w for s, w in sorted(g.halts.items())},
    )
    if not g.clued():
        _score(g, log)  # nothing stands to vote on


def vote_problem(g: Game, seat: int, overrule: Sequence[int]) -> str | None:
    clued = g.clued()
    for target in overrule:
        if target not in clued:
            return f"seat {target!r} has no word to vote on"
        if target == seat and g.known[seat]:
            return "you cannot vote out your own word"
    return None


def _vote(g: Game, a: Vote, log: _Log) -> None:
    check_seat(g, a.seat, Phase.VOTE, "vote")
    if len(set(a.overrule)) != len(a.overrule):
        raise BadVoteError("a vote names each seat once")
    problem = vote_problem(g, a.seat, a.overrule)
    if problem is not None:
        raise BadVoteError(problem)
    _record_vote(g, a.seat, tuple(a.overrule), log)


def _record_vote(g: Game, seat: int, overrule: tuple[int, ...] | None, log: _Log) -> None:
    g.votes[seat] = overrule
    log.emit("voted", seat=seat, abstained=overrule is None)
    log.emit("vote_kept", (seat,), seat=seat, overrule=None if overrule is None else list(overrule))
    if not g.waiting():
        _score(g, log)


def _score(g: Game, log: _Log) -> None:
    valid = verdicts(g.clued(), g.known, g.votes)
    final = g.round == g.rounds
    table = score_round(g.players, g.words, g.clues, g.halts, valid, g.tableau, g.vault, final)
    for entry in table:
        g.scores[entry.seat] += entry.points
    # New Round: every Heist and Halt word goes on the Word Gallery, valid or not.
    for seat, word in sorted(g.words.items()):
        if word is not None:
            g.gallery.append(
                {"round": g.round, "seat": seat, "word": word, "kind": "heist", "valid": valid.get(seat, False)}
            )
    for seat, word in sorted(g.halts.items()):
        if word is not None:
            g.gallery.append({"round": g.round, "seat": seat, "word": word, "kind": "halt", "valid": True})
    votes = {str(s): None if v is None else list(v) for s, v in sorted(g.votes.items())}
    g.last_round = {
        "round": g.round,
        "final": final,
        "tableau": list(g.tableau),
        "vault": list(g.vault),
        "votes": votes,
        "seats": [entry.to_dict() for entry in table],
        "scores": list(g.scores),
    }
    log.emit("round_scored", **g.last_round)
    if g.round >= g.rounds:
        g.phase = Phase.OVER
        log.emit("game_over", scores=list(g.scores), winners=winners(g))
    elif g.gate and not g.gate_opened and g.round == gate_after(g.rounds):
        g.phase = Phase.GATE
        log.emit("at_gate", round=g.round)
    else:
        _start_round(g, log)


def final_word_length(g: Game, seat: int) -> int:
    """The tie-break: the letters of the seat's valid Heist word of the final round (0: none)."""
    return max(
        (
            len(str(e["word"]))
            for e in g.gallery
            if e["round"] == g.rounds and e["seat"] == seat and e["kind"] == "heist" and e["valid"]
        ),
        default=0,
    )


def winners(g: Game) -> list[int]:
    """The most points; a tie goes to the longest valid Heist word of the final round,
    and a tie there is shared."""
    key = {s: (g.scores[s], final_word_length(g, s)) for s in range(g.players)}
    best = max(key.values())
    return [s for s in range(g.players) if key[s] == best]


# --- handlers -----------------------------------------------------------------------------


def _stand_in(g: Game, a: StandIn, log: _Log) -> None:
    """The clock's do-nothing choice for a quiet seat: no word (it scores nothing and is
    never halted), no clues (its word stands void), no guess, no vote (abstains)."""
    if type(a.seat) is not int or not 0 <= a.seat < g.players:
        raise NoSuchSeatError(f"there is no seat {a.seat!r} at this table")
    if g.phase not in (Phase.WORD, Phase.CLUES, Phase.HALT, Phase.VOTE):
        raise WrongPhaseError(f"no clock runs now: the game is in its {g.phase.value} phase")
    check_seat(g, a.seat, g.phase, "be stood in for")
    if g.phase is Phase.WORD:
        _record_word(g, a.seat, None, False, log)
    elif g.phase is Phase.CLUES:
        _record_clues(g, a.seat, {}, log)
    elif g.phase is Phase.HALT:
        _record_halt(g, a.seat, None, log)
    else:
        _record_vote(g, a.seat, None, log)


def _open_gate(g: Game, a: OpenGate, log: _Log) -> None:
    if g.phase is not Phase.GATE:
        raise WrongPhaseError(f"there is no gate to open: the game is in its {g.phase.value} phase")
    g.gate_opened = True
    log.emit("gate_opened", round=g.round + 1)
    _start_round(g, log)


_HANDLERS: dict[type[Any], Callable[[Game, Any, _Log], None]] = {
    Write: _write,
    Clue: _clue,
    Halt: _halt,
    Vote: _vote,
    StandIn: _stand_in,
    OpenGate: _open_gate,
}


__all__ = [
    "MAX_PLAYERS",
    "MAX_TOKENS",
    "MIN_PLAYERS",
    "MIN_TOKENS",
    "ROUNDS",
    "apply",
    "check_halt",
    "check_seat",
    "check_word",
    "clue_problem",
    "deal_cards",
    "final_word_length",
    "gate_after",
    "new_game",
    "replay",
    "vote_problem",
    "winners",
]
