"""Build Word Heist games in precise states for rules tests.

`new_game` shuffles; a rules test needs "the Tableau is I X L E S H T and the vault
holds the longest-word and two-vowels cards". `table` starts from a real `new_game` and
lays those down; `play_round` plays one whole round from a script of words, clues,
guesses and votes. The dictionary is a small `WordList` of the tests' own (the rules
never read the installed one here), with the real English stemmer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import snowballstemmer  # type: ignore[import-untyped]

from games.word.actions import Action, Clue, Halt, StandIn, Vote, Write
from games.word.lexicon import WordList
from games.word.rules import apply, new_game
from games.word.state import Event, Game

WORDS = (
    "LILIES", "SHELL", "SHELLS", "THIS", "LIST", "LISTS", "SHE", "HIS", "ISLE", "TILE", "TILES", "HEIST",
    "HEISTS", "SLEET", "STILL", "HILL", "HILLS", "SET", "SIT", "HIT", "LET", "TEE", "SEE", "TELL", "SELL",
    "QUIT", "QUITE", "SQUISH", "QUEST", "SUIT",
)  # fmt: skip
LEX = WordList("en", WORDS, snowballstemmer.stemmer("english").stemWord)
TABLEAU = ("I", "X", "L", "E", "S", "H", "T")  # I under +1, X under +2
VAULT = ("longest", "two_vowels")  # the rulebook's two cards: +2 and +1


def table(
    players: int = 3,
    tableau: Sequence[str] = TABLEAU,
    vault: Sequence[str] = VAULT,
    *,
    round: int = 1,
    gate: bool = False,
    gallery: Sequence[tuple[str, str]] = (),
) -> Game:
    """A game in the Heist Phase of `round` with this Tableau and these vault cards;
    `gallery`: (word, kind) already on the Word Gallery from earlier rounds."""
    g, _ = new_game(0, players, LEX, gate=gate)
    g.cards = g.tableau = tuple(tableau)
    g.vault = tuple(vault)
    g.round = round
    g.gallery = [{"round": 0, "seat": 0, "word": w, "kind": k, "valid": True} for w, k in gallery]
    return g


def play(g: Game, *actions: Action) -> tuple[Game, list[Event]]:
    events: list[Event] = []
    for action in actions:
        g, ev = apply(g, action, LEX)
        events += ev
    return g, events


def play_round(
    g: Game,
    words: Mapping[int, str | None],
    clues: Mapping[int, Mapping[str, int] | None],
    halts: Mapping[int, str | None] | None = None,
    votes: Mapping[int, Sequence[int] | None] | None = None,
) -> tuple[Game, list[Event]]:
    """One round: every seat's word (None: its clock ran out), clues (None: ran out),
    guess (default none) and vote (default: overrule nothing; None: abstained)."""
    halts = halts or {}
    votes = votes or {}
    actions: list[Action] = []
    for s in range(g.players):
        word = words.get(s)
        actions.append(Write(s, word) if word is not None else StandIn(s))
    for s in range(g.players):
        if words.get(s) is not None:
            tokens = clues.get(s)
            actions.append(Clue(s, tuple(tokens.items())) if tokens is not None else StandIn(s))
    for s in range(g.players):
        actions.append(Halt(s, halts.get(s)))
    g, events = play(g, *actions)
    if g.clued():
        for s in range(g.players):
            vote = votes.get(s, ())
            g, more = play(g, Vote(s, tuple(vote)) if vote is not None else StandIn(s))
            events += more
    return g, events


def of(events: Sequence[Event], type_: str) -> list[Event]:
    return [e for e in events if e.type == type_]


def scored(events: Sequence[Event]) -> dict[int, dict[str, Any]]:
    """seat -> its line of the last round_scored event."""
    last = of(events, "round_scored")[-1]
    return {int(line["seat"]): line for line in last.data["seats"]}
