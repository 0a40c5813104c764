"""Who sees what. One function per audience; nothing else builds what a screen shows.

- `public_view`: the big screen: the Tableau with its Showcase Letters, the two Bonus
  Vault cards, who has written, clued, halted and voted, the clue tokens once everybody's
  are down, the Word Gallery, the scores; the words and guesses only from the reveal on.
- `seat_view`: one player: the public view plus their own word, clues, guess and vote,
  and while they have a word to write, every dictionary word the Tableau makes
  (`playable`): the phone says as the word is typed whether the dictionary has it with no
  round trip. That list is small (a median of 36 to 100 words, 0.3 to 0.8 kB, at most
  2.3 kB on 720 dealt Tableaus: docs/RULES.md, "The dictionary on the phone").
"""

from __future__ import annotations

from typing import Any

from .letters import RARE, SHOWCASE_BONUS, VOWELS
from .lexicon import Lexicon
from .rules import gate_after, winners
from .state import Game, Phase

PRIVATE_KEYS = ("you", "my_word", "my_known", "my_clues", "my_halt", "my_vote", "can_act", "playable")

_CLUES_SHOWN = (Phase.HALT, Phase.VOTE)
_REVEALED = (Phase.VOTE,)


def _kind(letter: str) -> str:
    return "vowel" if letter in VOWELS else "rare" if letter in RARE else "common"


def public_view(g: Game) -> dict[str, Any]:
    shown = g.phase in _CLUES_SHOWN
    revealed = g.phase in _REVEALED
    return {
        "version": g.version,
        "phase": g.phase.value,
        "players": g.players,
        "language": g.language,
        "round": g.round,
        "rounds": g.rounds,
        "final": g.round == g.rounds,
        "gate": g.gate,
        "gate_after": gate_after(g.rounds) if g.gate else None,
        "gate_opened": g.gate_opened,
        "tableau": [
            {
                "letter": letter,
                "kind": _kind(letter),
                "showcase": SHOWCASE_BONUS[i] if i < len(SHOWCASE_BONUS) else 0,
            }
            for i, letter in enumerate(g.tableau)
        ],
        "vault": list(g.vault),
        "seats": [
            {
                "seat": s,
                "score": g.scores[s],
                "wrote": s in g.words,
                "has_word": g.words.get(s) is not None,
                "clued": s in g.clues,
                "halted": s in g.halts,
                "voted": s in g.votes,
                "clues": dict(g.clues.get(s, {})) if shown else None,
                "word": g.words.get(s) if revealed else None,
                "known": g.known.get(s) if revealed else None,
                "halt": g.halts.get(s) if revealed else None,
            }
            for s in range(g.players)
        ],
        "clued": list(g.clued()) if revealed else None,
        "waiting_for": list(g.waiting()),
        "gallery": [dict(e) for e in g.gallery],
        "last_round": g.last_round,
        "winners": winners(g) if g.phase is Phase.OVER else None,
    }


def _playable(g: Game, seat: int, lexicon: Lexicon | None) -> list[str] | None:
    """The dictionary's words the Tableau makes, for a seat that has its word to write."""
    if lexicon is None or g.phase is not Phase.WORD or seat in g.words or seat not in g.waiting():
        return None
    return list(lexicon.playable(g.tableau))


def seat_private(g: Game, seat: int, lexicon: Lexicon | None = None) -> dict[str, Any]:
    """What `seat_view(g, seat)` adds to `public_view(g)`: the seat's own secrets (and
    what the Tableau makes, which only a seat with a word to write is sent)."""
    vote = g.votes.get(seat)
    return {
        "you": seat,
        "my_word": g.words.get(seat),
        "my_known": g.known.get(seat),
        "my_clues": dict(g.clues.get(seat, {})),
        "my_halt": g.halts.get(seat),
        "my_vote": None if vote is None else list(vote),
        "can_act": seat in g.waiting(),
        "playable": _playable(g, seat, lexicon),
    }


def seat_view(g: Game, seat: int, lexicon: Lexicon | None = None) -> dict[str, Any]:
    return {**public_view(g), **seat_private(g, seat, lexicon)}


__all__ = ["PRIVATE_KEYS", "public_view", "seat_private", "seat_view"]
