"""Word Heist played by bots on the real engine, by policy: the simulator's tables.

Pure: the caller hands in the definition (holding its dictionary) and the generator.
A seat writes one of the `think_of` commonest words its Tableau makes and its Gallery
allows (a person thinks of a common word), drops clue tokens up to `max_tokens`,
halts a word that fits another seat's clues with probability `halt_rate`, and claims
its own word at the vote when the dictionary lacks it; with probability `quiet` it
lets a step's clock run out (the stand-in: no word, no clues, no guess, no vote).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.definition import Setup
from games.word.actions import Action, Clue, Halt, StandIn, Vote, Write
from games.word.definition import WordDefinition
from games.word.legal import clue_choices, fits_clues, halt_choices, word_choices
from games.word.state import Game, Phase

STEPS = ("word", "clues", "halt", "vote")


@dataclass(frozen=True, slots=True)
class Policy:
    think_of: int = 12
    max_tokens: int = 3
    halt_rate: float = 0.9
    quiet: float = 0.0

    def __post_init__(self) -> None:
        if self.think_of < 1 or not 1 <= self.max_tokens <= 5:
            raise ValueError("think_of is at least 1 and max_tokens 1 to 5")
        if not (0.0 <= self.halt_rate <= 1.0 and 0.0 <= self.quiet < 1.0):
            raise ValueError("halt_rate is 0 to 1 and quiet 0 to under 1")


@dataclass(slots=True)
class TableGame:
    """One simulated table's game: what the report counts."""

    players: int
    scores: list[int]
    winners: list[int]
    # per step name, per round: the seats that answered (not the clock's stand-in)
    answers: dict[str, list[int]] = field(default_factory=dict)
    stand_ins: int = 0
    halts_made: int = 0
    halts_caught: int = 0  # "Halt!" moments: a guess that named another's valid word
    matched: int = 0
    word_letters: list[int] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "scores": self.scores,
            "winners": self.winners,
            "answers": self.answers,
            "stand_ins": self.stand_ins,
            "halts_made": self.halts_made,
            "halts_caught": self.halts_caught,
            "matched": self.matched,
            "word_letters": self.word_letters,
        }


def choose(definition: WordDefinition, g: Game, seat: int, policy: Policy, r: random.Random) -> Action:
    """`seat`'s answer to the step `g` waits on, by `policy`."""
    if r.random() < policy.quiet:
        return StandIn(seat)
    lexicon = definition.lexicon(g.language)
    if g.phase is Phase.WORD:
        words = word_choices(g, seat, lexicon)[: policy.think_of]
        return Write(seat, r.choice(words)) if words else StandIn(seat)
    if g.phase is Phase.CLUES:
        word = g.words[seat]
        assert word is not None
        choices = clue_choices(word)
        modest = [c for c in choices if sum(n for _, n in c) <= policy.max_tokens]
        return Clue(seat, r.choice(modest or choices))
    if g.phase is Phase.HALT:
        shown = [t for s, t in g.clues.items() if s != seat and t]
        fits = [w for w in halt_choices(g, seat, lexicon) if any(fits_clues(w, t) for t in shown)]
        if fits and r.random() < policy.halt_rate:
            return Halt(seat, r.choice(fits))
        return Halt(seat, None)
    claim = (seat,) if seat in g.clued() and not g.known[seat] else ()
    return Vote(seat, claim)


def play_table(
    definition: WordDefinition, players: int, seed: int, policy: Policy, r: random.Random, language: str = "en"
) -> TableGame:
    """A whole game at one table (no gate: a table alone), every seat answering each
    step in a random order as phones do."""
    g, _ = definition.setup(Setup(players=players, seed=seed, gate=False, options={"language": language}))
    out = TableGame(players=players, scores=[], winners=[])
    counted = 0  # rounds scored so far
    while not definition.is_over(g):
        waiting = list(definition.waiting_for(g))
        r.shuffle(waiting)
        step = g.phase.value
        answered = 0
        for seat in waiting:
            if seat not in definition.waiting_for(g):
                continue
            action = choose(definition, g, seat, policy, r)
            if isinstance(action, StandIn):
                out.stand_ins += 1
            else:
                answered += 1
            if isinstance(action, Halt) and action.word is not None:
                out.halts_made += 1
            out.actions.append(action)
            g, _ = definition.apply(g, action)
        out.answers.setdefault(step, []).append(answered)
        if g.last_round is not None and g.last_round["round"] > counted:
            counted = g.last_round["round"]
            _count_round(out, g.last_round)
    out.scores = list(g.scores)
    out.winners = [s.seat for s in definition.standings(g) if s.winner]
    return out


def _count_round(out: TableGame, last: dict[str, Any]) -> None:
    for seat in last["seats"]:
        out.halts_caught += len(seat["caught"])
        out.matched += 1 if seat["matched"] else 0
        if seat["word"] is not None and seat["valid"]:
            out.word_letters.append(len(seat["word"]))
