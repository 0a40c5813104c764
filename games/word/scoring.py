"""The Score Phase as pure functions: a word's value, the challenge vote's verdicts,
and what each seat scores in a round (docs/RULES.md, "Word Heist", "Scoring").

WORD SCORE = CLUE TOKENS + SHOWCASE LETTERS + VAULT BONUSES, doubled in the final round.
A Heist word scores for its writer only if it is valid, unique among the valid Heist
words and halted by nobody; each player who halted it collects its full value; a halt
of matching words collects the largest of their values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .letters import SHOWCASE_BONUS, cards_of, showcase_of
from .vault import BY_CODE, Heist


@dataclass(frozen=True, slots=True)
class WordValue:
    tokens: int
    showcase: int
    vault: tuple[str, ...]  # the codes of the Bonus Vault cards the word meets
    vault_points: int
    multiplier: int  # 2 in the final round

    @property
    def total(self) -> int:
        return (self.tokens + self.showcase + self.vault_points) * self.multiplier

    def to_dict(self) -> dict[str, Any]:
        return {
            "tokens": self.tokens,
            "showcase": self.showcase,
            "vault": list(self.vault),
            "vault_points": self.vault_points,
            "multiplier": self.multiplier,
            "total": self.total,
        }


def word_value(
    word: str,
    tokens: Mapping[str, int],
    tableau: Sequence[str],
    vault: Sequence[str],
    valid_words: Sequence[str],
    final: bool,
) -> WordValue:
    """The word's value: 1 per clue token; each Showcase Letter's bonus once if the word
    uses its card; each Bonus Vault card's points if the word meets it; x2 in the final round."""
    used = cards_of(word)
    showcase = sum(bonus for card, bonus in zip(showcase_of(tableau), SHOWCASE_BONUS, strict=True) if card in used)
    heist = Heist(word=word, tokens=tokens, tableau=tableau, valid_words=valid_words)
    met = tuple(code for code in vault if BY_CODE[code].met(heist))
    return WordValue(
        tokens=sum(tokens.values()),
        showcase=showcase,
        vault=met,
        vault_points=sum(BY_CODE[code].points for code in met),
        multiplier=2 if final else 1,
    )


def verdict(known: bool, overruled: int, voters: int) -> bool:
    """Whether a clued word is valid after the vote. The table overrules the dictionary
    by simple majority of those who voted, ties for the challenged player: a word the
    dictionary has falls only when more than half reject it; a word it lacks stands when
    at least half (and at least one player) accept it."""
    if known:
        return 2 * overruled <= voters
    return overruled > 0 and 2 * overruled >= voters


def verdicts(
    clued: Sequence[int], known: Mapping[int, bool], votes: Mapping[int, tuple[int, ...] | None]
) -> dict[int, bool]:
    """seat -> valid, for every clued word; abstentions (None) are not counted."""
    cast = [v for v in votes.values() if v is not None]
    return {s: verdict(known[s], sum(1 for v in cast if s in v), len(cast)) for s in clued}


@dataclass(frozen=True, slots=True)
class SeatScore:
    seat: int
    word: str | None
    valid: bool
    value: WordValue | None  # None: no valid word
    matched: bool  # another valid Heist word is the same
    halted_by: tuple[int, ...]  # seats whose Halt word is this word
    heist: int  # what the seat scores for its own word
    halt: str | None
    caught: tuple[int, ...]  # seats whose valid Heist word this seat halted
    halt_points: int

    @property
    def points(self) -> int:
        return self.heist + self.halt_points

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "word": self.word,
            "valid": self.valid,
            "value": None if self.value is None else self.value.to_dict(),
            "matched": self.matched,
            "halted_by": list(self.halted_by),
            "heist": self.heist,
            "halt": self.halt,
            "caught": list(self.caught),
            "halt_points": self.halt_points,
            "points": self.points,
        }


def score_round(
    players: int,
    words: Mapping[int, str | None],
    clues: Mapping[int, Mapping[str, int]],
    halts: Mapping[int, str | None],
    valid: Mapping[int, bool],
    tableau: Sequence[str],
    vault: Sequence[str],
    final: bool,
) -> list[SeatScore]:
    """Every seat's score for the round. `valid`: the verdict of every clued word (a seat
    missing from it has no standing word: none, no clues)."""
    good = {s: w for s, w in words.items() if w is not None and valid.get(s, False)}
    valid_words = list(good.values())
    values = {s: word_value(w, clues[s], tableau, vault, valid_words, final) for s, w in good.items()}
    out = []
    for seat in range(players):
        word = good.get(seat)
        halted_by = tuple(h for h in range(players) if h != seat and word is not None and halts.get(h) == word)
        matched = word is not None and sum(1 for w in valid_words if w == word) > 1
        heist = values[seat].total if word is not None and not matched and not halted_by else 0
        guess = halts.get(seat)
        caught = tuple(t for t, w in sorted(good.items()) if t != seat and guess is not None and w == guess)
        out.append(
            SeatScore(
                seat=seat,
                word=words.get(seat),
                valid=word is not None,
                value=values.get(seat),
                matched=matched,
                halted_by=halted_by,
                heist=heist,
                halt=guess,
                caught=caught,
                halt_points=max((values[t].total for t in caught), default=0),
            )
        )
    return out


__all__ = ["SeatScore", "WordValue", "score_round", "verdict", "verdicts", "word_value"]
