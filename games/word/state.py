"""The game state: plain data, copied (never shared) by every action.

A round's secrets live here until the reveal: each seat's Heist word, its clue tokens
(until everybody has placed theirs), its Halt word and its vote. The views decide who
sees what (games/word/views.py).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.event import Event as Event  # one event shape for every game; re-exported


class Phase(enum.Enum):
    WORD = "word"  # everybody writes a secret Heist word
    CLUES = "clues"  # everybody with a word drops 1-5 clue tokens, shown all at once
    HALT = "halt"  # everybody writes a secret Halt word (a guess at another's word)
    VOTE = "vote"  # the words are revealed; the challenge vote, then the score
    GATE = "gate"  # a party's half-way stop: waits for the host
    OVER = "over"


@dataclass(slots=True)
class Game:
    """The whole state of one table."""

    players: int
    seed: int | str
    rng: int  # the SplitMix64 state (games/rng.py)
    version: int
    phase: Phase
    language: str  # the party's language: which dictionary and spelling
    rounds: int  # 3 as printed
    round: int  # 1-based
    gate: bool
    gate_opened: bool
    cards: tuple[str, ...]  # the letter cards in play, dealt once at setup
    tableau: tuple[str, ...]  # this round's order: [0] under +1, [1] under +2
    vault_deck: list[str]  # Bonus Vault cards not dealt yet; the top is the END
    vault: tuple[str, ...]  # this round's two Bonus Vault cards
    words: dict[int, str | None]  # seat -> Heist word (folded); None: the stand-in's no word
    known: dict[int, bool]  # seat -> whether the dictionary has its word
    clues: dict[int, dict[str, int]]  # seat -> clue tokens by card; {}: the stand-in's none
    halts: dict[int, str | None]  # seat -> Halt word (folded); None: no guess
    votes: dict[int, tuple[int, ...] | None]  # seat -> the seats it overrules; None: abstained
    gallery: list[dict[str, Any]]  # every word written, [{round, seat, word, kind}]
    scores: list[int]
    last_round: dict[str, Any] | None  # the last scored round, as the screens show it

    def clone(self) -> Game:
        return Game(
            players=self.players,
            seed=self.seed,
            rng=self.rng,
            version=self.version,
            phase=self.phase,
            language=self.language,
            rounds=self.rounds,
            round=self.round,
            gate=self.gate,
            gate_opened=self.gate_opened,
            cards=self.cards,
            tableau=self.tableau,
            vault_deck=self.vault_deck[:],
            vault=self.vault,
            words=dict(self.words),
            known=dict(self.known),
            clues={s: dict(t) for s, t in self.clues.items()},
            halts=dict(self.halts),
            votes=dict(self.votes),
            gallery=self.gallery[:],  # entries are replaced, never changed in place
            scores=self.scores[:],
            last_round=self.last_round,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "seed": self.seed,
            "rng": str(self.rng),
            "version": self.version,
            "phase": self.phase.value,
            "language": self.language,
            "rounds": self.rounds,
            "round": self.round,
            "gate": self.gate,
            "gate_opened": self.gate_opened,
            "cards": list(self.cards),
            "tableau": list(self.tableau),
            "vault_deck": list(self.vault_deck),
            "vault": list(self.vault),
            "words": {str(s): w for s, w in sorted(self.words.items())},
            "known": {str(s): k for s, k in sorted(self.known.items())},
            "clues": {str(s): dict(t) for s, t in sorted(self.clues.items())},
            "halts": {str(s): w for s, w in sorted(self.halts.items())},
            "votes": {str(s): None if v is None else list(v) for s, v in sorted(self.votes.items())},
            "gallery": [dict(e) for e in self.gallery],
            "scores": list(self.scores),
            "last_round": self.last_round,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Game:
        return cls(
            players=int(d["players"]),
            seed=d["seed"],
            rng=int(d["rng"]),
            version=int(d["version"]),
            phase=Phase(d["phase"]),
            language=str(d["language"]),
            rounds=int(d["rounds"]),
            round=int(d["round"]),
            gate=bool(d["gate"]),
            gate_opened=bool(d["gate_opened"]),
            cards=tuple(str(c) for c in d["cards"]),
            tableau=tuple(str(c) for c in d["tableau"]),
            vault_deck=[str(c) for c in d["vault_deck"]],
            vault=tuple(str(c) for c in d["vault"]),
            words={int(s): w for s, w in d["words"].items()},
            known={int(s): bool(k) for s, k in d["known"].items()},
            clues={int(s): {str(c): int(n) for c, n in t.items()} for s, t in d["clues"].items()},
            halts={int(s): w for s, w in d["halts"].items()},
            votes={int(s): None if v is None else tuple(int(x) for x in v) for s, v in d["votes"].items()},
            gallery=[dict(e) for e in d["gallery"]],
            scores=[int(x) for x in d["scores"]],
            last_round=d["last_round"],
        )

    def clued(self) -> tuple[int, ...]:
        """The seats whose word stands this round: written and clued (ascending)."""
        return tuple(s for s in sorted(self.words) if self.words[s] is not None and self.clues.get(s))

    def waiting(self) -> tuple[int, ...]:
        """The seats the current step waits for, ascending."""
        everyone = range(self.players)
        if self.phase is Phase.WORD:
            return tuple(s for s in everyone if s not in self.words)
        if self.phase is Phase.CLUES:
            return tuple(s for s in everyone if self.words.get(s) is not None and s not in self.clues)
        if self.phase is Phase.HALT:
            return tuple(s for s in everyone if s not in self.halts)
        if self.phase is Phase.VOTE:
            return tuple(s for s in everyone if s not in self.votes)
        return ()


__all__ = ["Event", "Game", "Phase"]
