"""What the screens need to know of the rules, as one JSON-able dict, derived from the
engine's own declarations so a rule changed here reaches the screens with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import DANGER_RANKS, JOKER, RANK_NAMES, RUN_DECK, SIDE_STACK, kind, rank_of, spot_value, title
from .rules import HEISTS, MAX_GAMES, MAX_HEISTS, MAX_PLAYERS, MIN_PLAYERS, PARTY_GAMES, gate_after, gate_point


def rules_for_screens(say: Callable[[str], str] = str) -> dict[str, Any]:
    """The rules as the screens use them (a fresh dict each call; plain JSON types only).
    `say`: the translation of a marked text (the server passes gettext): card titles and
    rank names in it.

    {
      "cards": {"7D": {"title": "7 of diamonds", "kind": "bonus", "rank": "7",
                        "value": 7, "pile": "run"}, ...},   # value: null for a danger
      "run_deck": ["JS", ...],      # 34 codes
      "side_stack": ["2S", ...],    # 16 codes
      "danger_ranks": {"J": "Jack", ..., "X": "Joker"},
      "joker": "X",                 # a second Joker also halves each caught bank
      "bonus_range": [4, 18],       # a diamond room's worth
      "heists": {"default": 5, "max": 13, "gate_after": 2},
      "party": {"games": 3, "max_games": 4, "gate": {"game": 2, "heist": 2}},
                                    # a party's table: games in a row, and its gate
      "players": {"min": 3, "max": 8},
      "decide_default": "get_out",  # what a clock's stand-in chooses
    }
    """
    party_gate = gate_point(HEISTS, PARTY_GAMES)
    cards: dict[str, Any] = {}
    for pile, codes in (("run", RUN_DECK), ("side", SIDE_STACK)):
        for code in codes:
            cards[code] = {
                "title": title(code, say),
                "kind": "side" if pile == "side" else kind(code),
                "rank": rank_of(code),
                "value": None if kind(code) == "danger" else spot_value(code),
                "pile": pile,
            }
    return {
        "cards": cards,
        "run_deck": list(RUN_DECK),
        "side_stack": list(SIDE_STACK),
        "danger_ranks": {rank: say(RANK_NAMES[rank]) for rank in DANGER_RANKS},
        "joker": JOKER,
        "bonus_range": [2 + 2, 9 + 9],
        "heists": {"default": HEISTS, "max": MAX_HEISTS, "gate_after": gate_after(HEISTS)},
        "party": {
            "games": PARTY_GAMES,
            "max_games": MAX_GAMES,
            "gate": dict(zip(("game", "heist"), party_gate, strict=True)),
        },
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        "decide_default": "get_out",
    }


__all__ = ["rules_for_screens"]
