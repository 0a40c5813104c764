"""What is legal now: who the game waits for and what each may send. It only reads.

A word is typed, so no list holds every word the rules accept: `legal_actions` lists the
dictionary's words the Tableau can make (the most common first, `LISTED_WORDS` of them:
what a bot chooses from) and `accepts_typed` says whether any other typed word is
accepted. Clue tokens, votes and the duties are listed in full.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from itertools import combinations

from .actions import Action, Clue, Halt, OpenGate, StandIn, Vote, Write
from .errors import IllegalActionError
from .letters import card_counts
from .lexicon import Lexicon
from .rules import MAX_TOKENS, check_cluable, check_halt, check_seat, check_word, cluable
from .spelling import MIN_LETTERS
from .state import Game, Phase

LISTED_WORDS = 12


def waiting_for(g: Game) -> tuple[int, ...]:
    return g.waiting()


def stand_in(g: Game) -> Action | None:
    """The clock's do-nothing choice for the first seat the step waits for."""
    waiting = g.waiting()
    return StandIn(waiting[0]) if waiting else None


def fits_clues(word: str, tokens: Mapping[str, int]) -> bool:
    """Whether `word` could be the word behind these clue tokens (exact counts)."""
    counts = card_counts(word)
    return all(counts[letter] == n for letter, n in tokens.items())


@lru_cache(maxsize=2048)
def _open_words(lexicon: Lexicon, tableau: tuple[str, ...], gallery: tuple[str, ...]) -> tuple[str, ...]:
    """The dictionary's words the Tableau makes that the Word Gallery does not rule out."""
    roots = {lexicon.root(w) for w in gallery}
    used = set(gallery)
    return tuple(
        w
        for w in lexicon.playable(tableau)
        if len(w) >= MIN_LETTERS and w not in used and (not roots or lexicon.root(w) not in roots)
    )


def open_words(g: Game, lexicon: Lexicon) -> tuple[str, ...]:
    return _open_words(lexicon, g.tableau, tuple(str(e["word"]) for e in g.gallery))


def _made_up(g: Game, lexicon: Lexicon) -> list[str]:
    """A word the Tableau makes that no dictionary needs to know, for a Tableau it has
    nothing for: a seat can always write something (the table then votes on it)."""
    for a in g.tableau:
        for b in g.tableau:
            try:
                return [check_word(g, a + b + a, lexicon)]
            except IllegalActionError:
                continue
    return []


def word_choices(g: Game, seat: int, lexicon: Lexicon) -> list[str]:
    """The Heist words listed for `seat`: the dictionary's commonest open words."""
    words = [w for w in open_words(g, lexicon) if cluable(w)][:LISTED_WORDS]
    return words or _made_up(g, lexicon)


def halt_choices(g: Game, seat: int, lexicon: Lexicon) -> list[str]:
    """The Halt words listed for `seat`: open words that fit another seat's clues first."""
    own = g.words.get(seat)
    shown = [t for s, t in sorted(g.clues.items()) if s != seat and t]
    candidates = [w for w in open_words(g, lexicon) if w != own]
    fitting = [w for w in candidates if any(fits_clues(w, t) for t in shown)]
    listed = list(dict.fromkeys(fitting[:LISTED_WORDS] + candidates[:LISTED_WORDS]))
    return listed[: 2 * LISTED_WORDS]


def clue_choices(word: str) -> list[tuple[tuple[str, int], ...]]:
    """Every legal clue placement for `word`: a set of its cards, each with all its
    count's tokens, 1 to 5 in all."""
    counts = sorted(card_counts(word).items())
    out = []
    for k in range(1, len(counts) + 1):
        for chosen in combinations(counts, k):
            if sum(n for _, n in chosen) <= MAX_TOKENS:
                out.append(tuple(chosen))
    return out


def vote_choices(g: Game, seat: int) -> list[tuple[int, ...]]:
    targets = [s for s in g.clued() if s != seat or not g.known[s]]
    return [chosen for k in range(len(targets) + 1) for chosen in combinations(targets, k)]


def legal_actions(g: Game, seat: int | None, lexicon: Lexicon) -> list[Action]:
    """Every listed action `seat` may send now; `seat=None`: the host's (the gate) and the
    clock's stand-ins for each waiting seat."""
    if seat is None:
        if g.phase is Phase.GATE:
            return [OpenGate()]
        return [StandIn(s) for s in g.waiting()]
    if seat not in g.waiting():
        return []
    if g.phase is Phase.WORD:
        return [Write(seat, w) for w in word_choices(g, seat, lexicon)]
    if g.phase is Phase.CLUES:
        word = g.words[seat]
        assert word is not None
        return [Clue(seat, tokens) for tokens in clue_choices(word)]
    if g.phase is Phase.HALT:
        return [Halt(seat, None), *(Halt(seat, w) for w in halt_choices(g, seat, lexicon))]
    if g.phase is Phase.VOTE:
        return [Vote(seat, chosen) for chosen in vote_choices(g, seat)]
    return []


def accepts_typed(g: Game, action: object, lexicon: Lexicon) -> bool:
    """Whether the rules accept a typed word no list holds (a Write, a Halt)."""
    try:
        if isinstance(action, Write):
            check_seat(g, action.seat, Phase.WORD, "write")
            check_cluable(check_word(g, action.word, lexicon))
            return True
        if isinstance(action, Halt) and action.word is not None:
            check_seat(g, action.seat, Phase.HALT, "halt")
            check_halt(g, action.seat, action.word, lexicon)
            return True
    except IllegalActionError:
        return False
    return False


__all__ = [
    "LISTED_WORDS",
    "accepts_typed",
    "clue_choices",
    "fits_clues",
    "halt_choices",
    "legal_actions",
    "open_words",
    "stand_in",
    "vote_choices",
    "waiting_for",
    "word_choices",
]
